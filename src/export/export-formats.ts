/**
 * The export formats: one table that the dataset page's export buttons and `assay export --format`
 * both read, so a new format is one entry here (its writer in dataset-export.ts or beside it).
 * Names: each format has one `id` (the page's button is `export-<id>`, the CLI's `--format <id>`);
 * `aliases` are the names `assay export` also accepts (the CLI's names before the table: w3c,
 * csl-json).
 */
import type { DatasetTriplet } from '../contracts/dataset';
import { csvChunk, toBibtex, toCslJson, toCsv, toJson, toJsonl, toWebAnnotations } from './dataset-export';

/** One export format. */
export interface ExportFormat {
  /** The format's name: lower case, no spaces ("csv", "annotations"). */
  id: string;
  /** Other names `assay export --format` accepts for it, lower case. */
  aliases: readonly string[];
  /** What the dataset page's button says and the CLI's help lists ("Web Annotations"). */
  label: string;
  /** The end of the download's name after "assay-dataset-<date>" (".csv", "-annotations.jsonld"). */
  extension: string;
  /** The media type of the download's Blob (its charset, UTF-8, is added there). */
  mediaType: string;
  /** All of `rows`, in their order, as the file's text. */
  write: (rows: readonly DatasetTriplet[]) => string;
  /**
   * For a format written chunk by chunk (so a 100 000-row export is never one string): one chunk's
   * text, with the file's start on the first (`first`); the chunks joined are exactly `write` of all
   * rows, and `chunk([], true)` is the file of no rows. Absent: the format is written whole.
   */
  chunk?: (rows: readonly DatasetTriplet[], first: boolean) => string;
}

/**
 * The table, in the order the dataset page shows its buttons and `assay export --help` lists them.
 * Media types: RFC 4180 (text/csv), RFC 8259 (JSON), JSON Lines' application/jsonl, W3C Web
 * Annotations are JSON-LD (https://www.w3.org/TR/annotation-model/ §6), BibTeX's customary
 * application/x-bibtex, and the CSL-JSON type registered by the Citation Style Language project.
 */
export const EXPORT_FORMATS: readonly ExportFormat[] = [
  { id: 'csv', aliases: [], label: 'CSV', extension: '.csv', mediaType: 'text/csv', write: toCsv, chunk: csvChunk },
  { id: 'json', aliases: [], label: 'JSON', extension: '.json', mediaType: 'application/json', write: toJson },
  {
    id: 'jsonl',
    aliases: [],
    label: 'JSONL',
    extension: '.jsonl',
    mediaType: 'application/jsonl',
    write: toJsonl,
    chunk: (rows) => toJsonl(rows),
  },
  {
    id: 'annotations',
    aliases: ['w3c'],
    label: 'Web Annotations',
    extension: '-annotations.jsonld',
    mediaType: 'application/ld+json',
    write: (rows) => toWebAnnotations(rows),
  },
  { id: 'bibtex', aliases: [], label: 'BibTeX', extension: '.bib', mediaType: 'application/x-bibtex', write: toBibtex },
  {
    id: 'csl',
    aliases: ['csl-json'],
    label: 'CSL-JSON',
    extension: '-csl.json',
    mediaType: 'application/vnd.citationstyles.csl+json',
    write: toCslJson,
  },
];

/** The format whose id or one of whose aliases is `name` (trimmed, any case), or undefined. */
export function exportFormatNamed(name: string): ExportFormat | undefined {
  const wanted = name.trim().toLowerCase();
  return EXPORT_FORMATS.find((format) => format.id === wanted || format.aliases.includes(wanted));
}

/** `exportFormatNamed(name)`, for a name the caller knows; throws an Error naming it when no format has it. */
export function exportFormat(name: string): ExportFormat {
  const format = exportFormatNamed(name);
  if (!format) throw new Error(`no export format is called '${name}'`);
  return format;
}

/**
 * `rows` in `format` as text parts to write in order: a chunked format `partRows` rows a part
 * (joined, exactly `write` of all rows; no rows: the file of none, e.g. CSV's byte-order mark and
 * header), the others one part.
 */
export function* exportParts(format: ExportFormat, rows: readonly DatasetTriplet[], partRows = 5000): Generator<string> {
  const { chunk } = format;
  if (!chunk) {
    yield format.write(rows);
    return;
  }
  if (rows.length === 0) yield chunk([], true);
  for (let start = 0; start < rows.length; start += partRows) yield chunk(rows.slice(start, start + partRows), start === 0);
}
