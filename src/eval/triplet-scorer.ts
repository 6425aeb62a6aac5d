/**
 * The triplet scorer of `docs/EVAL.md`: per paper, a ONE-TO-ONE maximum matching between
 * predicted and true triplets (same property, same material, value equal in SI within the
 * tolerance), then micro-averaged precision, recall and F1 over papers, at 0.1% (the headline)
 * and side by side at 1% and 10% (as the reliability-gap paper reports). Pure: unit conversion
 * and material equality are injected.
 *
 * Two scorings (issue 12), strict first:
 * - **strict** (the headline): materials by `sameMaterialStrict` (whole formulas with equal
 *   compositions at a tight tolerance, phase prefixes equal on both sides, lexicon synonyms
 *   with a general source, aliases the truth lists or the paper itself defines); the unit as
 *   the tool wrote it (a missing unit stays missing and matches only a truth without one); a
 *   bound (`< 5 K`) matches only the same bound, a range only a range.
 *   Condition qualifiers (issue 26; applied when `dependencies.conditions` holds the condition
 *   reader, as `loadScorerDependencies` gives it): each name — every truth alias and the
 *   prediction's material — is split into a base material and the condition qualifiers it
 *   states at its end (`BPN-GaN (HSE06)` → `BPN-GaN` + [method HSE06]; rules in
 *   src/eval/qualified-name.ts). The prediction's conditions are its name's qualifiers plus
 *   `PredictedTriplet.conditions`. A prediction matches a truth alias when the bases are equal
 *   under `sameMaterialStrict`, every qualifier of the alias agrees with one of the
 *   prediction's conditions (same kind, compatible value), and no prediction condition of a kind
 *   the alias qualifies agrees with none of them (HSE06 contradicts `(GGA/PBE)`, SOC contradicts
 *   `no SOC`; rules in src/eval/condition-match.ts). Extra conditions of other kinds, and any
 *   conditions against a plain alias (`ZnO`), do not block. Qualifier words that are not
 *   conditions (`(due to oxygen vacancy)`) stay in the base and must be equal, as before.
 * - **lenient** (the earlier matching, kept as a second column): `sameMaterial` (a material
 *   string reduced to its one formula mention, a phase on one side only ignored, pymatgen's
 *   default rtol 0.1), a missing unit read as the unit the tool was asked for
 *   (`assumedUnit`), a bound scored as its limit.
 */
import type { DefinedAlias } from '../text/materials/same-material';
import { maximumMatching } from './bipartite-matching';
import { prfFigures, type PrfFigures } from './rescorable';
import { strictMaterialMatches } from './strict-material';
import { valuesMatch } from './value-match';
import type { PaperCase, PredictedTriplet, ScorerDependencies, ScoringMode, TruthTriplet } from './triplet-scorer-types';

/** Tolerances reported, as fractions; the first is the headline. */
export const TOLERANCES = { '0.1%': 0.001, '1%': 0.01, '10%': 0.1 } as const;
export type ToleranceLabel = keyof typeof TOLERANCES;

export interface PaperScore {
  paper: string;
  predictions: number;
  truths: number;
  /** Size of the maximum matching at the headline tolerance (0.1%). */
  matched: number;
  /** `[predictionIndex, truthIndex]` pairs of that matching. */
  pairs: Array<[number, number]>;
}

/** Counts and figures of one scoring (the shape of every result's `strict` and `lenient`). */
export type Counts = PrfFigures;

export interface CorpusScore extends Counts {
  /** Number of papers scored. */
  n: number;
  f1At: Record<ToleranceLabel, number>;
  at: Record<ToleranceLabel, Counts>;
  papers: PaperScore[];
}

/**
 * Whether one prediction may be matched to one truth at `tolerance` under `mode` (default
 * strict; rules in the module comment). `definedAliases` are the paper's own abbreviations.
 */
