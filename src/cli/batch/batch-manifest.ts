/**
 * The batch record beside a batch's output (`<out>.assay-batch`, JSON Lines): what makes
 * `assay extract … --out FILE.jsonl` resumable. Line 1 is the header (the run's settings and
 * their key); every later line is one paper that ended: `done` with the byte length the output
 * had once its rows were written (`end`), or `failed` with the error. The output file holds only
 * dataset rows (the extension imports it as it is), so everything about the run lives here.
 *
 * Crash safety (SIGKILL at any moment) comes from the order of writes, not from atomic appends
 * (Linux can cut a write to a regular file short when a fatal signal arrives inside it):
 * a paper's rows are appended to the output and flushed (fdatasync), and only then is its
 * `done` line appended here and flushed. On the next run `resumePoint` trusts only complete
 * lines of this file, and the output is cut back to the last `done` line's `end`: rows of a
 * paper whose `done` line never made it (and any half-written line) are removed, and that paper
 * is redone, so its rows are never written twice.
 *
 * This file is read back, so it is parsed with zod like any input; a line that does not parse
 * ends the trusted part (everything after it is cut as well).
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { RunRecordSchema } from '../../contracts/run-record';

/** The manifest's name for an output file: `<out>.assay-batch`. */
export function manifestPathOf(outPath: string): string {
  return `${outPath}.assay-batch`;
}

/** What must be the same for a rerun to continue a batch: the engine and what it was asked. */
export const BatchSettingsSchema = z.object({
  engine: z.string(),
  preset: z.string().optional(),
  models: z.record(z.string(), z.union([z.string(), z.array(z.string())])).optional(),
  seed: z.number().int().optional(),
  properties: z.array(z.string()),
  /** The scripted engine's script, by its SHA-256: another script is another run. */
  script: z.string().optional(),
});
export type BatchSettings = z.infer<typeof BatchSettingsSchema>;

export const ManifestHeaderSchema = z.object({
  kind: z.literal('assay-batch'),
  version: z.literal(1),
  /** `settingsKey(settings)`. */
  key: z.string(),
  settings: BatchSettingsSchema,
  /** ISO 8601 time the batch was first started. */
  startedAt: z.string(),
});
export type ManifestHeader = z.infer<typeof ManifestHeaderSchema>;

const PaperBase = z.object({
  kind: z.literal('paper'),
  /** The path as it was found (relative to the working directory when given so). */
  file: z.string(),
  /** SHA-256 of the file's bytes (hex): a paper's identity, so a moved or renamed file is still skipped. */
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** ISO 8601 time the paper ended. */
  at: z.string(),
  seconds: z.number().nonnegative(),
  calls: z.number().int().nonnegative(),
  promptTokens: z.number().nonnegative(),
  completionTokens: z.number().nonnegative(),
});

export const PaperDoneSchema = PaperBase.extend({
  status: z.literal('done'),
  /** Rows appended to the output for this paper. */
  rows: z.number().int().nonnegative(),
  /** The output's byte length once this paper's rows were written and flushed. */
  end: z.number().int().nonnegative(),
  /** The run id in the paper's rows (`runId`, and the prefix of their ids). */
  runId: z.string(),
  /** The SLM-MATRIX run record (absent for the rules engine): settings, usage per stage, model and server. */
  run: RunRecordSchema.optional(),
});
export type PaperDone = z.infer<typeof PaperDoneSchema>;

export const PaperFailedSchema = PaperBase.extend({
  status: z.literal('failed'),
  error: z.object({ code: z.string(), message: z.string() }),
});
export type PaperFailed = z.infer<typeof PaperFailedSchema>;

export const PaperEntrySchema = z.discriminatedUnion('status', [PaperDoneSchema, PaperFailedSchema]);
export type PaperEntry = z.infer<typeof PaperEntrySchema>;

/**
 * A stable key of `settings`: SHA-256 (hex) of their JSON with object keys sorted, so the same
 * settings written in another order give the same key.
 */
