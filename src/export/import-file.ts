/**
 * Reading an import file (an Assay JSON array, JSON Lines or CSV export) from a Blob in entries, a
 * chunk at a time: the extension's import job reads the file the dataset page stored
 * (`runImportJob`), the command line a file on disk (`fs.openAsBlob`), and both number lines,
 * skip blank lines and a byte-order mark, and refuse a whole file in the same words.
 */
import { utf16ByNulBytes } from '../capture/sniff-encoding';
import { isAssayCsv } from './csv-import';
import { checkImportEntries, NOT_AN_EXPORT_PROBLEM, splitAssayImport, type ImportEntry, type RejectedLine } from './dataset-import';
import type { ImportLine } from './import-merge';

/**
 * The largest JSON array file read (a JSON array is parsed whole; JSON Lines are streamed, so
 * they have no such limit): 256 MiB of text, about 250 000 rows, well under V8's longest string.
 */
export const MAX_JSON_ARRAY_BYTES = 256 * 1024 * 1024;

/** The words for a file with no line that is not blank (`problemAfterReading`). */
export const EMPTY_FILE_PROBLEM = 'The file is empty.';

/** A chunk of a file's entries, with the bytes of the file read up to its end (for progress). */
export interface ImportBatch {
  entries: ImportEntry[];
  bytes: number;
}

/** A file's entries in chunks, and whether it is JSON Lines (streamed) or a JSON array (parsed whole); or the problem with the whole file. */
export type ImportBatches = { jsonLines: boolean; batches: AsyncIterable<ImportBatch> | Iterable<ImportBatch> } | { fileProblem: string };

/** The encodings an import file is read in. */
type ImportEncoding = 'utf-8' | 'utf-16le' | 'utf-16be';

/**
 * The encoding of an import file, from its first bytes (issue 27, item 11): a UTF-16 byte-order
 * mark (a spreadsheet's "Unicode text", Windows Notepad's "Unicode"), or UTF-16's NUL bytes
 * without one (`utf16ByNulBytes`), else UTF-8, the exports' own encoding. Read as UTF-8, such a
 * file was refused line by line as "not JSON".
 */
async function fileEncoding(file: Blob): Promise<ImportEncoding> {
  const head = new Uint8Array(await file.slice(0, 2048).arrayBuffer());
  if (head[0] === 0xff && head[1] === 0xfe) return 'utf-16le';
  if (head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return 'utf-8';
  return utf16ByNulBytes(head) ?? 'utf-8';
}

/** `file`'s text in `encoding`, whole (a byte-order mark is dropped by the decoder). */
async function wholeText(file: Blob, encoding: ImportEncoding): Promise<string> {
  return encoding === 'utf-8' ? file.text() : new TextDecoder(encoding).decode(await file.arrayBuffer());
}

/**
 * What the blob holds, from its first characters (after a byte-order mark and white space): a
 * JSON array ("["), an Assay CSV export (its header, `isAssayCsv`), else JSON Lines.
 */
async function fileKind(file: Blob, encoding: ImportEncoding): Promise<'array' | 'csv' | 'lines'> {
  const head = (await wholeText(file.slice(0, 4096), encoding)).replace(/^\uFEFF/, '').trimStart();
  if (head.startsWith('[')) return 'array';
  return isAssayCsv(head) ? 'csv' : 'lines';
}

/**
 * The non-blank lines of a JSON Lines blob as entries ("line N", 1-based, counting blank lines),
 * `size` at a time, streamed (`Blob.stream()` through a `TextDecoder` in its encoding), so a file of any
 * size is read in constant memory. Each batch comes with the bytes read so far. A byte-order
 * mark is skipped; "\r\n" ends a line like "\n".
 */
async function* jsonLineBatches(file: Blob, size: number, encoding: ImportEncoding): AsyncGenerator<ImportBatch> {
  const reader = file.stream().getReader();
  const decoder = new TextDecoder(encoding);
  let rest = '';
  let lineNumber = 0;
  let bytes = 0;
  let batch: ImportEntry[] = [];
  const take = (line: string) => {
    lineNumber += 1;
    const text = line.endsWith('\r') ? line.slice(0, -1) : line;
    const clean = lineNumber === 1 ? text.replace(/^\uFEFF/, '') : text;
    if (clean.trim() !== '') batch.push({ where: `line ${lineNumber}`, text: clean });
  };
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    const lines = (rest + decoder.decode(value, { stream: true })).split('\n');
    rest = lines.pop()!;
    for (const line of lines) {
      take(line);
      if (batch.length >= size) {
        yield { entries: batch, bytes };
        batch = [];
      }
    }
  }
  rest += decoder.decode();
  if (rest !== '') take(rest);
  if (batch.length > 0) yield { entries: batch, bytes };
}

