/**
 * A triplet evaluation's result as `assay eval … --json` prints it (issue 12): strict counts
 * and ratios at the top level (the headline), `strict` and `lenient` objects, per-paper
 * counts under both, and the `predictions` and `truths` of the run so anyone can score it again.
 * Shared by bandgap-200, supermat, polyie and the replay vote.
 */
import type { Article } from '../contracts/article';
import type { Triplet } from '../contracts/triplet';
import { findAbbreviationDefinitions, type DefinedAlias } from '../text/materials/index';
import { parseValueText } from './reported-value-text';
import type { EvalPrediction, EvalTruth } from './rescorable';
import {
  modeFigures,
  scoreStrictAndLenient,
  type CorpusScore,
  type ModeFigures,
  type PaperCase,
  type PredictedTriplet,
  type ScorerDependencies,
} from './triplet-scorer';

/** A prediction with what the re-scorable output shows beside the scored fields. */
export interface RecordedPrediction extends PredictedTriplet {
  /** Evidence quote (the exact text), or null when the tool gave none. */
  quote?: string | null;
  /** Verdict (`verified`, …), `extracted` (an engine without verdicts) or `recorded` (a replay). */
  status?: string;
}

/** A scored case whose predictions may carry quotes and statuses. */
export interface RecordedCase extends PaperCase {
  predictions: RecordedPrediction[];
}

/**
 * An engine's triplet as a prediction: its unit as written (never defaulted), a bound read from
 * its printed value (`valueText` "<0.1 eV" → `bound: 'upper'`), its evidence quote and `status`.
 */
export function predictionFromTriplet(triplet: Triplet, status: string): RecordedPrediction {
  const bound = triplet.valueText ? parseValueText(triplet.valueText)?.bound : undefined;
  return {
    material: triplet.material,
    property: triplet.property,
    value: triplet.value,
    unit: triplet.unit,
    ...(triplet.valueText ? { valueText: triplet.valueText } : {}),
    ...(bound ? { bound } : {}),
    quote: triplet.evidence?.quote.exact ?? null,
    status,
  };
}

/**
 * The abbreviations a paper defines (`BiFeO3 (BFO)`), read from its blocks' text (an `Article`)
 * or from plain text, for strict material equality (`sameMaterialStrict`). Pure; never throws.
 */
export function definedAliasesOf(paper: Article | string): DefinedAlias[] {
  const texts = typeof paper === 'string' ? [paper] : paper.blocks.map((block) => block.text);
  const aliases: DefinedAlias[] = [];
  const seen = new Set<string>();
  for (const text of texts) {
    for (const { abbreviation, longForm } of findAbbreviationDefinitions(text)) {
      const key = `${abbreviation}\u0000${longForm}`;
      if (seen.has(key)) continue;
      seen.add(key);
      aliases.push({ abbreviation, longForm });
    }
  }
  return aliases;
}

/** Per-paper counts under both scorings (headline 0.1%). */
export interface PaperCounts {
  paper: string;
  predictions: number;
  truths: number;
  /** Strict matches (the headline). */
  matched: number;
  lenientMatched: number;
}

/**
 * The scores part of a triplet evaluation's result: the strict headline (`n`, `matched`,
 * `precision`, `recall`, `f1`, `f1At`, `at`; the counts of predictions and truths are in
 * `strict`), both scorings, per-paper counts, and the records.
 */
export interface ScoredTriplets extends Omit<CorpusScore, 'papers' | 'predictions' | 'truths'> {
  strict: ModeFigures;
  lenient: ModeFigures;
  papers: PaperCounts[];
  predictions: EvalPrediction[];
  truths: EvalTruth[];
}

/**
 * Score `cases` strictly and leniently and lay the result out for `--json`: the strict
 * `CorpusScore` fields at the top (n, predictions, truths, matched, precision, recall, f1, f1At,
 * at), `strict` and `lenient` objects, per-paper counts, and the predictions and truths as
 * `EvalPrediction`/`EvalTruth` records (paper ids as in `cases`). `defaultStatus` is the status
 * of a prediction that carries none.
 */
export function scoreTriplets(cases: readonly RecordedCase[], dependencies: ScorerDependencies, defaultStatus: string): ScoredTriplets {
  const { strict, lenient } = scoreStrictAndLenient(cases, dependencies);
  const { papers: strictPapers, predictions: _predictions, truths: _truths, ...headline } = strict;
  return {
    ...headline,
    strict: modeFigures(strict),
    lenient: modeFigures(lenient),
    papers: strictPapers.map(({ paper, predictions, truths, matched }, index) => ({
      paper,
      predictions,
      truths,
      matched,
      lenientMatched: lenient.papers[index]?.matched ?? 0,
    })),
    predictions: cases.flatMap(({ paper, predictions }) =>
      predictions.map((prediction) => ({
        paper,
        material: prediction.material,
        property: prediction.property,
        value: prediction.value,
        ...(prediction.valueText !== undefined ? { valueText: prediction.valueText } : {}),
        ...(prediction.bound ? { bound: prediction.bound } : {}),
        unit: prediction.unit,
        quote: prediction.quote ?? null,
        status: prediction.status ?? defaultStatus,
      })),
    ),
    truths: cases.flatMap(({ paper, truths }) =>
      truths.map((truth) => ({
        paper,
        aliases: truth.aliases,
        property: truth.property,
        value: truth.value,
        ...(truth.valueText !== undefined ? { valueText: truth.valueText } : {}),
        ...(truth.bound ? { bound: truth.bound } : {}),
        unit: truth.unit,
      })),
    ),
  };
}
