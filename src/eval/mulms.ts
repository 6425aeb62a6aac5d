/**
 * MuLMS evaluation of `parseQuantities`: recall of the corpus' VALUE and UNIT spans
 * (`custom:MatSci_Entity` with value="VALUE"/"UNIT") in each document's sofaString (UIMA XMI,
 * gzip). Exact: a predicted quantity (VALUE) or its unit text (UNIT) has the same offsets;
 * overlap: it shares at least one character. Also reports how many predictions overlap no
 * VALUE span (MuLMS does not annotate every number, so this is not a precision).
 *
 * The re-scorable figures (`rescorable.ts`), on VALUE spans (which include the unit, "528 nm"):
 * `strict` = a one-to-one matching of parsed quantities and VALUE spans with the same offsets
 * (the exact-span rule of the MuLMS NER scores), `lenient` = one of spans sharing a character;
 * top-level `precision`/`recall`/`f1` are the strict ones. Their precision counts every parsed
 * quantity, annotated or not, so it is a lower bound (see `predictedOutsideValues`).
 * `predictions` are the parsed quantities, `truths` the VALUE spans (material "", the unit the
 * UNIT span inside it), both with offsets.
 */
import { readdir } from 'node:fs/promises';
import { readRegularFile } from '../capture/node/regular-file';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parseQuantities, type Quantity } from '../text/quantities';
import { prfFigures, type EvalPrediction, type EvalTruth, type Prf, type PrfFigures } from './rescorable';
import { matchSpans, quantityPrediction, spanValue, type Offsets } from './span-score';

export interface MulmsOptions {
  limit?: number;
}
interface Recall {
  gold: number;
  exact: number;
  overlap: number;
  exactRecall: number;
  overlapRecall: number;
}

/** The top-level figures are the strict ones (= `strict`). */
export interface MulmsReport extends Prf {
  dataset: 'mulms';
  documents: number;
  predicted: number;
  predictedOutsideValues: number;
  value: Recall;
  unit: Recall;
  strict: PrfFigures;
  lenient: PrfFigures;
  scoring: string;
  predictions: Array<EvalPrediction & Offsets>;
  truths: Array<EvalTruth & Offsets>;
}

/** How the re-scorable figures are computed, printed as `scoring`. */
export const MULMS_SCORING =
  'parseQuantities against the VALUE spans: strict = a one-to-one matching of spans with the same start and end; lenient = ' +
  'a one-to-one matching of spans sharing at least one character. Precision counts every parsed quantity although MuLMS does ' +
  'not annotate every number (a lower bound; predictedOutsideValues).';

const entityPattern = /<custom:MatSci_Entity\b[^>]*>/g;

function unescapeXml(text: string): string {
  return text
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code)))
    .replace(/&#x([0-9a-f]+);/gi, (_, code: string) => String.fromCodePoint(parseInt(code, 16)))
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

function attribute(tag: string, name: string): string | undefined {
  return new RegExp(`\\b${name}="([^"]*)"`).exec(tag)?.[1];
}

/** Offsets of a quantity's unit text inside the source (last occurrence within its span). */
function unitSpan(quantity: Quantity): { start: number; end: number } | null {
  if (!quantity.unitText) return null;
  const offset = quantity.text.lastIndexOf(quantity.unitText);
  return offset < 0 ? null : { start: quantity.start + offset, end: quantity.start + offset + quantity.unitText.length };
}

function recall(
  gold: { start: number; end: number }[],
  predicted: { start: number; end: number }[],
): Omit<Recall, 'exactRecall' | 'overlapRecall'> {
  let exact = 0;
  let overlap = 0;
  for (const span of gold) {
    if (predicted.some((candidate) => candidate.start === span.start && candidate.end === span.end)) exact++;
    if (predicted.some((candidate) => candidate.start < span.end && candidate.end > span.start)) overlap++;
  }
  return { gold: gold.length, exact, overlap };
}

function finish(total: Omit<Recall, 'exactRecall' | 'overlapRecall'>): Recall {
  return { ...total, exactRecall: total.gold ? total.exact / total.gold : 0, overlapRecall: total.gold ? total.overlap / total.gold : 0 };
}

/**
 * Score `parseQuantities` on every `<dataRoot>/*.xmi.gz` (the MuLMS `xmi` folder). Offsets in
 * XMI are UTF-16 code units of the sofaString, as in JavaScript strings.
 */
export async function evaluateMulms(dataRoot: string, options: MulmsOptions = {}): Promise<MulmsReport> {
  const files = (await readdir(dataRoot)).filter((name) => name.endsWith('.xmi.gz') && !name.startsWith('TypeSystem')).sort();
  const value = { gold: 0, exact: 0, overlap: 0 };
  const unit = { gold: 0, exact: 0, overlap: 0 };
  let predicted = 0;
  let outside = 0;
  let documents = 0;
  let strictMatched = 0;
  let lenientMatched = 0;
  const predictions: MulmsReport['predictions'] = [];
  const truths: MulmsReport['truths'] = [];
  for (const file of files.slice(0, options.limit ?? files.length)) {
    const xml = gunzipSync(await readRegularFile(join(dataRoot, file))).toString('utf8');
    const sofa = /sofaString="([^"]*)"/.exec(xml);
    if (!sofa) continue;
    const text = unescapeXml(sofa[1]!);
    const values: { start: number; end: number }[] = [];
    const units: { start: number; end: number }[] = [];
    for (const tag of xml.match(entityPattern) ?? []) {
      const kind = attribute(tag, 'value');
      const span = { start: Number(attribute(tag, 'begin')), end: Number(attribute(tag, 'end')) };
      if (kind === 'VALUE') values.push(span);
      if (kind === 'UNIT') units.push(span);
    }
    const quantities = parseQuantities(text);
    const quantitySpans = quantities.map((quantity) => ({ start: quantity.start, end: quantity.end }));
    const paper = file.replace(/\.xmi\.gz$/u, '');
    strictMatched += matchSpans(quantitySpans, values, 'strict').matched;
    lenientMatched += matchSpans(quantitySpans, values, 'lenient').matched;
    predictions.push(...quantities.map((quantity) => quantityPrediction(paper, quantity)));
    for (const span of values) {
      const spanText = text.slice(span.start, span.end);
      const unitSpan = units.find((candidate) => candidate.start >= span.start && candidate.end <= span.end);
      truths.push({
        paper,
        aliases: [''],
        property: 'quantity',
        value: spanValue(spanText),
        valueText: spanText,
        unit: unitSpan ? text.slice(unitSpan.start, unitSpan.end) : '',
        ...span,
      });
    }
    const unitSpans = quantities.map(unitSpan).filter((span): span is { start: number; end: number } => span !== null);
    for (const [total, part] of [
      [value, recall(values, quantitySpans)],
      [unit, recall(units, unitSpans)],
    ] as const) {
      total.gold += part.gold;
      total.exact += part.exact;
      total.overlap += part.overlap;
    }
    predicted += quantities.length;
    outside += quantitySpans.filter((span) => !values.some((gold) => gold.start < span.end && gold.end > span.start)).length;
    documents++;
  }
  const strict = prfFigures(predicted, value.gold, strictMatched);
  return {
    dataset: 'mulms',
    documents,
    predicted,
    predictedOutsideValues: outside,
    value: finish(value),
    unit: finish(unit),
    precision: strict.precision,
    recall: strict.recall,
    f1: strict.f1,
    strict,
    lenient: prfFigures(predicted, value.gold, lenientMatched),
    scoring: MULMS_SCORING,
    predictions,
    truths,
  };
}
