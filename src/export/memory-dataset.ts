/**
 * A dataset held in memory, as `assay import` holds the file it imports into, and importing a
 * file into it with the extension's semantics: the same plan and settlement as the IndexedDB path
 * (import-merge.ts), with a set of merge keys standing for the unique `&mergeKey` index. Rows
 * already held are never changed; every added row is a new row (new id, `imported` note).
 */
import type { DatasetTriplet } from '../contracts/dataset';
import { TEXT_LIMITS } from '../contracts/text-limits';
import type { RejectedLine } from './dataset-import';
import { eachCheckedChunk } from './import-file';
import type { ImportReport } from '../store/import-job-record';
import {
  addOutcome,
  IMPORT_CHUNK_SIZE,
  planImportChunk,
  settleImportChunk,
  type ChunkOutcome,
  type ImportContext,
  type ImportLine,
} from './import-merge';

/** Rows in the order they were added, and the merge keys they hold (the unique index of the extension's `triplets` table). */
export interface MemoryDataset {
  rows: DatasetTriplet[];
  keys: Set<string>;
}

/** A dataset holding `rows` as they are (their merge keys taken as given). */
export function memoryDataset(rows: readonly DatasetTriplet[] = []): MemoryDataset {
  return { rows: [...rows], keys: new Set(rows.map((row) => row.mergeKey)) };
}

/**
 * `saveImportChunk` on a dataset in memory: `chunk` (checked lines, `withOwnKeys`) is planned
 * (`planImportChunk`); a candidate whose merge key `dataset` holds is refused (its fact is held
 * already, and that row stays as it is), the others are appended to `dataset.rows`; resolves to
 * what the chunk did (`settleImportChunk`), in file order.
 */
export function saveImportChunkInMemory(dataset: MemoryDataset, chunk: readonly ImportLine[], context: ImportContext): ChunkOutcome {
  const plan = planImportChunk(chunk, context);
  const refused = new Set<number>();
  plan.candidates.forEach((row, position) => {
    if (dataset.keys.has(row.mergeKey)) refused.add(position);
    else {
      dataset.keys.add(row.mergeKey);
      dataset.rows.push(row);
    }
  });
  return settleImportChunk(chunk, plan, refused);
}

export interface MemoryImportOptions {
  /** The file's name (each added row's `imported.file`; cut to `TEXT_LIMITS.fileName`). */
  fileName: string;
  /** The import's time: each added row's `imported.at`, and the clock rows' times are checked against. */
  now: Date;
  /** A new row id; defaults to `crypto.randomUUID()`. */
  newId?: () => string;
  /** Entries read and checked at a time (default `IMPORT_CHUNK_SIZE`, as the extension). */
  chunkSize?: number;
  /** Refused lines kept one by one in the result (the rest are counted); default 50, as the extension's job record. */
  keptRejected?: number;
}

/**
 * What importing one file did: its entries (non-blank lines or array elements), the report by
 * line, how many lines were refused and the first of them with the reason, and how many were kept
 * with a lower status than they claimed (`lowered`, a verified row its own quote contradicts) and
 * the first of them with the reason (`demoted`).
 */
export interface MemoryImport {
  entries: number;
  report: ImportReport;
  refused: number;
  rejected: RejectedLine[];
  lowered: number;
  demoted: RejectedLine[];
}

/**
 * Import `file` (an Assay JSON or JSONL export, untrusted) into `dataset` as the extension's import
 * job does (`runImportJob`): read and checked chunk by chunk (`eachCheckedChunk`), each chunk
 * saved with `saveImportChunkInMemory`, a line repeating a line of an earlier chunk merging as its
 * repeat. Resolves to the whole file's problem (empty, not an export; `dataset` is then unchanged,
 * since no line was a row) or what was done. Rejects when the blob cannot be read, with `dataset`
 * holding the chunks read before.
 */
export async function importFileInMemory(
  dataset: MemoryDataset,
  file: Blob,
  options: MemoryImportOptions,
): Promise<MemoryImport | { fileProblem: string }> {
  const report: ImportReport = {
    fileName: options.fileName.slice(0, TEXT_LIMITS.fileName.max),
    at: options.now.toISOString(),
    added: [],
    merged: [],
  };
  const addedKeys = new Map<string, string>();
  const context: ImportContext = {
    fileName: report.fileName,
    at: report.at,
    newId: options.newId ?? (() => crypto.randomUUID()),
    addedKeys,
  };
  const read = await eachCheckedChunk(
    file,
    options.now,
    (lines) => addOutcome(report, addedKeys, saveImportChunkInMemory(dataset, lines, context)),
    { chunkSize: options.chunkSize ?? IMPORT_CHUNK_SIZE, keptRejected: options.keptRejected ?? 50 },
  );
  if ('fileProblem' in read) return read;
  return { entries: read.entries, report, refused: read.refused, rejected: read.rejected, lowered: read.lowered, demoted: read.demoted };
}
