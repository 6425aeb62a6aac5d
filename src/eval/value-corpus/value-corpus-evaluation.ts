/**
 * The evaluation shared by `assay eval sofc-exp` and `assay eval msptc`: an engine's triplets
 * and the quantity parser, each scored strict and lenient (`value-matching.ts`), with the
 * predictions and truths of the run beside the figures (`rescorable.ts`).
 *
 * Scope of the triplet scoring: an engine reports the properties of Assay's schemas, so it is
 * asked for the schemas whose canonical unit has the SI dimension of some annotated value (or
 * that an annotation's label maps to), and scored against those annotated values only; the
 * others (power densities, masses, heating times…) no schema can report, and are counted as
 * `scope.outOfScope` by unit. Every annotated value is scored against the quantity parser
 * (`parseQuantities`, which the rules engine's scan reads values with), in the parts of the text
 * the annotators annotated, keeping the quantities that carry a unit.
 *
 * The triplet figures are the headline (top-level `precision`, `recall`, `f1` = `strict`).
 */
import type { PropertyDefinition } from '../../contracts/property';
import type { Triplet } from '../../contracts/triplet';
import { parseQuantities as defaultParseQuantities, type Quantity } from '../../text/quantities/index';
import { normalizeUnit } from '../../text/units/index';
import { maximumMatching } from '../bipartite-matching';
import type { EngineSetup } from '../extractor';
import { prfFigures, type EvalPrediction, type Prf, type PrfFigures } from '../rescorable';
import { matchSpans, quantityPrediction, type Offsets, type QuantityPrediction } from '../span-score';
import type { ValuePaper, ValueTruth } from './value-corpus';
import { sameValue, tripletMatchesValue, type ValueMatchDependencies } from './value-matching';

export interface ValueCorpusEvaluationOptions {
  papers: readonly ValuePaper[];
  engine: { name: string } & EngineSetup;
  schemas: readonly PropertyDefinition[];
  dependencies: ValueMatchDependencies;
  /** The quantity parser (default `parseQuantities`). */
  parseQuantities?: (text: string) => Quantity[];
  progress?: (line: string) => void;
}

/** Counts of one paper under both scorings. */
interface PaperCounts {
  predictions: number;
  truths: number;
  matched: number;
  lenientMatched: number;
}

export interface ValueCorpusEvaluation extends Prf {
  engine: string;
  n: number;
  strict: PrfFigures;
  lenient: PrfFigures;
  scope: { schemas: string[]; truths: number; outOfScope: number; outOfScopeByUnit: Record<string, number> };
  predictions: EvalPrediction[];
  truths: ValueTruth[];
  groundingRate?: number;
  quantities: {
    strict: PrfFigures;
    lenient: PrfFigures;
    /** Parsed quantities on an annotated value outside the truths (MSPTC apparatus sizes), not counted. */
    ignoredPredictions: number;
    predictions: QuantityPrediction[];
    truths: ValueTruth[];
  };
  papers: Array<{ paper: string } & PaperCounts & { quantities: PaperCounts }>;
}

/** The SI unit of one unit text, null when it does not convert or is dimensionless. */
function siUnitOf(unit: string, convert: ValueMatchDependencies['convert']): string | null {
  const si = convert(1, unit);
  return si && si.unit !== '' ? si.unit : null;
}

/**
 * Which truths the engine's triplets are scored on, and which schemas it is asked for: a truth
 * whose label maps to a schema, or whose unit converts to the SI unit of a schema's canonical
 * unit (all such schemas are asked).
 */
export function tripletScope(
  truths: readonly ValueTruth[],
  schemas: readonly PropertyDefinition[],
  convert: ValueMatchDependencies['convert'],
): { inScope: (truth: ValueTruth) => boolean; schemas: string[] } {
  const bySiUnit = new Map<string, string[]>();
  for (const schema of schemas) {
    const si = siUnitOf(schema.canonicalUnit, convert);
    if (si) bySiUnit.set(si, [...(bySiUnit.get(si) ?? []), schema.name]);
  }
  const schemasOf = (truth: ValueTruth): string[] => {
    if (truth.schema !== undefined) return [truth.schema];
    const si = truth.value === null ? null : siUnitOf(truth.unit, convert);
    return si === null ? [] : (bySiUnit.get(si) ?? []);
  };
  const asked = new Set(truths.flatMap(schemasOf));
  return {
    inScope: (truth) => schemasOf(truth).length > 0,
    schemas: schemas.map((schema) => schema.name).filter((name) => asked.has(name)),
  };
}

function engineStatus(engine: EngineSetup): string {
  // Engines that report a verdict for what they return (SLM-MATRIX: `verified`) say so.
  return (engine as EngineSetup & { status?: string }).status ?? 'extracted';
}

function tripletPrediction(paper: string, triplet: Triplet, status: string): EvalPrediction {
  return {
    paper,
    material: triplet.material,
    property: triplet.property,
    value: triplet.value,
    ...(triplet.valueText ? { valueText: triplet.valueText } : {}),
    unit: triplet.unit,
    quote: triplet.evidence?.quote.exact ?? null,
    status,
  };
}

