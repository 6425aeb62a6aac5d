/**
 * One fact, one entry: a run's verdicts grouped by the fact they state, so the reader reviews and
 * saves each fact once. The MoA and generator–discriminator paths can both state a fact and still
 * leave two records for it: an MoA answer that lists the fact twice pairs once with the search
 * (`agreed`, then verified by the grounding gate) and once with nothing (`moa-only`, needs review
 * "only the MoA path gave this triplet"); a fact read from two passages does the same.
 *
 * The identity rule (`sameFact`): two triplets state the same fact when they have the same
 * property, equivalent materials (`sameMaterial` of src/text/materials: "TiO2" = "TiO₂"), the
 * same value and unit within the cross-verification tolerance (`valueDifference` of
 * ./cross-verify.ts: equal after SI conversion to `VALUE_TOLERANCE`, 0.1%, so 1.6 eV = 1600 meV and
 * 1.6 ≠ 1.65), and no condition kind both name with different values (HSE06 vs PBE, 300 K vs 10 K:
 * two facts; a record without conditions — one the fact check never read — matches either). The
 * paper is the same by construction: a run reads one paper. Provenance (cited or not) does not
 * enter: it describes where the value came from, not which value it is.
 *
 * An entry's status is the strongest a member justifies: `verified` when any member passed the
 * grounding gate (agreed by both paths and shown by its quote), else `needs_review` when any
 * member needs the reader, else `rejected`. Its primary record — the first member with that status,
 * in run order — stands for the fact: the reader's review is written to it and "Save verified"
 * saves it alone (src/store/dataset-rows.ts), so a fact is one row. Pure: no React, no database.
 */
import { conditionsKey, type Condition } from '../contracts/conditions';
import type { Triplet } from '../contracts/triplet';
import type { VerificationRecord, VerificationStatus } from '../contracts/verification';
import { sameMaterial } from '../text/materials';
import { toSI } from '../text/units';
import { valueDifference, type CrossVerifyDependencies } from './cross-verify';

/** One fact of a run: its records (indices into the run's `records`, run order) and the record that stands for it. */
export interface FactEntry {
  /** Index of the record that stands for the fact (see the module comment). */
  primary: number;
  /** Every record of the fact, the primary included, in run order. */
  members: number[];
  /** The fact's status: the primary's. */
  status: VerificationStatus;
}

/** The comparison `sameFact` uses by default: Assay's material comparison and SI conversion, the cross-verification tolerance. */
export const defaultFactDependencies: CrossVerifyDependencies = { sameMaterial: (a, b) => sameMaterial(a, b), toSI };

const STRENGTH: Record<VerificationStatus, number> = { verified: 2, needs_review: 1, rejected: 0 };

/** Conditions by kind as normalized value sets (`conditionsKey`'s normalization); `other` is free text and left out. */
function conditionsByKind(conditions: readonly Condition[] | undefined): Map<string, string> {
  const byKind = new Map<string, string>();
  for (const condition of conditions ?? []) {
    if (condition.kind === 'other') continue;
    const kind = condition.kind;
    const own = (conditions ?? []).filter((other) => other.kind === kind);
    byKind.set(kind, conditionsKey(own));
  }
  return byKind;
}

/** True when no condition kind is named by both with different values. */
function conditionsCompatible(a: readonly Condition[] | undefined, b: readonly Condition[] | undefined): boolean {
  const left = conditionsByKind(a);
  const right = conditionsByKind(b);
  return [...left].every(([kind, key]) => !right.has(kind) || right.get(kind) === key);
}

/** Whether two triplets state the same fact (the identity rule of the module comment). */
export function sameFact(a: Triplet, b: Triplet, dependencies: CrossVerifyDependencies = defaultFactDependencies): boolean {
  return (
    a.property === b.property &&
    dependencies.sameMaterial(a.material, b.material) &&
    valueDifference(a, b, dependencies) === null &&
    conditionsCompatible(a.conditions, b.conditions)
  );
}

/**
 * The run's facts, in the order each is first stated: a record joins the first entry one of
 * whose members states the same fact (`sameFact`), else starts a new one; then each entry's
 * primary and status are worked out (module comment). Every record is in exactly one entry.
 */
export function factEntries(
  records: readonly VerificationRecord[],
  dependencies: CrossVerifyDependencies = defaultFactDependencies,
): FactEntry[] {
  const groups: number[][] = [];
  records.forEach((record, index) => {
    const group = groups.find((members) => members.some((member) => sameFact(records[member]!.triplet, record.triplet, dependencies)));
    if (group) group.push(index);
    else groups.push([index]);
  });
  return groups.map((members) => {
    const primary = members.reduce((best, index) => (STRENGTH[records[index]!.status] > STRENGTH[records[best]!.status] ? index : best));
    return { primary, members, status: records[primary]!.status };
  });
}

/** The records that do not stand for a fact (members other than a primary): hidden from the list, never saved on their own. */
export function absorbedRecords(entries: readonly FactEntry[]): Set<number> {
  return new Set(entries.flatMap((entry) => entry.members.filter((member) => member !== entry.primary)));
}

/** The records that stand for the run's facts (each entry's primary), in run order: what a count of facts counts. */
export function factRecords(records: readonly VerificationRecord[]): VerificationRecord[] {
  const absorbed = absorbedRecords(factEntries(records));
  return records.filter((_record, index) => !absorbed.has(index));
}