export function tripletsMatch(
  predicted: PredictedTriplet,
  truth: TruthTriplet,
  tolerance: number,
  dependencies: ScorerDependencies,
  mode: ScoringMode = 'strict',
  definedAliases: readonly DefinedAlias[] = [],
): boolean {
  if (predicted.property !== truth.property) return false;
  const [name, ...otherAliases] = truth.aliases;
  if (name === undefined) return false;
  // Values first: a value comparison is a few multiplications, a material comparison parses both names.
  if (mode === 'lenient') {
    const unit = predicted.unit.trim() === '' && predicted.assumedUnit !== undefined ? predicted.assumedUnit : predicted.unit;
    if (!valuesMatch({ value: predicted.value, unit }, truth, tolerance, dependencies.convert)) return false;
    return dependencies.sameMaterial(predicted.material, name, otherAliases);
  }
  if ((predicted.bound ?? null) !== (truth.bound ?? null)) return false;
  if (!valuesMatch(predicted, truth, tolerance, dependencies.convert)) return false;
  return strictMaterialMatches(predicted, truth, dependencies, definedAliases);
}

/** Maximum one-to-one matching for one paper at `tolerance` (a fraction) under `mode` (default strict). */
export function scorePaper(
  paperCase: PaperCase,
  tolerance: number,
  dependencies: ScorerDependencies,
  mode: ScoringMode = 'strict',
): PaperScore {
  const { predictions, truths } = paperCase;
  const { size, pairs } = maximumMatching(predictions.length, truths.length, (left, right) =>
    tripletsMatch(predictions[left]!, truths[right]!, tolerance, dependencies, mode, paperCase.definedAliases),
  );
  return { paper: paperCase.paper, predictions: predictions.length, truths: truths.length, matched: size, pairs };
}

/**
 * Precision = matched / predictions, recall = matched / truths, F1 their harmonic mean.
 * Convention: a ratio with a zero denominator is 0 (no predictions → precision 0), and F1 is 0
 * when precision + recall is 0; the raw counts are always reported beside the ratios.
 */
export function countsToScores(predictions: number, truths: number, matched: number): Counts {
  const precision = predictions === 0 ? 0 : matched / predictions;
  const recall = truths === 0 ? 0 : matched / truths;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { predictions, truths, matched, precision, recall, f1 };
}

/**
 * Micro-average over papers under `mode` (default strict): counts are summed first, then turned
 * into P/R/F1 per tolerance.
 */
export function scoreCorpus(cases: readonly PaperCase[], dependencies: ScorerDependencies, mode: ScoringMode = 'strict'): CorpusScore {
  const at = {} as Record<ToleranceLabel, Counts>;
  let headlinePapers: PaperScore[] = [];
  for (const [label, tolerance] of Object.entries(TOLERANCES) as Array<[ToleranceLabel, number]>) {
    const papers = cases.map((paperCase) => scorePaper(paperCase, tolerance, dependencies, mode));
    if (label === '0.1%') headlinePapers = papers;
    const sum = (field: 'predictions' | 'truths' | 'matched') => papers.reduce((total, paper) => total + paper[field], 0);
    at[label] = countsToScores(sum('predictions'), sum('truths'), sum('matched'));
  }
  const f1At = Object.fromEntries(Object.entries(at).map(([label, counts]) => [label, counts.f1])) as Record<ToleranceLabel, number>;
  return { n: cases.length, ...at['0.1%'], f1At, at, papers: headlinePapers };
}

/** The `strict` or `lenient` object of a result: P/R/F1 and counts at 0.1%, and F1 at each tolerance. */
export interface ModeFigures extends PrfFigures {
  f1At: Record<ToleranceLabel, number>;
}

/** A corpus score as its `strict`/`lenient` object. */
export function modeFigures(score: CorpusScore): ModeFigures {
  return { ...prfFigures(score.predictions, score.truths, score.matched), f1At: score.f1At };
}

/** Both scorings of one corpus: `strict` (the headline) and `lenient`, each a full `CorpusScore`. */
export function scoreStrictAndLenient(
  cases: readonly PaperCase[],
  dependencies: ScorerDependencies,
): { strict: CorpusScore; lenient: CorpusScore } {
  return { strict: scoreCorpus(cases, dependencies, 'strict'), lenient: scoreCorpus(cases, dependencies, 'lenient') };
}
