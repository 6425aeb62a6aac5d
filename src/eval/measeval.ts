/**
 * MeasEval (SemEval-2021 Task 8) evaluation of `parseQuantities`: Quantity spans and units.
 * Data: `<root>/{train,trial}/{text|txt}/<docId>.txt` + `tsv/<docId>.tsv` (columns docId,
 * annotSet, annotType, startOffset, endOffset, annotId, text, other; `other.unit`).
 * Quantity F1 is reported exact (same offsets) and overlap (token F1 of overlapping spans).
 * Unit F1: per document, multiset of normalized units (gold `other.unit` read with
 * `normalizeUnit`, falling back to the raw text) against the units of predicted quantities.
 *
 * The re-scorable figures (`rescorable.ts`): `strict` = a one-to-one matching of predicted and
 * gold Quantity spans with the same offsets (MeasEval's exact match), `lenient` = one of spans
 * sharing a character, counted whole (MeasEval's own overlap score, weighted by token F1, stays
 * in `quantityOverlap`); top-level `precision`/`recall`/`f1` are the strict ones. `predictions`
 * are the parsed quantities, `truths` the gold Quantity spans with their MeasuredEntity (through
 * `other.HasQuantity`) as the material, both with offsets.
 */
import { readdir } from 'node:fs/promises';
import { readRegularFile } from '../capture/node/regular-file';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { parseQuantities } from '../text/quantities';
import { normalizeUnit } from '../text/units';
import { prfFigures, type EvalPrediction, type EvalTruth, type Prf, type PrfFigures } from './rescorable';
import { addCounts, countSpans, emptyCounts, matchSpans, prf, quantityPrediction, spanValue, type Offsets, type Span } from './span-score';

export interface MeasEvalOptions {
  splits?: string[];
  limit?: number;
}

/** The top-level figures are the strict ones (= `strict`). */
export interface MeasEvalReport extends Prf {
  dataset: 'measeval';
  splits: string[];
  documents: number;
  goldQuantities: number;
  predictedQuantities: number;
  quantityExact: Prf;
  quantityOverlap: Prf;
  unit: Prf & { gold: number; predicted: number };
  strict: PrfFigures;
  lenient: PrfFigures;
  scoring: string;
  predictions: Array<EvalPrediction & Offsets>;
  truths: Array<EvalTruth & Offsets>;
}

/** How the re-scorable figures are computed, printed as `scoring`. */
export const MEASEVAL_SCORING =
  'parseQuantities against the gold Quantity spans (train + trial): strict = a one-to-one matching of spans with the same ' +
  'start and end (MeasEval exact match); lenient = a one-to-one matching of spans sharing at least one character, counted ' +
  "whole (MeasEval's token-F1-weighted overlap is quantityOverlap).";

/** MeasuredEntity text by the annotId of the Quantity it measures (`other.HasQuantity`). */
function measuredEntities(rows: readonly Record<string, string>[]): Map<string, string> {
  const entities = new Map<string, string>();
  for (const row of rows) {
    if (row.annotType !== 'MeasuredEntity' || !row.other) continue;
    const quantity = (JSON.parse(row.other) as { HasQuantity?: string }).HasQuantity;
    if (quantity && !entities.has(quantity)) entities.set(quantity, row.text ?? '');
  }
  return entities;
}

function unitKey(text: string): string {
  return normalizeUnit(text) ?? text.trim();
}

/**
 * Score `parseQuantities` on MeasEval splits (default train + trial) under `dataRoot` (the
 * folder holding train/ and trial/). Throws when a split folder is missing.
 */
export async function evaluateMeasEval(dataRoot: string, options: MeasEvalOptions = {}): Promise<MeasEvalReport> {
  const splits = options.splits ?? ['train', 'trial'];
  let counts = emptyCounts;
  let documents = 0;
  let unitGold = 0;
  let unitPredicted = 0;
  let unitMatched = 0;
  let strictMatched = 0;
  let lenientMatched = 0;
  const predictions: MeasEvalReport['predictions'] = [];
  const truths: MeasEvalReport['truths'] = [];
  for (const split of splits) {
    const textFolder = ['text', 'txt'].map((name) => join(dataRoot, split, name)).find((folder) => existsSync(folder));
    if (!textFolder) throw new Error(`MeasEval split not found: ${join(dataRoot, split)}`);
    const files = (await readdir(join(dataRoot, split, 'tsv'))).filter((name) => name.endsWith('.tsv')).sort();
    for (const file of files) {
      if (options.limit !== undefined && documents >= options.limit) break;
      const docId = file.replace(/\.tsv$/, '');
      const textPath = join(textFolder, `${docId}.txt`);
      if (!existsSync(textPath)) continue;
      const text = await readRegularFile(textPath, 'utf8');
      const rows = parse(await readRegularFile(join(dataRoot, split, 'tsv', file), 'utf8'), {
        delimiter: '\t',
        columns: true,
        relax_quotes: true,
        quote: false,
      }) as Record<string, string>[];
      const gold: Span[] = [];
      const goldUnits: string[] = [];
      const seen = new Set<string>();
      const entityOf = measuredEntities(rows);
      for (const row of rows) {
        if (row.annotType !== 'Quantity') continue;
        const start = Number(row.startOffset);
        const end = Number(row.endOffset);
        if (seen.has(`${start}:${end}`)) continue;
        seen.add(`${start}:${end}`);
        gold.push({ start, end, text: text.slice(start, end) });
        const other = row.other ? (JSON.parse(row.other) as { unit?: string }) : {};
        if (other.unit) goldUnits.push(unitKey(other.unit));
        const spanText = text.slice(start, end);
        truths.push({
          paper: docId,
          aliases: [entityOf.get(row.annotId ?? '') ?? ''],
          property: 'quantity',
          value: spanValue(spanText),
          valueText: spanText,
          unit: other.unit ?? '',
          start,
          end,
        });
      }
      const predicted = parseQuantities(text);
      counts = addCounts(counts, countSpans(predicted, gold));
      strictMatched += matchSpans(predicted, gold, 'strict').matched;
      lenientMatched += matchSpans(predicted, gold, 'lenient').matched;
      predictions.push(...predicted.map((quantity) => quantityPrediction(docId, quantity)));
      const predictedUnits = predicted.filter((quantity) => quantity.unit).map((quantity) => quantity.unit);
      const remaining = [...goldUnits];
      for (const unit of predictedUnits) {
        const index = remaining.indexOf(unit);
        if (index >= 0) {
          unitMatched++;
          remaining.splice(index, 1);
        }
      }
      unitGold += goldUnits.length;
      unitPredicted += predictedUnits.length;
      documents++;
    }
  }
  const strict = prfFigures(counts.predicted, counts.gold, strictMatched);
  return {
    dataset: 'measeval',
    splits,
    documents,
    goldQuantities: counts.gold,
    predictedQuantities: counts.predicted,
    quantityExact: prf(counts.exactMatches, counts.predicted, counts.gold),
    quantityOverlap: prf(counts.overlapScore, counts.predicted, counts.gold),
    unit: { ...prf(unitMatched, unitPredicted, unitGold), gold: unitGold, predicted: unitPredicted },
    precision: strict.precision,
    recall: strict.recall,
    f1: strict.f1,
    strict,
    lenient: prfFigures(counts.predicted, counts.gold, lenientMatched),
    scoring: MEASEVAL_SCORING,
    predictions,
    truths,
  };
}
