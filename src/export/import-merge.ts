/**
 * How the lines of an imported file merge with a dataset and with each other: the one decision
 * made by both the extension (IndexedDB: `saveImportChunk`, import-triplets.ts) and `assay import`
 * (a dataset held in memory: `saveImportChunkInMemory`, memory-dataset.ts). No database here.
 *
 * A chunk of checked lines (rows whose merge key and SI value were recomputed, `withOwnKeys`) is
 * first planned (`planImportChunk`): a line repeating an earlier line of the file (of this chunk,
 * or one an earlier chunk added) is its repeat; every other line is a candidate, its row under a
 * new id with an `imported` note. The store then adds the candidates and says which it refused
 * because it holds the fact already; `settleImportChunk` turns that into what the chunk did. A
 * stored row is never changed: merging a line into it means leaving it as it is.
 */
import type { DatasetTriplet } from '../contracts/dataset';
import type { ImportReport } from '../store/import-job-record';

/**
 * Rows per transaction. Each transaction is flushed to disk once (strict durability, see
 * assay-database.ts) before its rows are reported saved, so this is also how often progress is
 * acknowledged: 5 000 rows is about half a second of writing on a 2-core machine, and 20 flushes
 * per 100 000 rows instead of 100 (the 1 000 of before).
 */
export const IMPORT_CHUNK_SIZE = 5000;

/** One row of an imported file and where it stands there: "line 3" (JSONL) or "row 3" (a JSON array), 1-based. */
export interface ImportLine {
  row: DatasetTriplet;
  where: string;
}

/** What one saved chunk did: its lines added and merged (file order), and the merge keys it added → their line. */
export interface ChunkOutcome {
  added: string[];
  merged: ImportReport['merged'];
  keys: Map<string, string>;
}

/** What a chunk needs from the whole import: the file's name and time (for each row's `imported` note), new ids, and the merge keys added by earlier chunks → their line. */
export interface ImportContext {
  fileName: string;
  at: string;
  newId: () => string;
  addedKeys: ReadonlyMap<string, string>;
}

/** A line's fate before the store is asked: the repeat of an earlier line ("line 2"), or the candidate at `position` of the plan. */
export type LineFate = { kind: 'repeat'; of: string } | { kind: 'candidate'; position: number };

/** A chunk sorted out before anything is stored. */
export interface ChunkPlan {
  /** The rows to add, in file order: each line repeating no earlier line, under a new id, with `imported: { file, at, sourceId }`. Their merge keys are distinct. */
  candidates: DatasetTriplet[];
  /** Per line of the chunk, in order. */
  fates: LineFate[];
}

/**
 * Plan `chunk` (checked lines, `withOwnKeys`) in `context`: a line whose merge key an earlier line
 * of this chunk or `context.addedKeys` holds repeats that line; the others become candidates, each
 * taking a new id from `context.newId` (the file's id is kept as `imported.sourceId`, so a file
 * cannot name a stored row). Pure apart from calling `newId`.
 */
export function planImportChunk(chunk: readonly ImportLine[], context: ImportContext): ChunkPlan {
  const keys = new Map<string, string>();
  const plan: ChunkPlan = { candidates: [], fates: [] };
  for (const { row, where } of chunk) {
    const earlier = keys.get(row.mergeKey) ?? context.addedKeys.get(row.mergeKey);
    if (earlier !== undefined) {
      plan.fates.push({ kind: 'repeat', of: earlier });
      continue;
    }
    keys.set(row.mergeKey, where);
    plan.fates.push({ kind: 'candidate', position: plan.candidates.length });
    plan.candidates.push({ ...row, id: context.newId(), imported: { file: context.fileName, at: context.at, sourceId: row.id } });
  }
  return plan;
}

/**
 * What `chunk` did once the store has added `plan`'s candidates except those at the positions in
 * `refused` (the store holds their fact already): a candidate added is an added line; a refused
 * one merges into the stored row (no `repeats`); a repeat merges as the repeat of its earlier line
 * (`repeats`), unless that line's fact turned out to be stored already, in which case it merges
 * into the stored row as that line did. Lists keep file order.
 */
export function settleImportChunk(chunk: readonly ImportLine[], plan: ChunkPlan, refused: ReadonlySet<number>): ChunkOutcome {
  const outcome: ChunkOutcome = { added: [], merged: [], keys: new Map() };
  const storedBefore = new Set(plan.candidates.filter((_, position) => refused.has(position)).map((row) => row.mergeKey));
  chunk.forEach(({ row, where }, index) => {
    const fate = plan.fates[index]!;
    if (fate.kind === 'candidate' && !refused.has(fate.position)) {
      outcome.added.push(where);
      outcome.keys.set(row.mergeKey, where);
    } else if (fate.kind === 'repeat' && !storedBefore.has(row.mergeKey)) outcome.merged.push({ where, repeats: fate.of });
    else outcome.merged.push({ where });
  });
  return outcome;
}

/** Add a committed chunk's outcome to the report and its keys to `addedKeys`. */
export function addOutcome(report: ImportReport, addedKeys: Map<string, string>, outcome: ChunkOutcome): void {
  report.added.push(...outcome.added);
  report.merged.push(...outcome.merged);
  for (const [key, where] of outcome.keys) addedKeys.set(key, where);
}
