/**
 * What the dataset page says and asks for, in pure functions: the filter as a repository query,
 * which pages of the virtualized table to load, counts, file names, the import summary, the
 * `#paper=<key>` route and the words for a triplet's cells. No React, no IndexedDB, so every
 * string and every piece of paging arithmetic is unit-tested.
 */
import { describeValue } from '../../text/quantities/format-quantity';
import type { DatasetTriplet, ModelAnswer, ReviewDecision, SourcePaper } from '../../contracts/dataset';
import type { TripletQuery } from '../../store/dataset-repository';

export type TripletStatus = DatasetTriplet['status'];

/** The filter controls as typed; `''` means "any". Text fields are trimmed by `queryFromFilter`. */
export interface TripletFilter {
  material: string;
  property: string;
  status: '' | TripletStatus;
  decision: '' | ReviewDecision;
  search: string;
}

export const EMPTY_FILTER: TripletFilter = { material: '', property: '', status: '', decision: '', search: '' };

/** Rows the table asks the repository for at a time (a few screens' worth of 40 px rows). */
export const TRIPLET_PAGE_SIZE = 200;

/**
 * The repository query for a filter: blank or "any" controls are left out (so `{}` matches every
 * triplet), text is trimmed. `material` is a prefix and `search` free text — the repository
 * decides how they match.
 */
export function queryFromFilter(filter: TripletFilter): TripletQuery {
  const query: TripletQuery = {};
  const material = filter.material.trim();
  const search = filter.search.trim();
  if (material !== '') query.material = material;
  if (filter.property !== '') query.property = filter.property;
  if (filter.status !== '') query.status = filter.status;
  if (filter.decision !== '') query.decision = filter.decision;
  if (search !== '') query.search = search;
  return query;
}

/**
 * The page numbers (0-based, `pageSize` rows each) holding rows `first`…`last` (inclusive row
 * indexes, as the virtualizer reports what is on screen plus overscan). Empty when nothing is
 * visible (`last < first`, or a negative `last` for an empty table).
 * Example: rows 190–410 with 200-row pages → [0, 1, 2].
 */
export function pagesForRange(first: number, last: number, pageSize: number = TRIPLET_PAGE_SIZE): number[] {
  if (last < first || last < 0) return [];
  const from = Math.floor(Math.max(0, first) / pageSize);
  const to = Math.floor(last / pageSize);
  return Array.from({ length: to - from + 1 }, (_, offset) => from + offset);
}

/** The `{ offset, limit }` of page `page` for `queryTriplets`. */
export function pageWindow(page: number, pageSize: number = TRIPLET_PAGE_SIZE): { offset: number; limit: number } {
  return { offset: page * pageSize, limit: pageSize };
}

