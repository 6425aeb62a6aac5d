/**
 * The LLM-NERRE doping set (lbnlp/NERRE `doping/data/train.json`; shared copy
 * `datasets/llm-nerre/doping/train.json`, see its SOURCE.md): a JSON list of abstracts
 * `{ doi, title, text, doping_sentences: [{ sentence_text, basemats: {b0: …}, dopants: {d0: …},
 * dopants2basemats: {d0: ['b0']}, relevant, … }] }`. Assay scores per abstract, so the
 * sentence annotations are gathered into one truth per abstract.
 */
import { readRegularFile } from '../../capture/node/regular-file';
import { join } from 'node:path';
import { z } from 'zod';

/** A host–dopant link (upstream `dopants2basemats`), entities as written. */
export interface NerreRelation {
  host: string;
  dopant: string;
}

/** What an abstract holds, or what a model predicts for it. Entity strings as written, unique. */
export interface NerreEntities {
  /** Host (base) materials, upstream `basemats`. */
  hosts: string[];
  dopants: string[];
  relations: NerreRelation[];
}

/** One abstract: `id` is its DOI; `text` the abstract; the title is annotated too (sentence 0). */
export interface NerreDopingRecord {
  id: string;
  title: string;
  text: string;
  truth: NerreEntities;
}

export interface NerreDopingDataset {
  records: NerreDopingRecord[];
  malformed: number;
}

const sentenceSchema = z.object({
  sentence_text: z.string(),
  basemats: z.record(z.string(), z.string()),
  dopants: z.record(z.string(), z.string()),
  // Upstream's scorer turns an empty list into an empty map; accept both.
  dopants2basemats: z.union([z.record(z.string(), z.array(z.string())), z.array(z.never()).length(0)]),
  relevant: z.boolean(),
});

const abstractSchema = z.object({
  doi: z.string().min(1),
  title: z.string(),
  text: z.string(),
  doping_sentences: z.array(sentenceSchema),
});

/** The path of the doping set under a data root (docs/EVAL.md: `llm-nerre/doping/train.json`). */
export function nerreDopingPath(dataRoot: string): string {
  return join(dataRoot, 'datasets', 'llm-nerre', 'doping', 'train.json');
}

function pushUnique<T>(list: T[], item: T, key: (value: T) => string): void {
  if (!list.some((existing) => key(existing) === key(item))) list.push(item);
}

/**
 * Gather the relevant sentences' annotations of one abstract. Upstream scores only sentences
 * marked `relevant` (its loop `break`s at the first irrelevant one — see the report's note); here
 * every relevant sentence counts and irrelevant ones are left out. Entities are trimmed and kept
 * once per abstract; a link whose ids name no entity is dropped.
 */
export function abstractTruth(sentences: z.infer<typeof sentenceSchema>[]): NerreEntities {
  const truth: NerreEntities = { hosts: [], dopants: [], relations: [] };
  for (const sentence of sentences) {
    if (!sentence.relevant) continue;
    for (const host of Object.values(sentence.basemats)) if (host.trim()) pushUnique(truth.hosts, host.trim(), String);
    for (const dopant of Object.values(sentence.dopants)) if (dopant.trim()) pushUnique(truth.dopants, dopant.trim(), String);
    const links = Array.isArray(sentence.dopants2basemats) ? {} : sentence.dopants2basemats;
    for (const [dopantId, hostIds] of Object.entries(links)) {
      const dopant = sentence.dopants[dopantId]?.trim();
      for (const hostId of hostIds) {
        const host = sentence.basemats[hostId]?.trim();
        if (dopant && host) pushUnique(truth.relations, { host, dopant }, (relation) => `${relation.host}\u0000${relation.dopant}`);
      }
    }
  }
  return truth;
}

/**
 * Parse the doping set from JSON text. Returns the records in file order and how many list items
 * were malformed (skipped). Throws when the text is not JSON or not a list.
 */
export function parseNerreDoping(json: string): NerreDopingDataset {
  const data: unknown = JSON.parse(json);
  if (!Array.isArray(data)) throw new Error('llm-nerre doping: expected a JSON list of abstracts');
  const records: NerreDopingRecord[] = [];
  let malformed = 0;
  for (const item of data) {
    const parsed = abstractSchema.safeParse(item);
    if (!parsed.success) {
      malformed++;
      continue;
    }
    const { doi, title, text, doping_sentences: sentences } = parsed.data;
    records.push({ id: doi, title: title.trim(), text, truth: abstractTruth(sentences) });
  }
  return { records, malformed };
}

/** Read and parse `<dataRoot>/datasets/llm-nerre/doping/train.json`. File errors propagate. */
export async function loadNerreDoping(dataRoot: string): Promise<NerreDopingDataset> {
  return parseNerreDoping(await readRegularFile(nerreDopingPath(dataRoot), 'utf8'));
}