/** The entries of a JSON array or CSV file (read whole: `splitAssayImport`), `size` at a time, or the problem with the file. */
async function wholeFileBatches(
  file: Blob,
  size: number,
  kind: 'array' | 'csv',
  encoding: ImportEncoding,
): Promise<{ batches: ImportBatch[] } | { fileProblem: string }> {
  if (file.size > MAX_JSON_ARRAY_BYTES)
    return {
      fileProblem: `This ${kind === 'array' ? 'JSON array' : 'CSV file'} is ${Math.round(file.size / 1024 / 1024)} MB; files over ${MAX_JSON_ARRAY_BYTES / 1024 / 1024} MB are read only as JSON Lines. Export the dataset as JSONL and import that.`,
    };
  const split = splitAssayImport(await wholeText(file, encoding));
  if ('fileProblem' in split) return split;
  const batches: ImportBatch[] = [];
  for (let start = 0; start < split.entries.length; start += size)
    batches.push({
      entries: split.entries.slice(start, start + size),
      bytes: Math.round((file.size * Math.min(start + size, split.entries.length)) / split.entries.length),
    });
  return { batches };
}

/**
 * `file`'s entries `size` at a time: JSON Lines streamed (`jsonLineBatches`), a JSON array (a
 * first character "[") or an Assay CSV export (its header) parsed whole up to
 * `MAX_JSON_ARRAY_BYTES`. Resolves to the problem with the whole file when an array or CSV file
 * is too large or not what it starts as; a JSON Lines file's problems are known only once it is
 * read (`problemAfterReading`). Rejects when the blob cannot be read.
 */
export async function importFileBatches(file: Blob, size: number): Promise<ImportBatches> {
  const encoding = await fileEncoding(file);
  const kind = await fileKind(file, encoding);
  if (kind === 'lines') return { jsonLines: true, batches: jsonLineBatches(file, size, encoding) };
  const whole = await wholeFileBatches(file, size, kind, encoding);
  return 'fileProblem' in whole ? whole : { jsonLines: false, batches: whole.batches };
}

/**
 * The problem with a whole JSON Lines file once read, or undefined: no non-blank line ("The file
 * is empty.") or no line that is JSON at all (`NOT_AN_EXPORT_PROBLEM`). A JSON array's problems
 * are found before (`importFileBatches`).
 */
export function problemAfterReading(read: { jsonLines: boolean; entries: number; jsonValues: number }): string | undefined {
  if (!read.jsonLines) return undefined;
  if (read.entries === 0) return EMPTY_FILE_PROBLEM;
  return read.jsonValues === 0 ? NOT_AN_EXPORT_PROBLEM : undefined;
}

/**
 * What `eachCheckedChunk` read: entries (non-blank lines, or array elements), how many were
 * refused, and the first `keptRejected` of those with the reason; how many were kept with a lower
 * status than they claimed (`lowered`: a verified row its own quote contradicts), and the first
 * `keptRejected` of those with the reason (`demoted`).
 */
export interface CheckedFile {
  entries: number;
  refused: number;
  rejected: RejectedLine[];
  lowered: number;
  demoted: RejectedLine[];
}

/**
 * Read `file` `chunkSize` entries at a time (`importFileBatches`), check each chunk at time `now`
 * (`checkImportEntries`: duplicate keys, schema, times, value against value text, status against
 * evidence, `withOwnKeys`), and hand
 * its good lines to `onChunk`, in file order, before the next chunk is read. Resolves to the
 * counts, or to the whole file's problem (`problemAfterReading`: then `onChunk` was called with
 * no line, since no line was JSON). Rejects when the blob cannot be read, or with what `onChunk` throws.
 */
export async function eachCheckedChunk(
  file: Blob,
  now: Date,
  onChunk: (lines: ImportLine[]) => void,
  options: { chunkSize: number; keptRejected: number },
): Promise<CheckedFile | { fileProblem: string }> {
  const read = await importFileBatches(file, options.chunkSize);
  if ('fileProblem' in read) return read;
  const result: CheckedFile = { entries: 0, refused: 0, rejected: [], lowered: 0, demoted: [] };
  let jsonValues = 0;
  for await (const { entries } of read.batches) {
    const checked = checkImportEntries(entries, now);
    result.entries += entries.length;
    result.refused += checked.rejected.length;
    result.lowered += checked.demoted.length;
    jsonValues += checked.jsonValues;
    for (const line of checked.rejected) if (result.rejected.length < options.keptRejected) result.rejected.push(line);
    for (const line of checked.demoted) if (result.demoted.length < options.keptRejected) result.demoted.push(line);
    if (checked.rows.length > 0) onChunk(checked.rows);
  }
  const fileProblem = problemAfterReading({ jsonLines: read.jsonLines, entries: result.entries, jsonValues });
  return fileProblem === undefined ? result : { fileProblem };
}
