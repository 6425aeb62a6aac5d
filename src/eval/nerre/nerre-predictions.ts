/**
 * Recorded predictions for the LLM-NERRE doping set, so that any model's output can be scored:
 * a JSON list, or JSONL (one object a line), of
 * `{ id, hosts?: string[], dopants?: string[], relations?: ({ host, dopant } | [host, dopant])[] }`,
 * `id` being the abstract's DOI. Absent lists are empty.
 */
import { readRegularFile } from '../../capture/node/regular-file';
import { z } from 'zod';
import type { NerreEntities } from './nerre-doping-dataset';

/** One abstract's prediction, entities as the model wrote them. */
export interface NerrePrediction extends NerreEntities {
  id: string;
}

export interface NerrePredictionSet {
  predictions: NerrePrediction[];
  /** Items (or lines) that were not a valid prediction; their abstracts score as empty predictions. */
  malformed: number;
}

const relationSchema = z.union([
  z.object({ host: z.string(), dopant: z.string() }),
  z.tuple([z.string(), z.string()]).transform(([host, dopant]) => ({ host, dopant })),
]);

const predictionSchema = z.object({
  id: z.string().min(1),
  hosts: z.array(z.string()).default([]),
  dopants: z.array(z.string()).default([]),
  relations: z.array(relationSchema).default([]),
});

/**
 * Parse predictions from JSON (a list) or JSONL text. Malformed items are skipped and counted;
 * text that is neither a JSON list nor JSON lines throws. A repeated id throws (which one to
 * score would be a guess).
 */
export function parseNerrePredictions(text: string): NerrePredictionSet {
  const trimmed = text.trim();
  let items: unknown[];
  let malformed = 0;
  if (trimmed.startsWith('[')) {
    const data: unknown = JSON.parse(trimmed);
    if (!Array.isArray(data)) throw new Error('predictions: expected a JSON list');
    items = data;
  } else {
    items = [];
    for (const line of trimmed.split('\n')) {
      if (!line.trim()) continue;
      try {
        items.push(JSON.parse(line));
      } catch {
        malformed++;
      }
    }
    if (items.length === 0 && malformed > 0) throw new Error('predictions: neither a JSON list nor JSON lines');
  }
  const predictions: NerrePrediction[] = [];
  const seen = new Set<string>();
  for (const item of items) {
    const parsed = predictionSchema.safeParse(item);
    if (!parsed.success) {
      malformed++;
      continue;
    }
    if (seen.has(parsed.data.id)) throw new Error(`predictions: id "${parsed.data.id}" appears twice`);
    seen.add(parsed.data.id);
    predictions.push(parsed.data);
  }
  return { predictions, malformed };
}

/** Read a predictions file (JSON or JSONL). File and format errors propagate. */
export async function loadNerrePredictions(path: string): Promise<NerrePredictionSet> {
  return parseNerrePredictions(await readRegularFile(path, 'utf8'));
}
