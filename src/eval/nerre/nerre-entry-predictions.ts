/**
 * Recorded model output for the LLM-NERRE general and MOF sets, in the dataset's own record
 * format: a JSON list, or JSONL, of `{ prompt, completion }` where `completion` is the model's
 * (upstream's text " [entries]\n\nEND\n\n", or the entries list itself). Upstream's results files
 * (`{ prompt, completion, llm_completion }` or `gpt3_completion`) are read as they are: there the
 * model's output is `llm_completion` (else `gpt3_completion`) and `completion` is the gold, ignored.
 * A record is found by `id` (`<task>/<line>`, as the evaluation reports it) when given, else by
 * its prompt (the abstract, with or without upstream's `###` separator).
 */
import { readRegularFile } from '../../capture/node/regular-file';
import { z } from 'zod';
import { parseCompletion, promptText, type NerreEntry, type NerreTask } from './nerre-entry-dataset';

/** One abstract's prediction: `key` is `id:<id>` or `text:<abstract>`; entries null when the completion did not parse. */
export interface NerreEntryPrediction {
  key: string;
  entries: NerreEntry[] | null;
}

export interface NerreEntryPredictionSet {
  predictions: NerreEntryPrediction[];
  /** Items (or lines) that were not a prediction record at all (no JSON, no id/prompt, no completion). */
  malformed: number;
}

const completionValue = z.union([z.string(), z.array(z.unknown())]);

const recordSchema = z
  .object({
    id: z.string().min(1).optional(),
    prompt: z.string().optional(),
    completion: completionValue.optional(),
    llm_completion: completionValue.optional(),
    gpt3_completion: completionValue.optional(),
  })
  .refine((record) => record.id !== undefined || record.prompt !== undefined, { message: 'needs id or prompt' })
  .refine((record) => (record.llm_completion ?? record.gpt3_completion ?? record.completion) !== undefined, {
    message: 'needs completion, llm_completion or gpt3_completion',
  });

/** The lookup key of a record: its id, else its abstract. */
export function predictionKey(record: { id?: string; text?: string }): string {
  return record.id !== undefined ? `id:${record.id}` : `text:${record.text ?? ''}`;
}

/** JSON list or JSON lines to items; a line that is not JSON is counted. Throws when the text is neither. */
function items(text: string): { items: unknown[]; malformed: number } {
  const trimmed = text.trim();
  if (trimmed.startsWith('[')) {
    const data: unknown = JSON.parse(trimmed);
    if (!Array.isArray(data)) throw new Error('predictions: expected a JSON list');
    return { items: data, malformed: 0 };
  }
  const parsed: unknown[] = [];
  let malformed = 0;
  for (const line of trimmed.split('\n')) {
    if (!line.trim()) continue;
    try {
      parsed.push(JSON.parse(line));
    } catch {
      malformed++;
    }
  }
  if (parsed.length === 0 && malformed > 0) throw new Error('predictions: neither a JSON list nor JSON lines');
  return { items: parsed, malformed };
}

/**
 * Parse predictions for `task`. Malformed items are skipped and counted; a record whose completion
 * is not a JSON list of entries is kept with `entries: null` (scored as predicting nothing, as
 * upstream scores an unparsable completion). A repeated id or prompt throws.
 */
export function parseNerreEntryPredictions(text: string, task: NerreTask): NerreEntryPredictionSet {
  const { items: list, malformed: badLines } = items(text);
  let malformed = badLines;
  const predictions: NerreEntryPrediction[] = [];
  const seen = new Set<string>();
  for (const item of list) {
    const parsed = recordSchema.safeParse(item);
    if (!parsed.success) {
      malformed++;
      continue;
    }
    const record = parsed.data;
    const key = predictionKey(record.id !== undefined ? { id: record.id } : { text: promptText(record.prompt!) });
    if (seen.has(key)) throw new Error(`predictions: ${key.slice(0, 80)} appears twice`);
    seen.add(key);
    predictions.push({ key, entries: parseCompletion(record.llm_completion ?? record.gpt3_completion ?? record.completion, task) });
  }
  return { predictions, malformed };
}

/** Read a predictions file (JSON or JSONL). File and format errors propagate. */
export async function loadNerreEntryPredictions(path: string, task: NerreTask): Promise<NerreEntryPredictionSet> {
  return parseNerreEntryPredictions(await readRegularFile(path, 'utf8'), task);
}
