/**
 * What the dataset page says and asks for, in pure functions: the filter as a repository query,
 * which pages of the virtualized table to load, counts, file names, the import summary, the
 * `#paper=<key>` route and the words for a triplet's cells. No React, no IndexedDB, so every
 * string and every piece of paging arithmetic is unit-tested.
 */
import { displayUnitOf, toDisplayValue, type DisplayUnitSchema } from '../../properties/display-unit';
import { describeValue } from '../../text/quantities/format-quantity';
import type { DatasetTriplet, ImportNote, ModelAnswer, ReviewDecision, SourcePaper } from '../../contracts/dataset';
import type { TripletSearchState } from '../../contracts/messages';
import type { RejectedLine } from '../../export/dataset-import';
import { EXPORT_FORMATS, exportFormat, type ExportFormat } from '../../export/export-formats';
import type { TripletQuery } from '../../store/dataset-repository';
import type { ConditionFilter } from '../shared/fact-conditions';
import type { ImportJob } from '../../export/import-job';
import type { ImportReport } from '../../export/import-triplets';

export type TripletStatus = DatasetTriplet['status'];

/**
 * The filter controls as typed; `''` means "any". Text fields are trimmed by `queryFromFilter`.
 * `method` and `provenance` are not repository queries (no index holds them): `conditionFilterOf`
 * gives them to the views, which test them in memory (src/ui/shared/fact-conditions.ts).
 */
export interface TripletFilter extends ConditionFilter {
  material: string;
  property: string;
  status: '' | TripletStatus;
  decision: '' | ReviewDecision;
  search: string;
}

export const EMPTY_FILTER: TripletFilter = { material: '', property: '', status: '', decision: '', search: '', method: '', provenance: '' };

/** The method and provenance part of `filter` (method trimmed), for the table, plot and export. */
export function conditionFilterOf(filter: TripletFilter): ConditionFilter {
  return { method: filter.method.trim(), provenance: filter.provenance };
}

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

/**
 * What the search field says of its index (empty once it answers): "Indexing quotes for search:
 * 40,000 of 100,000", "Updating the search index: 2,000 of 100,000", or why it stopped (all of
 * it, or only the text search of a dataset past the worker's budget); until it answers, a search
 * reads every row (slower, same rows).
 */
export function searchIndexText(state: TripletSearchState | undefined): string {
  const count = (value: number) => value.toLocaleString('en-US');
  switch (state?.status) {
    case undefined:
      return '';
    case 'ready': {
      const stopped =
        state.searchStopped === undefined
          ? ''
          : `Search is off for a dataset this large (${state.searchStopped}): a search looks through every row instead, slower, and finds text inside words too. Filters and sorts still answer at once.`;
      const pending = state.pending ? `Indexing ${count(state.pending)} new rows for ${stopped ? 'filters' : 'search'} and sorting…` : '';
      return [pending, stopped].filter(Boolean).join(' ');
    }
    case 'building':
      return state.total === 0
        ? 'Indexing quotes for search…'
        : `Indexing quotes for search: ${count(state.done)} of ${count(state.total)}`;
    case 'updating':
      return `Updating the search index: ${count(state.done)} of ${count(state.total)}`;
    case 'failed':
      return `The search index stopped (${state.message}); search reads every row instead.`;
  }
}

/** The undo offer's words: "Deleted 3 triplets." / "Deleted 1 triplet." */
export function deletedText(count: number): string {
  return `Deleted ${plural(count, 'triplet')}.`;
}

/** The import result: "Added 4, merged 1; 2 problems" ("1 problem" for one). */
export function importSummaryText(result: { added: number; merged: number }, problemCount: number): string {
  return `Added ${result.added}, merged ${result.merged}; ${plural(problemCount, 'problem')}`;
}

/** Runs of consecutive numbers listed one by one before the rest is counted ("… and 12 more"), so 100 000 scattered lines do not make a 100 000-item sentence. */
const MAX_LISTED_RUNS = 20;

/**
 * Places in an imported file in words, three or more consecutive ones as a run: ["line 1", "line 2",
 * "line 3", "line 7"] → "lines 1–3 and 7"; ["row 4"] → "row 4"; past 20 runs, "… and N more". Places are
 * `ImportLine.where` strings ("line N" or "row N", one kind per file, in file order).
 */