export function settingsKey(settings: BatchSettings): string {
  const sorted = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(sorted);
    if (value && typeof value === 'object')
      return Object.fromEntries(
        Object.entries(value as Record<string, unknown>)
          .filter(([, inner]) => inner !== undefined)
          .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
          .map(([key, inner]) => [key, sorted(inner)]),
      );
    return value;
  };
  return createHash('sha256')
    .update(JSON.stringify(sorted(settings)))
    .digest('hex');
}

/** What a manifest file says, as far as it can be trusted. */
export interface ParsedManifest {
  header: ManifestHeader | null;
  entries: PaperEntry[];
  /** The byte offset just after the header line (0 without a header). */
  headerEnd: number;
  /** The byte offset just after each entry's line (parallel to `entries`). */
  entryEnds: number[];
  /** Bytes of the file that are complete, valid lines; the rest is to be cut. */
  validBytes: number;
  /** Why the trusted part ends early (a line that is not JSON or not a manifest line), for a warning; null when every line counted. */
  problem: string | null;
}

/**
 * Parse a manifest's bytes: complete lines (ending in "\n") are read in order until one is not a
 * valid header (line 1) or paper line (the rest); a last line without its "\n" is a write cut
 * short and is not trusted. Never throws.
 */
export function parseManifest(bytes: Uint8Array): ParsedManifest {
  const result: ParsedManifest = { header: null, headerEnd: 0, entries: [], entryEnds: [], validBytes: 0, problem: null };
  const decoder = new TextDecoder();
  let start = 0;
  let lineNumber = 0;
  while (start < bytes.length) {
    const newline = bytes.indexOf(0x0a, start);
    if (newline < 0) {
      result.problem = `line ${lineNumber + 1} was cut short (a write interrupted by a crash)`;
      break;
    }
    lineNumber += 1;
    const text = decoder.decode(bytes.subarray(start, newline));
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      result.problem = `line ${lineNumber} is not JSON`;
      break;
    }
    if (lineNumber === 1) {
      const header = ManifestHeaderSchema.safeParse(value);
      if (!header.success) {
        result.problem = 'line 1 is not an Assay batch header';
        break;
      }
      result.header = header.data;
      result.headerEnd = newline + 1;
    } else {
      const entry = PaperEntrySchema.safeParse(value);
      if (!entry.success) {
        result.problem = `line ${lineNumber} is not a paper of an Assay batch`;
        break;
      }
      result.entries.push(entry.data);
      result.entryEnds.push(newline + 1);
    }
    start = newline + 1;
    result.validBytes = start;
  }
  return result;
}

/** Where a rerun continues: the papers done (by SHA-256), the output length they account for, and the header. */
export interface ResumePoint {
  header: ManifestHeader;
  /** SHA-256 → the done entry (the last one when a paper was done twice). */
  done: Map<string, PaperDone>;
  /** The output's trusted length: the last done entry's `end` (0 with none). */
  outputEnd: number;
  /** Manifest bytes to keep. */
  manifestEnd: number;
  /** Papers that failed in earlier runs and are not done since (retried). */
  failedBefore: number;
  problem: string | null;
}

/**
 * The resume point of a parsed manifest, or null when it has no header (a new batch). Entries
 * must keep `end` non-decreasing (they are appended in write order); an entry whose `end` goes
 * back ends the trusted part like a bad line.
 */
export function resumePoint(parsed: ParsedManifest): ResumePoint | null {
  if (!parsed.header) return null;
  const done = new Map<string, PaperDone>();
  const failed = new Set<string>();
  let outputEnd = 0;
  for (const [index, entry] of parsed.entries.entries()) {
    if (entry.status === 'done') {
      if (entry.end < outputEnd) {
        const manifestEnd = index === 0 ? parsed.headerEnd : parsed.entryEnds[index - 1]!;
        return {
          header: parsed.header,
          done,
          outputEnd,
          manifestEnd,
          failedBefore: failed.size,
          problem: `entry ${index + 1} goes back in the output`,
        };
      }
      outputEnd = entry.end;
      done.set(entry.sha256, entry);
      failed.delete(entry.sha256);
    } else if (!done.has(entry.sha256)) failed.add(entry.sha256);
  }
  return { header: parsed.header, done, outputEnd, manifestEnd: parsed.validBytes, failedBefore: failed.size, problem: parsed.problem };
}