/** The row at overall index `index` from loaded pages (page number → its rows), or undefined if not loaded yet. */
export function rowAt<Row>(
  pages: ReadonlyMap<number, readonly Row[]>,
  index: number,
  pageSize: number = TRIPLET_PAGE_SIZE,
): Row | undefined {
  return pages.get(Math.floor(index / pageSize))?.[index % pageSize];
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** "12 of 340 triplets": how many match the filter of how many are saved ("1 of 1 triplet"). */
export function countText(matching: number, saved: number): string {
  return `${matching} of ${plural(saved, 'triplet')}`;
}

/** The undo offer's words: "Deleted 3 triplets." / "Deleted 1 triplet." */
export function deletedText(count: number): string {
  return `Deleted ${plural(count, 'triplet')}.`;
}

/** The import result: "Added 4, merged 1; 2 problems" ("1 problem" for one). */
export function importSummaryText(result: { added: number; merged: number }, problemCount: number): string {
  return `Added ${result.added}, merged ${result.merged}; ${plural(problemCount, 'problem')}`;
}

export type ExportFormat = 'csv' | 'json' | 'jsonl' | 'annotations' | 'bibtex' | 'csl';

const exportFiles: Record<ExportFormat, { suffix: string; type: string }> = {
  csv: { suffix: '.csv', type: 'text/csv' },
  json: { suffix: '.json', type: 'application/json' },
  jsonl: { suffix: '.jsonl', type: 'application/jsonl' },
  // W3C Web Annotations are JSON-LD (https://www.w3.org/TR/annotation-model/, media type in §6).
  annotations: { suffix: '-annotations.jsonld', type: 'application/ld+json' },
  bibtex: { suffix: '.bib', type: 'application/x-bibtex' },
  // The CSL-JSON media type registered by the Citation Style Language project.
  csl: { suffix: '-csl.json', type: 'application/vnd.citationstyles.csl+json' },
};

/** "assay-dataset-2026-11-22.csv": the download's name, dated in the reader's local time. */
export function exportFileName(format: ExportFormat, date: Date): string {
  const day = [date.getFullYear(), date.getMonth() + 1, date.getDate()].map((part) => String(part).padStart(2, '0')).join('-');
  return `assay-dataset-${day}${exportFiles[format].suffix}`;
}

/** The media type of a download, for its Blob. */
export function exportMediaType(format: ExportFormat): string {
  return exportFiles[format].type;
}

/** The paper key in a `#paper=<key>` location hash (percent-decoded), or null for any other hash. */
export function paperKeyFromHash(hash: string): string | null {
  const match = /^#?paper=(.+)$/.exec(hash);
  if (!match) return null;
  try {
    return decodeURIComponent(match[1]!);
  } catch {
    return null;
  }
}

/** `#paper=<key>` with the key percent-encoded (keys hold `:` and `/`). */
export function hashForPaper(key: string): string {
  return `#paper=${encodeURIComponent(key)}`;
}

/** A number in four significant figures, in JavaScript's shortest form: 1.602176634e-22 → "1.602e-22", 0.5 → "0.5". */
export function shortNumber(value: number): string {
  return String(Number(value.toPrecision(4)));
}

/** The SI column: "1.802e-19 kg m^2 s^-2" (ranges "a–b unit"), "—" when the unit does not convert. */
export function siText(si: DatasetTriplet['si']): string {
  if (!si) return '—';
  const number = si.value.kind === 'range' ? `${shortNumber(si.value.low)}–${shortNumber(si.value.high)}` : shortNumber(si.value.value);
  return si.unit === '' ? number : `${number} ${si.unit}`;
}

/** The value column without its unit (the unit has its own column): the value as printed (`printedValue`). */
export { printedValue as valueText } from '../../text/quantities/format-quantity';

const statusWords: Record<TripletStatus, string> = { verified: 'verified', needs_review: 'needs review', rejected: 'rejected' };

/** The machine verdict as a word: "verified", "needs review", "rejected". */
export function statusText(status: TripletStatus): string {
  return statusWords[status];
}

/** What the model said before the reader's edit: "GaN, 3.4 eV". */
export function originalText(original: ModelAnswer): string {
  return `${original.material}, ${describeValue(original)}`;
}

/** The hover text of the decision cell: the model's answer for an edit, else nothing. */
export function decisionTitle(review: DatasetTriplet['review']): string | undefined {
  return review.decision === 'edited' && review.original ? `Model said: ${originalText(review.original)}` : undefined;
}

/** The date column: the ISO day of `savedAt` ("2026-11-22"), or the text itself if it is not a date. */
export function savedDay(savedAt: string): string {
  const match = /^\d{4}-\d{2}-\d{2}/.exec(savedAt);
  return match ? match[0] : savedAt;
}

/**
 * A one-line reference: "Nakamura S, Mukai T. Blue InGaN LEDs. Jpn. J. Appl. Phys. (1994)." —
 * authors as stored (first three, then "et al."), missing parts left out.
 */
export function citationText(paper: SourcePaper): string {
  const authors = paper.authors.length > 3 ? `${paper.authors.slice(0, 3).join(', ')}, et al.` : paper.authors.join(', ');
  const parts = [authors === '' ? '' : authors.endsWith('.') ? authors : `${authors}.`, `${paper.title}.`];
  const venue = [paper.journal ?? '', paper.year === null ? '' : `(${paper.year})`].filter((part) => part !== '').join(' ');
  if (venue !== '') parts.push(`${venue}.`);
  return parts.filter((part) => part !== '').join(' ');
}