export function placesText(places: readonly string[]): string {
  if (places.length === 0) return '';
  const kind = places[0]!.split(' ')[0]!;
  const numbers = places.map((place) => Number(place.split(' ')[1]));
  const runs: string[] = [];
  let first = numbers[0]!;
  numbers.forEach((number, index) => {
    const next = numbers[index + 1];
    if (next === number + 1) return;
    if (number - first >= 2) runs.push(`${first}–${number}`);
    else runs.push(...(first === number ? [String(first)] : [String(first), String(number)]));
    if (next !== undefined) first = next;
  });
  const listed = runs.slice(0, MAX_LISTED_RUNS);
  const rest = runs.length - listed.length;
  const body =
    rest > 0
      ? `${listed.join(', ')} and ${rest} more`
      : listed.length === 1
        ? listed[0]!
        : `${listed.slice(0, -1).join(', ')} and ${listed.at(-1)}`;
  return `${places.length === 1 ? kind : `${kind}s`} ${body}`;
}

/**
 * The import report in sentences, for the dataset page: what was added, what merged (into a row
 * already saved, which an import leaves unchanged, or as a repeat of an earlier line), and, when a
 * write failed, what was saved before it and what was not. Empty parts are left out.
 * Example: ["Added 3: lines 1, 2 and 4.", "Merged 1 as a repeat of an earlier line: line 3 (same fact as line 1)."].
 */
export function importReportSentences(report: ImportReport): string[] {
  const sentences: string[] = [];
  if (report.added.length > 0) sentences.push(`Added ${report.added.length}: ${placesText(report.added)}.`);
  const intoSaved = report.merged.filter((merge) => merge.repeats === undefined).map((merge) => merge.where);
  const repeats = report.merged.filter((merge) => merge.repeats !== undefined);
  if (intoSaved.length > 0)
    sentences.push(`Merged ${intoSaved.length} into rows already saved, which are kept as they were: ${placesText(intoSaved)}.`);
  if (repeats.length > 0) {
    const listed = repeats.slice(0, MAX_LISTED_RUNS).map((merge) => `${merge.where} (same fact as ${merge.repeats})`);
    const rest = repeats.length - listed.length;
    sentences.push(`Merged ${repeats.length} as a repeat of an earlier line: ${listed.join(', ')}${rest > 0 ? ` and ${rest} more` : ''}.`);
  }
  if (report.failure) {
    const saved = report.added.length + report.merged.length;
    sentences.push(
      `The import stopped at ${report.failure.unsaved[0] ?? 'the end'} because saving failed: ${report.failure.message.replace(/\.$/, '')}.`,
      saved === 0
        ? 'Nothing was saved.'
        : `Saved before the failure: ${plural(saved, 'row')} (${report.added.length} added, ${report.merged.length} merged); they stay saved.`,
      `Not saved: ${placesText(report.failure.unsaved)}. Import the file again to add them; the saved ones merge instead of doubling.`,
    );
  }
  return sentences;
}

/** A count with thousands separators, in English ("100,000"), whatever the reader's locale: the page's sentences are English. */
function grouped(count: number): string {
  return count.toLocaleString('en-US');
}

/** Lines saved per second since the job started, or undefined before anything is saved or before a second has passed. */
export function importRate(job: Pick<ImportJob, 'startedAt' | 'updatedAt' | 'done'>): number | undefined {
  const seconds = (Date.parse(job.updatedAt) - Date.parse(job.startedAt)) / 1000;
  return job.done > 0 && seconds >= 1 ? Math.round(job.done / seconds) : undefined;
}

/**
 * A running (or waiting) import in words, for its status line: "Importing big.jsonl: 45,000
 * lines saved (38% of 96 MB), 9,800 per second." (the file is streamed, so its line count is
 * known only at its end) — "Waiting to import big.jsonl…" before the offscreen document takes it,
 * "Reading big.jsonl…" before the first chunk is saved.
 */
export function importProgressText(
  job: Pick<ImportJob, 'fileName' | 'status' | 'startedAt' | 'updatedAt' | 'done' | 'bytes' | 'bytesDone'>,
): string {
  if (job.status === 'waiting') return `Waiting to import ${job.fileName}…`;
  if (job.done === 0) return `Reading ${job.fileName}…`;
  const rate = importRate(job);
  const share = job.bytes > 0 ? Math.min(100, Math.floor((100 * (job.bytesDone ?? 0)) / job.bytes)) : 100;
  const megabytes = job.bytes / 1e6;
  const size = megabytes >= 10 ? `${Math.round(megabytes)} MB` : `${Number(megabytes.toPrecision(2))} MB`;
  return `Importing ${job.fileName}: ${grouped(job.done)} lines saved (${share}% of ${size})${rate === undefined ? '' : `, ${grouped(rate)} per second`}.`;
}

