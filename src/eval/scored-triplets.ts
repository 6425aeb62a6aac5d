/**
 * A triplet evaluation's result as `assay eval … --json` prints it (issue 12): strict counts
 * and ratios at the top level (the headline), `strict` and `lenient` objects, per-paper
 * counts under both, and the `predictions` and `truths` of the run so anyone can score it again.
 * Each prediction says which truth it matched under strict scoring, or none with the nearest
 * truth and why not (issue 26), and the `conditions` figure gives the share of truths named with
 * a condition qualifier that were matched. Shared by bandgap-200, supermat, polyie and the
 * replay vote.
 */
import type { Article } from '../contracts/article';
import type { Provenance } from '../contracts/conditions';
import type { Triplet } from '../contracts/triplet';
import { findAbbreviationDefinitions, type DefinedAlias } from '../text/materials/index';
import { nearestTruthIndex, NO_TRUTH_IN_PAPER, whyUnmatched } from './match-explanation';
import { withMemoizedMaterials } from './memoized-materials';
import { parseValueText } from '../text/quantities/value-text';
import type { EvalPrediction, EvalTruth, IndexedTruth } from './rescorable';
import { truthHasConditions } from './strict-material';
import { modeFigures, scoreStrictAndLenient, type CorpusScore, type ModeFigures } from './triplet-scorer';
import type { PaperCase, PredictedTriplet, ScorerDependencies } from './triplet-scorer-types';

/** A prediction with what the re-scorable output shows beside the scored fields. */
export interface RecordedPrediction extends PredictedTriplet {
  /** Evidence quote (the exact text), or null when the tool gave none. */
  quote?: string | null;
  /** Verdict (`verified`, …), `extracted` (an engine without verdicts) or `recorded` (a replay). */
  status?: string;
  /** Where the value comes from (`Triplet.provenance`). */
  provenance?: Provenance;
}

/** A scored case whose predictions may carry quotes and statuses. */
export interface RecordedCase extends PaperCase {
  predictions: RecordedPrediction[];
}

/**
 * An engine's triplet as a prediction: its unit as written (never defaulted), a bound read from
 * its printed value (`valueText` "<0.1 eV" → `bound: 'upper'`), its evidence quote and `status`,
 * and its `conditions` (when it has any) and `provenance` (when it has one).
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
    ...(triplet.conditions && triplet.conditions.length > 0 ? { conditions: triplet.conditions } : {}),
    ...(triplet.provenance ? { provenance: triplet.provenance } : {}),
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
 * Of the truths that cannot be matched without a condition — every alias of their material
 * states a condition qualifier (`BPN-GaN (HSE06)`, `VCCl2 at 0.04 eV/Å electric field GGA`;
 * split by src/eval/qualified-name.ts) — how many were matched under strict scoring, which
 * requires the prediction to carry the qualifiers. `share` = matched / truths (0 when none).
 * All 0 when the scorer has no condition reader.
 */
export interface ConditionsFigure {
  truths: number;
  matched: number;
  share: number;
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
  /** Truths named with a condition qualifier, and the share matched with it (strict). */
  conditions: ConditionsFigure;
  predictions: EvalPrediction[];
  truths: EvalTruth[];
}

function truthRecord(paper: string, truth: RecordedCase['truths'][number]): EvalTruth {
  return {
    paper,
    aliases: truth.aliases,
    property: truth.property,
    value: truth.value,
    ...(truth.valueText !== undefined ? { valueText: truth.valueText } : {}),
    ...(truth.bound ? { bound: truth.bound } : {}),
    unit: truth.unit,
  };
}

