/**
 * Whether a prediction's conditions carry a truth's condition qualifiers (issue 26, strict
 * scoring). Two conditions agree when they are of the same kind and
 * - methods: the reader's `methodsCompatible` says they may name the same calculation or
 *   measurement ("GGA-PBE" ~ "GGA"; "HSE06" ≁ "GGA-PBE"; "SOC" ≁ "no SOC");
 * - quantities written as a number and a unit ("0.04 eV/Å", "10 GPa"): the same unit text and
 *   numbers within 0.1% (the headline value tolerance of EVAL.md);
 * - anything else (direction, phase, environment, other): the same normalized value, compared
 *   case-insensitively with whitespace removed ("indirect" ≠ "direct", "FM" ≠ "AFM").
 * A truth qualifier is **carried** when some prediction condition agrees with it. A prediction
 * condition **contradicts** the truth when the truth states qualifiers of its kind and it agrees
 * with none of them (HSE06 against a truth `(GGA/PBE)`; a truth stating both GGA and SOC is not
 * contradicted by a prediction's GGA). Kind `other` is free text and never contradicts.
 */
import { conditionsKey } from '../contracts/conditions';
import type { ConditionReader, ScoredCondition } from './qualified-name';

/** Relative tolerance on a condition's quantity: the 0.1% of EVAL.md's headline value match. */
const QUANTITY_TOLERANCE = 1e-3;
const QUANTITY = /^([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*(.*)$/;

function folded(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/g, '');
}

function sameValue(a: string, b: string): boolean {
  const left = QUANTITY.exec(a.trim());
  const right = QUANTITY.exec(b.trim());
  if (left && right && folded(left[2]!) === folded(right[2]!)) {
    const x = Number(left[1]);
    const y = Number(right[1]);
    return x === y || Math.abs(x - y) <= QUANTITY_TOLERANCE * Math.max(Math.abs(x), Math.abs(y));
  }
  return folded(a) === folded(b);
}

/** True when `a` and `b` are of one kind and may be the same condition (rules in the module comment). */
export function conditionsAgree(a: ScoredCondition, b: ScoredCondition, reader: ConditionReader): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind === 'method') return folded(a.value) === folded(b.value) || reader.methodsCompatible(a.value, b.value);
  return sameValue(a.value, b.value);
}

/** What keeps a prediction's conditions from carrying a truth's qualifiers; both empty when they carry them. */
export interface QualifierComparison {
  /** Truth qualifiers that no prediction condition agrees with. */
  missing: ScoredCondition[];
  /** Prediction conditions that contradict a truth qualifier, each with the first truth qualifier of its kind. */
  contradicting: Array<{ condition: ScoredCondition; qualifier: ScoredCondition }>;
}

/**
 * Compare a prediction's conditions (its name's qualifiers and `Triplet.conditions`) with a
 * truth's qualifiers. The prediction carries them when both lists come back empty.
 */
export function compareQualifiers(
  qualifiers: readonly ScoredCondition[],
  conditions: readonly ScoredCondition[],
  reader: ConditionReader,
): QualifierComparison {
  const missing = qualifiers.filter((qualifier) => !conditions.some((condition) => conditionsAgree(condition, qualifier, reader)));
  const contradicting: QualifierComparison['contradicting'] = [];
  for (const condition of conditions) {
    if (condition.kind === 'other') continue;
    const sameKind = qualifiers.filter((qualifier) => qualifier.kind === condition.kind);
    if (sameKind.length === 0 || sameKind.some((qualifier) => conditionsAgree(condition, qualifier, reader))) continue;
    contradicting.push({ condition, qualifier: sameKind[0]! });
  }
  return { missing, contradicting };
}

/** The conditions in one list without repeats (same kind and normalized value), first kept. */
export function distinctConditions(conditions: readonly ScoredCondition[]): ScoredCondition[] {
  const seen = new Set<string>();
  return conditions.filter((condition) => {
    const key = conditionsKey([condition]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
