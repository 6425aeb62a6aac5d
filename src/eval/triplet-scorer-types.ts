/**
 * The shapes the triplet scorer reads and is given (`src/eval/triplet-scorer.ts`), apart from it so
 * that the strict material rule (`strict-material.ts`) can use them without importing the scorer.
 */
import type { ReportedValue } from '../contracts/triplet';
import type { DefinedAlias } from '../text/materials/same-material';
import type { ConditionReader, ScoredCondition } from './qualified-name';
import type { SiConverter } from './si-conversion';

/** An upper (`<`, `≤`, "below") or lower (`>`, `≥`, "above") bound, as printed. */
export type ValueBound = 'upper' | 'lower';

/** Which matching a score uses; `strict` is the headline. */
export type ScoringMode = 'strict' | 'lenient';

/** A ground-truth triplet: `aliases` are the accepted names of the material (at least one). */
export interface TruthTriplet {
  aliases: string[];
  property: string;
  value: ReportedValue;
  unit: string;
  /** Evidence as the dataset gives it (a sentence, or "Table 1"). */
  source?: string;
  /** Set when the truth is written as a bound (`< 5 K`); `value` then holds the limit. */
  bound?: ValueBound;
  /** The value as the dataset prints it. */
  valueText?: string;
}

/** The fields of a predicted `Triplet` the scorer reads. */
export interface PredictedTriplet {
  material: string;
  property: string;
  value: ReportedValue;
  /** The unit as the tool wrote it ("" when it wrote none). */
  unit: string;
  /** Lenient scoring only: the unit read when `unit` is "" (the unit the tool was asked for). */
  assumedUnit?: string;
  /** Set when the prediction is written as a bound; `value` then holds the limit. */
  bound?: ValueBound;
  /** The value as printed. */
  valueText?: string;
  /**
   * Strict scoring only: the conditions the value holds under (`Triplet.conditions`), beside the
   * qualifiers of `material` itself; kind and normalized value are compared.
   */
  conditions?: readonly ScoredCondition[];
}

/** One paper's predictions and ground truth; `paper` is an identifier such as "14/10.1039/…". */
export interface PaperCase {
  paper: string;
  truths: TruthTriplet[];
  predictions: PredictedTriplet[];
  /** Abbreviations the paper itself defines (`BiFeO3 (BFO)`), for strict material equality. */
  definedAliases?: DefinedAlias[];
}

export interface ScorerDependencies {
  /** `toSI`-style converter built by `createSiConverter`. */
  convert: SiConverter;
  /** Lenient material equality: `sameMaterial(a, b, aliases)` from `src/text/materials`. */
  sameMaterial: (a: string, b: string, aliases?: string[]) => boolean;
  /** Strict material equality: `sameMaterialStrict(a, b, aliases, definedAliases)` from `src/text/materials`. */
  sameMaterialStrict: (a: string, b: string, aliases?: string[], definedAliases?: readonly DefinedAlias[]) => boolean;
  /**
   * Strict scoring's condition reader (`findConditionMentions` and `methodsCompatible` of
   * src/text/conditions): with it, names are split into base and condition qualifiers (module
   * comment); without it, names are compared whole, as before issue 26.
   */
  conditions?: ConditionReader;
}
