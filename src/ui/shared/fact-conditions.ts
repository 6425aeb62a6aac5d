/**
 * A fact's conditions and provenance in the words every view shows (issue 26, part 5): the
 * verdict line and hover card ("2.31 eV · HSE06 · indirect · computed"), the dataset table's
 * Method / Temperature / Pressure / Other conditions / Provenance columns, its method and
 * provenance filters and the plot's series by method. Pure functions over the contract's
 * `Condition` and `Provenance` (src/contracts/conditions.ts), so each view says the same thing.
 */
import {
  CONDITION_KINDS,
  formatConditions,
  formatProvenance,
  type Condition,
  type ConditionKind,
  type Provenance,
} from '../../contracts/conditions';

/** The kinds the dataset table gives a column of their own; every other kind goes to "Other conditions". */
export const OWN_COLUMN_KINDS: readonly ConditionKind[] = ['method', 'temperature', 'pressure'];

/**
 * The values of `conditions` of the given kinds, in the contract's fixed kind order, each once,
 * joined by " · ": `conditionText(c, ['method'])` → "HSE06"; '' when none is of those kinds.
 */
export function conditionText(conditions: readonly Condition[] | undefined, kinds: readonly ConditionKind[]): string {
  return formatConditions(conditions?.filter((condition) => kinds.includes(condition.kind)));
}

/** The kinds without a column of their own (field, strain, direction, phase, … and legacy free text). */
export const OTHER_CONDITION_KINDS: readonly ConditionKind[] = CONDITION_KINDS.filter((kind) => !OWN_COLUMN_KINDS.includes(kind));

/** The method(s) of a fact ("HSE06", "GGA-PBE · SOC"), '' when it states none. */
export function methodText(conditions: readonly Condition[] | undefined): string {
  return conditionText(conditions, ['method']);
}

/**
 * The whole fact after its value, as one line: the value as printed, the conditions in the
 * contract's order (method first) and the provenance — "2.31 eV · HSE06 · indirect · computed",
 * "0.7 eV · cited [19]", or the value alone when there are neither.
 */
export function factLine(value: string, conditions: readonly Condition[] | undefined, provenance: Provenance | undefined): string {
  return [value, formatConditions(conditions), formatProvenance(provenance)].filter((part) => part !== '').join(' · ');
}

/** The provenance the dataset filter can ask for: a kind, or `not_cited` (measured, computed or unknown: "hide cited"). */
export type ProvenanceFilter = '' | Provenance['kind'] | 'not_cited';

/** A row's provenance kind for filters and the table; a row saved before provenance existed is `unknown`. */
export function provenanceKind(provenance: Provenance | undefined): Provenance['kind'] {
  return provenance?.kind ?? 'unknown';
}

/** Lower case with spaces, hyphens and slashes dropped, so "GGA/PBE", "gga-pbe" and "GGA PBE" compare equal. */
function methodWord(text: string): string {
  return text.toLowerCase().replace(/[\s\-/–]+/g, '');
}

/** What the dataset page's method and provenance filters ask; '' means any. */
export interface ConditionFilter {
  /** The start of a method, in any case and spelling of separators ("hse" finds HSE06, "gga/pbe" GGA-PBE). */
  method: string;
  provenance: ProvenanceFilter;
}

/** Whether `filter` asks anything (a method typed, or a provenance chosen). */
export function isConditionFiltered(filter: ConditionFilter): boolean {
  return filter.method.trim() !== '' || filter.provenance !== '';
}

/**
 * A test of a row against `filter`, or undefined when the filter asks nothing. Method: some
 * method condition of the row starts with the typed text (`methodWord` spelling); provenance: the
 * row's kind (`provenanceKind`), or anything but `cited` for `not_cited`.
 */
export function conditionMatcher(
  filter: ConditionFilter,
): ((row: { conditions?: readonly Condition[] | undefined; provenance?: Provenance | undefined }) => boolean) | undefined {
  if (!isConditionFiltered(filter)) return undefined;
  const method = methodWord(filter.method.trim());
  const provenance = filter.provenance;
  return (row) => {
    if (
      method !== '' &&
      !row.conditions?.some((condition) => condition.kind === 'method' && methodWord(condition.value).startsWith(method))
    )
      return false;
    if (provenance === '') return true;
    const kind = provenanceKind(row.provenance);
    return provenance === 'not_cited' ? kind !== 'cited' : kind === provenance;
  };
}