/** Each case's predictions as records with what they matched, or the nearest truth and why not. */
function predictionRecords(
  cases: readonly RecordedCase[],
  pairsOf: (caseIndex: number) => ReadonlyArray<readonly [number, number]>,
  truths: readonly EvalTruth[],
  dependencies: ScorerDependencies,
  defaultStatus: string,
): EvalPrediction[] {
  let offset = 0;
  return cases.flatMap((paperCase, caseIndex) => {
    const first = offset;
    offset += paperCase.truths.length;
    const truthAt = (index: number): IndexedTruth => ({ ...truths[first + index]!, index: first + index });
    const matchOf = new Map(pairsOf(caseIndex).map(([prediction, truth]) => [prediction, truth]));
    return paperCase.predictions.map((prediction, predictionIndex): EvalPrediction => {
      const record: EvalPrediction = {
        paper: paperCase.paper,
        material: prediction.material,
        property: prediction.property,
        value: prediction.value,
        ...(prediction.valueText !== undefined ? { valueText: prediction.valueText } : {}),
        ...(prediction.bound ? { bound: prediction.bound } : {}),
        unit: prediction.unit,
        quote: prediction.quote ?? null,
        status: prediction.status ?? defaultStatus,
        // As stored: each with its text and span when the triplet has them.
        ...(prediction.conditions && prediction.conditions.length > 0 ? { conditions: [...prediction.conditions] } : {}),
        ...(prediction.provenance ? { provenance: prediction.provenance } : {}),
      };
      const matched = matchOf.get(predictionIndex);
      if (matched !== undefined) return { ...record, matched: truthAt(matched) };
      const definedAliases = paperCase.definedAliases ?? [];
      const nearest = nearestTruthIndex(prediction, paperCase.truths, dependencies, definedAliases);
      return nearest === null
        ? { ...record, matched: null, nearest: null, why: NO_TRUTH_IN_PAPER }
        : {
            ...record,
            matched: null,
            nearest: truthAt(nearest),
            why: whyUnmatched(prediction, paperCase.truths[nearest]!, dependencies, definedAliases),
          };
    });
  });
}

/** The `conditions` figure (see `ConditionsFigure`) from the strict matching's pairs. */
function conditionsFigure(
  cases: readonly RecordedCase[],
  pairsOf: (caseIndex: number) => ReadonlyArray<readonly [number, number]>,
  dependencies: ScorerDependencies,
): ConditionsFigure {
  const reader = dependencies.conditions;
  let truths = 0;
  let matched = 0;
  if (reader) {
    cases.forEach((paperCase, caseIndex) => {
      const matchedTruths = new Set(pairsOf(caseIndex).map(([, truth]) => truth));
      paperCase.truths.forEach((truth, index) => {
        if (!truthHasConditions(truth, reader)) return;
        truths += 1;
        if (matchedTruths.has(index)) matched += 1;
      });
    });
  }
  return { truths, matched, share: truths === 0 ? 0 : matched / truths };
}

/**
 * Score `cases` strictly and leniently and lay the result out for `--json`: the strict
 * `CorpusScore` fields at the top (n, predictions, truths, matched, precision, recall, f1, f1At,
 * at), `strict` and `lenient` objects, per-paper counts, the `conditions` figure, and the
 * predictions and truths as `EvalPrediction`/`EvalTruth` records (paper ids as in `cases`). Each
 * prediction carries `matched` (its truth in the strict headline matching, with its index in
 * `truths`) or `matched: null` with `nearest` and `why`. `defaultStatus` is the status of a
 * prediction that carries none.
 */
export function scoreTriplets(cases: readonly RecordedCase[], scorer: ScorerDependencies, defaultStatus: string): ScoredTriplets {
  const dependencies = withMemoizedMaterials(scorer);
  const { strict, lenient } = scoreStrictAndLenient(cases, dependencies);
  const { papers: strictPapers, predictions: _predictions, truths: _truths, ...headline } = strict;
  const pairsOf = (caseIndex: number) => strictPapers[caseIndex]?.pairs ?? [];
  const truths = cases.flatMap(({ paper, truths: paperTruths }) => paperTruths.map((truth) => truthRecord(paper, truth)));
  return {
    ...headline,
    strict: modeFigures(strict),
    lenient: modeFigures(lenient),
    papers: strictPapers.map(({ paper, predictions, truths: truthCount, matched }, index) => ({
      paper,
      predictions,
      truths: truthCount,
      matched,
      lenientMatched: lenient.papers[index]?.matched ?? 0,
    })),
    conditions: conditionsFigure(cases, pairsOf, dependencies),
    predictions: predictionRecords(cases, pairsOf, truths, dependencies, defaultStatus),
    truths,
  };
}