/** The parser's quantities with a unit inside the annotated parts of a paper, offsets in `paper.text`. */
function readQuantities(paper: ValuePaper, parse: (text: string) => Quantity[]): QuantityPrediction[] {
  return paper.annotated.flatMap(({ start, end }) =>
    parse(paper.text.slice(start, end))
      .filter((quantity) => quantity.unit !== '')
      .map((quantity) => quantityPrediction(paper.id, quantity, start)),
  );
}

const overlaps = (a: Offsets, b: Offsets) => a.start < b.end && a.end > b.start;

/**
 * Run `engine` on every paper's article and the quantity parser on its annotated text, and
 * score both (module comment). Rejects when the engine rejects on a paper.
 */
export async function evaluateValueCorpus(options: ValueCorpusEvaluationOptions): Promise<ValueCorpusEvaluation> {
  const { papers, engine, dependencies } = options;
  const parse = options.parseQuantities ?? defaultParseQuantities;
  const allTruths = papers.flatMap((paper) => paper.truths);
  const scope = tripletScope(allTruths, options.schemas, dependencies.convert);
  const canonicalUnit = new Map(options.schemas.map((schema) => [schema.name, schema.canonicalUnit]));
  const status = engineStatus(engine);

  const predictions: EvalPrediction[] = [];
  const truths: ValueTruth[] = [];
  const quantityPredictions: QuantityPrediction[] = [];
  const rows: ValueCorpusEvaluation['papers'] = [];
  let ignoredPredictions = 0;
  let produced = 0;
  let grounded = 0;
  for (const [position, paper] of papers.entries()) {
    options.progress?.(`[${position + 1}/${papers.length}] ${paper.id}`);
    const paperTruths = paper.truths.filter(scope.inScope);
    const triplets = scope.schemas.length === 0 ? [] : await engine.extractor(paper.article, { properties: scope.schemas });
    if (engine.isGrounded) {
      produced += triplets.length;
      grounded += triplets.filter((triplet) => engine.isGrounded!(triplet, paper.article)).length;
    }
    const count = (mode: 'strict' | 'lenient') =>
      maximumMatching(triplets.length, paperTruths.length, (left, right) =>
        tripletMatchesValue(triplets[left]!, paperTruths[right]!, mode, dependencies, canonicalUnit.get(triplets[left]!.property)),
      ).size;

    const parsed = readQuantities(paper, parse);
    const scored = parsed.filter(
      (quantity) => paper.truths.some((truth) => overlaps(quantity, truth)) || !paper.ignored.some((span) => overlaps(quantity, span)),
    );
    ignoredPredictions += parsed.length - scored.length;
    const spanValue = (quantity: QuantityPrediction, truth: ValueTruth) =>
      truth.value === null ? true : sameValue(quantity.value, quantity.unit, truth, dependencies.convert);

    rows.push({
      paper: paper.id,
      predictions: triplets.length,
      truths: paperTruths.length,
      matched: count('strict'),
      lenientMatched: count('lenient'),
      quantities: {
        predictions: scored.length,
        truths: paper.truths.length,
        matched: matchSpans(scored, paper.truths, 'strict', spanValue).matched,
        lenientMatched: matchSpans(scored, paper.truths, 'lenient').matched,
      },
    });
    predictions.push(...triplets.map((triplet) => tripletPrediction(paper.id, triplet, status)));
    truths.push(...paperTruths);
    quantityPredictions.push(...scored);
  }

  const sum = (pick: (row: ValueCorpusEvaluation['papers'][number]) => number) => rows.reduce((total, row) => total + pick(row), 0);
  const strict = prfFigures(
    sum((row) => row.predictions),
    sum((row) => row.truths),
    sum((row) => row.matched),
  );
  const outOfScope = allTruths.filter((truth) => !scope.inScope(truth));
  const outOfScopeByUnit: Record<string, number> = {};
  for (const truth of outOfScope) {
    const key = normalizeUnit(truth.unit) ?? truth.unit;
    outOfScopeByUnit[key] = (outOfScopeByUnit[key] ?? 0) + 1;
  }
  return {
    engine: engine.name,
    n: papers.length,
    precision: strict.precision,
    recall: strict.recall,
    f1: strict.f1,
    strict,
    lenient: prfFigures(
      strict.predictions,
      strict.truths,
      sum((row) => row.lenientMatched),
    ),
    scope: { schemas: scope.schemas, truths: truths.length, outOfScope: outOfScope.length, outOfScopeByUnit },
    predictions,
    truths,
    ...(produced > 0 ? { groundingRate: grounded / produced } : {}),
    quantities: {
      strict: prfFigures(
        quantityPredictions.length,
        allTruths.length,
        sum((row) => row.quantities.matched),
      ),
      lenient: prfFigures(
        quantityPredictions.length,
        allTruths.length,
        sum((row) => row.quantities.lenientMatched),
      ),
      ignoredPredictions,
      predictions: quantityPredictions,
      truths: allTruths,
    },
    papers: rows,
  };
}

/** What `assay eval sofc-exp|msptc` passes to its dataset's evaluator. */
export interface ValueCorpusDatasetOptions {
  dataRoot: string;
  engine: { name: string } & EngineSetup;
  /** Keep the first N papers. */
  limit?: number;
  dependencies: ValueMatchDependencies;
  progress?: (line: string) => void;
}
