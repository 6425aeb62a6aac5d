/**
 * The records of the dataset page's imports as stored (`importJobs`, `importFiles`) and the report
 * an import writes. Types only, with no import of the database module, so `assay-database.ts` can
 * name its tables' row types without an import cycle. The code is src/export/import-job.ts (import lives in src/export/).
 */

/** A line (or array element) of the file that was refused, and why in words. */
export interface RejectedLine {
  where: string;
  message: string;
}

/** What an import did, line by line, in file order. */
export interface ImportReport {
  /** The file name as given (cut to `TEXT_LIMITS.fileName`) and the import's time (ISO 8601). */
  fileName: string;
  at: string;
  /** Lines saved as new rows. */
  added: string[];
  /** Lines stating a fact already saved (the saved row is left unchanged), or the fact of an earlier line of the file (`repeats`: "line 2"). */
  merged: Array<{ where: string; repeats?: string }>;
  /** Set when a write failed: the error in words and the lines not saved (the failed chunk and every later one). */
  failure?: { message: string; unsaved: string[] };
}

/** Where an import job stands: waiting for the offscreen document, running there, or ended (how). */
export type ImportJobStatus = 'waiting' | 'running' | 'done' | 'failed' | 'stopped' | 'interrupted';

/**
 * The file of an import job, in its own table (`importFiles`, keyed by the job's id): the job's
 * record is rewritten with each chunk's progress, and a record holding a Blob copies the Blob's
 * bytes each time it is written (100 MB × 20 chunks, measured as ~6 s of a 100 000-row import).
 */
export interface ImportFile {
  id: string;
  file: Blob;
}

/** One import, as stored in `importJobs`. Times are ISO 8601. */
export interface ImportJob {
  id: string;
  /** The file's name as the reader chose it (cut to `TEXT_LIMITS.fileName`). */
  fileName: string;
  /** Whether the file is stored (in `importFiles`, under the job's id): until the import ends well, so an interrupted one can be run again. */
  hasFile: boolean;
  /** Its size in bytes. */
  bytes: number;
  status: ImportJobStatus;
  startedAt: string;
  /** When the job last changed: started, a chunk acknowledged, ended. */
  updatedAt: string;
  /** Entries in the file (lines, or elements of a JSON array), known when the import ends (JSON Lines are streamed); 0 before. */
  total: number;
  /** Entries done (added, merged or refused), counted in the transaction that saved their chunk: what survives a crash. */
  done: number;
  /** Bytes of the file read up to the last saved chunk (for the progress bar: a streamed file's line count is known only at its end). */
  bytesDone?: number;
  added: number;
  merged: number;
  refused: number;
  /** The ended import's report by line (added, merged, the failure). */
  report?: ImportReport;
  /** The first refused lines with the reason, and how many were refused in all. */
  rejected?: RejectedLine[];
  /** How many lines were kept with a lower status than they claimed (a verified row its own quote contradicts, now needs_review); absent in jobs before issue 27. */
  lowered?: number;
  /** The first of those lines with the reason. */
  demoted?: RejectedLine[];
  /** Set when the whole file is refused (empty, not JSON, not an export); nothing was saved. */
  fileProblem?: string;
  /** Why the import failed, was stopped or was interrupted, in words. */
  message?: string;
}