/** What a running import has saved so far: "Saved so far: 44,000 added, 1,000 merged, 0 refused." */
export function importSavedText(job: Pick<ImportJob, 'added' | 'merged' | 'refused'>): string {
  return `Saved so far: ${grouped(job.added)} added, ${grouped(job.merged)} merged, ${grouped(job.refused)} refused.`;
}

/** Refused lines in words, one per line: "line 4: status: Invalid option …"; past 50 (or past those given, when `total` counts more), "… and N more refused." */
export function rejectedLineTexts(rejected: readonly RejectedLine[], total: number = rejected.length): string[] {
  const listed = rejected.slice(0, 50).map(({ where, message }) => `${where}: ${message}`);
  return total > listed.length ? [...listed, `… and ${total - listed.length} more refused.`] : listed;
}

/**
 * The lines an import kept with a lower status than they claimed (a verified row whose own quote
 * does not print its value or names another material, kept as needs_review), with the reason:
 * "line 3: kept as needs_review: …"; at most 50, then "… and N more kept for review.".
 */
export function demotedLineTexts(demoted: readonly RejectedLine[], total: number = demoted.length): string[] {
  const listed = demoted.slice(0, 50).map(({ where, message }) => `${where}: ${message}`);
  return total > listed.length ? [...listed, `… and ${total - listed.length} more kept for review.`] : listed;
}

/** Where an imported row came from, for the date cell: "Imported from colleague.jsonl on 2026-11-22". */
export function importedText(note: ImportNote): string {
  return `Imported from ${note.file} on ${savedDay(note.at)}`;
}

/**
 * "assay-dataset-2026-11-22.csv": the download's name for the export format `format` (an id of
 * src/export/export-formats.ts; an unknown one throws), dated in the reader's local time.
 */
export function exportFileName(format: string, date: Date): string {
  const day = [date.getFullYear(), date.getMonth() + 1, date.getDate()].map((part) => String(part).padStart(2, '0')).join('-');
  return `assay-dataset-${day}${exportFormat(format).extension}`;
}

/** One export button of the dataset page: the format, its test id (`export-<id>`) and its words. */
export interface ExportChoice {
  format: ExportFormat;
  testId: string;
  /** The button's text: the format's label ("Web Annotations"). */
  text: string;
}

/** The dataset page's export buttons, one per format of the table (src/export/export-formats.ts), in its order. */
export function exportChoices(): ExportChoice[] {
  return EXPORT_FORMATS.map((format) => ({ format, testId: `export-${format.id}`, text: format.label }));
}

/**
 * The export buttons' subject: "Export 42 shown triplets" ("1 shown triplet", thousands grouped:
 * "100,000"), or "Export the shown triplets" before the table has counted them. The buttons add
 * " as CSV" and so on.
 */
export function exportSubjectText(shownCount: number | undefined): string {
  if (shownCount === undefined) return 'Export the shown triplets';
  return `Export ${grouped(shownCount)} shown ${shownCount === 1 ? 'triplet' : 'triplets'}`;
}

/** The media type of a download in the export format `format` (an id; an unknown one throws), for its Blob. */
export function exportMediaType(format: string): string {
  return exportFormat(format).mediaType;
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

/** The heading of the column of values in their property's display unit (a table mixes properties, so it names no unit). */
export const DISPLAY_VALUE_HEADING = 'Value (display unit)';

/**
 * The display-unit column: the row's value converted to its property's display unit at the
 * printed precision (`toDisplayValue`: "0.040 eV" for "40 meV", "298 K" for "25 °C"), "—" when
 * no schema describes the property or the unit does not convert. The SI base value is left to
 * the JSON/JSONL exports.
 */
export function displayText(row: Pick<DatasetTriplet, 'value' | 'valueText' | 'unit'>, schema: DisplayUnitSchema | undefined): string {
  const display = schema ? toDisplayValue(row, displayUnitOf(schema)) : null;
  return display?.text ?? '—';
}

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
