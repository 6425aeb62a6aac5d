/**
 * The "Add a property" form as plain strings, and its translation to a `PropertyDefinition`
 * validated by the same `PropertySchema` as the built-in schemas (zod's messages, named by
 * field). The stored list and its reader (`readUserProperties`, untrusted: another version may
 * have written it) are declared in src/extension/stored-settings.ts. Pure.
 */
import { userPropertiesSetting } from '../../extension/stored-settings';
import { PropertyDimensionSchema, PropertySchema, type PropertyDefinition, type PropertyDimension } from '../../contracts/property';

export { MAX_USER_PROPERTIES, readUserProperties } from '../../extension/stored-settings';

/** The `browser.storage.local` key of the reader's properties (a JSON array of `PropertyDefinition`). */
export const USER_PROPERTIES_KEY = userPropertiesSetting.key;

/** The dimensions offered in the form's select, in `PropertyDimensionSchema`'s order. */
export const PROPERTY_DIMENSIONS: readonly PropertyDimension[] = PropertyDimensionSchema.options;

/** What the form's inputs hold. */
export interface PropertyDraft {
  name: string;
  label: string;
  /** Comma-separated. */
  synonyms: string;
  /** The canonical unit, e.g. "eV". */
  unit: string;
  min: string;
  max: string;
  dimension: PropertyDimension;
}

export const EMPTY_PROPERTY_DRAFT: PropertyDraft = { name: '', label: '', synonyms: '', unit: '', min: '', max: '', dimension: 'energy' };

/** The note stored with a reader's property (`PropertySchema.note` must not be blank). */
export const USER_PROPERTY_NOTE = 'Added by the reader in the side panel; the plausible range is theirs.';

const fieldNames: Record<string, string> = {
  name: 'Name',
  label: 'Label',
  synonyms: 'Synonyms',
  canonicalUnit: 'Unit',
  units: 'Unit',
  plausibleRange: 'Plausible range',
  dimension: 'Dimension',
};

/** One zod issue in words: "Name: name must be lower-case snake case, e.g. "band_gap"". */
function issueText(issue: { path: readonly PropertyKey[]; message: string }): string {
  const field = fieldNames[String(issue.path[0] ?? '')] ?? 'Property';
  return `${field}: ${issue.message}`;
}

function parseNumber(text: string): number | null {
  const trimmed = text.trim().replace('−', '-');
  if (trimmed === '') return null;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : null;
}

/**
 * The property the form describes, or its problems in words (one line per problem).
 * Synonyms are split on commas and trimmed, blanks dropped; the unit is both the canonical unit
 * and the only listed unit; min and max must be numbers ("−" accepted for minus). Checked with
 * `PropertySchema` (snake-case name, non-blank label, a synonym, min ≤ max). A name already in
 * `takenNames` (built-in or already added) is refused, so a reader's property never silently
 * replaces another.
 */
export function propertyFromDraft(
  draft: PropertyDraft,
  takenNames: readonly string[],
): { ok: true; property: PropertyDefinition } | { ok: false; problems: string[] } {
  const problems: string[] = [];
  const min = parseNumber(draft.min);
  const max = parseNumber(draft.max);
  if (min === null) problems.push('Plausible range: give the minimum as a number, e.g. 0.');
  if (max === null) problems.push('Plausible range: give the maximum as a number, e.g. 10.');
  const name = draft.name.trim();
  if (takenNames.includes(name)) problems.push(`Name: a property named "${name}" already exists; choose another name.`);
  const unit = draft.unit.trim();
  const parsed = PropertySchema.safeParse({
    name,
    label: draft.label.trim(),
    synonyms: draft.synonyms
      .split(',')
      .map((synonym) => synonym.trim())
      .filter((synonym) => synonym !== ''),
    dimension: draft.dimension,
    canonicalUnit: unit,
    units: unit === '' ? [] : [unit],
    plausibleRange: { min: min ?? 0, max: max ?? 0 },
    note: USER_PROPERTY_NOTE,
  });
  if (!parsed.success) {
    // With "unit" blank, zod also reports the empty unit list; one line about the unit is enough.
    const lines = parsed.error.issues.map(issueText);
    problems.push(
      ...lines.filter((line, index) => !(line.startsWith('Unit:') && lines.findIndex((other) => other.startsWith('Unit:')) !== index)),
    );
  }
  if (problems.length > 0 || !parsed.success) return { ok: false, problems };
  return { ok: true, property: parsed.data };
}
