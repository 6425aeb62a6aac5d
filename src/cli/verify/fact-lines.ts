/**
 * The lines of an `assay verify --triplets FILE.jsonl` file: facts made by any tool (a
 * ChemDataExtractor export, a colleague's spreadsheet saved as JSONL, Assay's own export), one
 * JSON object per line, validated at the boundary. The file is untrusted: each line is bounded
 * (`MAX_LINE_CHARS`), `__proto__` keys are refused, and every field goes through zod with the
 * stored triplet's own text limits (`TEXT_LIMITS`).
 *
 * A line that fails is not fatal: it becomes that line's result (`rejected`, with the reason),
 * so one bad row of a large export does not hide the verdicts on the others. Only a file that
 * is not JSONL at all (no line is a JSON object) ends the run (`readFactLines` throws).
 */
import { z } from 'zod';
import { ConditionListSchema, ProvenanceSchema } from '../../contracts/conditions';
import { EvidenceSchema } from '../../contracts/evidence';
import type { PropertyDefinition } from '../../contracts/property';
import { boundedText, TEXT_LIMITS } from '../../contracts/text-limits';
import { ReportedValueSchema, type ReportedValue, type Triplet } from '../../contracts/triplet';
import { readValueInput, type ValueInput } from './value-input';

/**
 * The most characters of one line: a quote (10,000), its context (2 × 1,000), 32 conditions and
 * the other fields fit several times over; a pasted article does not.
 */
export const MAX_LINE_CHARS = 100_000;
/** The most lines of one file: a large tool export of one paper is a few hundred facts. */
export const MAX_FACT_LINES = 10_000;

const NumberOrText = z.union([z.number(), boundedText(TEXT_LIMITS.valueText).min(1)]);

/** A value as tools write it: 3.4, "3.4", "~1.45", "1.2–1.5", {low, high}, or Assay's own `ReportedValue`. */
const ValueInputSchema = z.union([
  z.number(),
  boundedText(TEXT_LIMITS.valueText).min(1),
  ReportedValueSchema,
  z.object({ low: NumberOrText, high: NumberOrText }),
  z.object({ min: NumberOrText, max: NumberOrText }),
]);

/** One line's fields; unknown keys (a DOI column, a tool's own ids) are ignored. */
export const FactLineSchema = z.object({
  material: boundedText(TEXT_LIMITS.material).trim().min(1, 'material is empty'),
  property: boundedText(TEXT_LIMITS.property).trim().min(1, 'property is empty'),
  value: ValueInputSchema,
  /** Absent: the unit printed in a text `value` ("3.4 eV"), else dimensionless. */
  unit: boundedText(TEXT_LIMITS.unit).optional(),
  valueText: boundedText(TEXT_LIMITS.valueText).optional(),
  /** The sentence or row the tool read it from; absent → the evidence is located in the paper. */
  quote: boundedText(TEXT_LIMITS.quote).optional(),
  /** Assay's own export carries W3C selectors instead of `quote`. */
  evidence: EvidenceSchema.optional(),
  conditions: ConditionListSchema.optional(),
  provenance: ProvenanceSchema.optional(),
});
export type FactLine = z.infer<typeof FactLineSchema>;

/** A line read: the triplet to judge, or why the line cannot be judged. `index` is the 0-based line of the file. */
export type ReadFactLine = { index: number; triplet: Triplet; quoteGiven: boolean } | { index: number; error: string };

/** Why the whole file cannot be read (exit 1 with one line). */
export class FactFileError extends Error {}

/** `JSON.parse` refusing `__proto__` keys (one would replace an object's prototype once spread). */
function parseJsonLine(line: string): unknown {
  return JSON.parse(line, (key, value: unknown) => {
    if (key === '__proto__') throw new SyntaxError('a "__proto__" key is not allowed');
    return value;
  });
}

/**
 * The catalogue's property for a name as a tool writes it: the schema name ("band_gap"), the
 * name in other case or spacing ("Band gap", "band-gap"), its label or one of its synonyms.
 */
export function resolveProperty(name: string, schemas: readonly PropertyDefinition[]): PropertyDefinition | undefined {
  const key = (text: string) =>
    text
      .trim()
      .toLowerCase()
      .replace(/[\s\-_]+/g, '_');
  const wanted = key(name);
  return (
    schemas.find((schema) => schema.name === name.trim()) ??
    schemas.find((schema) => key(schema.name) === wanted || key(schema.label) === wanted) ??
    schemas.find((schema) => schema.synonyms.some((synonym) => key(synonym) === wanted))
  );
}

function zodMessage(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => (issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}

/** One validated line as a `Triplet` (engine "input"), or the reason it is not one. */
export function readFactLine(line: string, index: number, schemas: readonly PropertyDefinition[]): ReadFactLine {
  if (line.length > MAX_LINE_CHARS)
    return { index, error: `line is ${line.length} characters, over the ${MAX_LINE_CHARS} limit of one fact` };
  let data: unknown;
  try {
    data = parseJsonLine(line);
  } catch (error) {
    return { index, error: `not JSON: ${(error as Error).message}` };
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return { index, error: 'not a JSON object' };
  const parsed = FactLineSchema.safeParse(data);
  if (!parsed.success) return { index, error: `invalid fact: ${zodMessage(parsed.error)}` };
  const fact = parsed.data;
  const schema = resolveProperty(fact.property, schemas);
  if (!schema) return { index, error: `unknown property "${fact.property}"; known: ${schemas.map((known) => known.name).join(', ')}` };
  const value = readValueInput(fact.value as ValueInput, fact.unit);
  if ('error' in value) return { index, error: value.error };
  const quote = fact.quote?.trim() ? fact.quote : undefined;
  const triplet: Triplet = {
    material: fact.material,
    property: schema.name,
    value: value.value satisfies ReportedValue,
    unit: value.unit,
    valueText: fact.valueText ?? value.valueText,
    engine: 'input',
  };
  if (fact.conditions?.length) triplet.conditions = fact.conditions;
  if (fact.provenance) triplet.provenance = fact.provenance;
  if (quote) triplet.evidence = { quote: { type: 'TextQuoteSelector', exact: quote, prefix: '', suffix: '' } };
  else if (fact.evidence) triplet.evidence = fact.evidence;
  return { index, triplet, quoteGiven: triplet.evidence !== undefined };
}

/**
 * Read a whole JSONL text: one result per non-blank line, in order (blank lines have no result;
 * `index` stays the line's own number). Throws `FactFileError` when there is no line, more than
 * `MAX_FACT_LINES`, or no line is a JSON object (the file is not JSONL at all).
 */
export function readFactLines(text: string, schemas: readonly PropertyDefinition[]): ReadFactLine[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const filled = lines.map((line, index) => ({ line, index })).filter(({ line }) => line.trim() !== '');
  if (filled.length === 0) throw new FactFileError('the triplets file is empty: give one JSON object per line');
  if (filled.length > MAX_FACT_LINES)
    throw new FactFileError(`the triplets file has ${filled.length} lines, over the ${MAX_FACT_LINES} limit`);
  const read = filled.map(({ line, index }) => readFactLine(line, index, schemas));
  const objects = read.filter((result) => 'triplet' in result || !/^not (JSON|a JSON object)/.test(result.error));
  if (objects.length === 0)
    throw new FactFileError(`the triplets file is not JSONL: no line is a JSON object (line 1: ${(read[0] as { error: string }).error})`);
  return read;
}
