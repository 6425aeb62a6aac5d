/**
 * What the side panel asks the page to highlight for a run (the `highlight-show` message's
 * items), and what it says about highlights that failed. Pure: built from the run's row and the
 * reader's reviews, so every rule is unit-tested.
 */
import { formatConditions, formatProvenance } from '../../contracts/conditions';
import { displayTextBeside, type DisplayUnitSchema } from '../../properties/display-unit';
import { runDisplayUnits } from './run-display-units';
import { printedValue } from '../../text/quantities/format-quantity';
import { decisionOf, keptAnswer } from '../../store/dataset-rows';
import type { ResponseOf } from '../../contracts/messages';
import type { HighlightItem, HighlightReport } from '../../contracts/messages';
import type { MatrixRunRow } from '../../contracts/matrix-run';
import { answerText } from './review-model';
import { absorbedRecords, factEntries } from '../../matrix/fact-entries';
import { spellPropertyName, type PropertyLabel } from '../shared/run-view-model';

const pathNames: Record<string, string> = { moa: 'MoA', gd: 'the generator–discriminator search', proposers: 'the proposers' };

/**
 * Who agreed on a triplet, in words, for the hover card: ["moa", "gd"] → "MoA and the
 * generator–discriminator search agreed"; ["moa"] → "Only MoA gave it"; [] → "No path agreed".
 * Names other than moa, gd and proposers (replayed tools) are written as they are.
 */
export function agreedText(votes: readonly string[]): string {
  const names = votes.map((vote) => pathNames[vote] ?? vote);
  if (names.length === 0) return 'No path agreed';
  if (names.length === 1) return `Only ${names[0]} gave it`;
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)} agreed`;
}

/** A record that got no highlight item, or whose item the page could not anchor: its id and why. */
export interface HighlightFailure {
  id: string;
  reason: string;
}

/**
 * One `HighlightItem` per fact of `row` (`factEntries`: the record that stands for it; id = that
 * record's index in `row.records`), and the records left out for want of an evidence quote
 * (reason "The model gave no evidence quote."). A fact two verdicts stated is marked once.
 * - `status`: the record's verdict, except `rejected` when the reader rejected it;
 * - `quote`/`position`: the evidence of the triplet shown (a kept search answer's own evidence);
 * - `mark`: the value as printed (`printedValue`), the part of the quote to mark;
 * - `card`: material, property label, value as printed and unit — the reader's edit where there
 *   is one — conditions in words, method first (`formatConditions`), provenance ("computed",
 *   "cited [19]"; none for `unknown`), `agreed` = `agreedText(votes)`, and `display`, the value in the
 *   property's display unit (`displayTextBeside` with `displayUnits`, default those of the run's
 *   catalogue, `runDisplayUnits(row.settings)`: the built-in schemas and the reader's own the run
 *   used) when it differs from the printed unit and there is no edit.
 */
export function highlightItems(
  row: Pick<MatrixRunRow, 'records' | 'reviews'> & Partial<Pick<MatrixRunRow, 'settings'>>,
  label: PropertyLabel = spellPropertyName,
  displayUnits: ReadonlyMap<string, DisplayUnitSchema> = runDisplayUnits(row.settings),
): { items: HighlightItem[]; skipped: HighlightFailure[] } {
  const items: HighlightItem[] = [];
  const skipped: HighlightFailure[] = [];
  const absorbed = absorbedRecords(factEntries(row.records));
  row.records.forEach((record, index) => {
    if (absorbed.has(index)) return;
    const id = String(index);
    const review = row.reviews?.[index];
    const path = keptAnswer(record, review);
    const triplet = (path && record.adjudication?.[path]) || record.triplet;
    const evidence = triplet.evidence;
    if (!evidence) {
      skipped.push({ id, reason: 'The model gave no evidence quote.' });
      return;
    }
    const edit = path ? undefined : review?.edit;
    const item: HighlightItem = {
      id,
      status: decisionOf(row, index) === 'rejected' ? 'rejected' : record.status,
      quote: evidence.quote,
      mark: printedValue(triplet),
      card: {
        material: edit?.material ?? triplet.material,
        property: label(triplet.property),
        value: edit?.valueText ?? printedValue(triplet),
        unit: edit?.unit ?? triplet.unit,
        agreed: agreedText(record.votes),
      },
    };
    if (evidence.position) item.position = evidence.position;
    const conditions = formatConditions(triplet.conditions);
    if (conditions) item.card.conditions = conditions;
    const provenance = formatProvenance(triplet.provenance);
    if (provenance) item.card.provenance = provenance;
    // The model's value in the property's display unit; not for the reader's edit, which is text they typed.
    const display = edit ? undefined : displayTextBeside(triplet, displayUnits.get(triplet.property));
    if (display) item.card.display = display;
    items.push(item);
  });
  return { items, skipped };
}

/** A failure as the panel lists it under "Not marked in the page": what the record said, and why. */
export interface FailureLine {
  id: string;
  /** "GaN: 3.4 eV", or "Record 4" when the id names no record. */
  what: string;
  reason: string;
}

/** The lines for `failures` (skipped items and the page's failed anchors), in the order given. */
export function failureLines(row: Pick<MatrixRunRow, 'records'>, failures: readonly HighlightFailure[]): FailureLine[] {
  return failures.map(({ id, reason }) => {
    const record = /^\d+$/.test(id) ? row.records[Number(id)] : undefined;
    return { id, what: record ? answerText(record.triplet) : `Record ${id}`, reason };
  });
}

/**
 * The outcome of a `highlight-show`: the page's failed anchors, or (the message failed, e.g. in
 * Chrome's PDF viewer where no script runs) a short note "Highlights are not shown in this page:
 * <message>". Never an error that blocks the review.
 */
export function showOutcome(response: ResponseOf<'highlight-show'>): { failed: HighlightReport['failed']; note: string | null } {
  if (response.ok) return { failed: response.report.failed, note: null };
  return { failed: [], note: `Highlights are not shown in this page: ${response.failure.message}` };
}

/** The note after a `highlight-scroll`: null when the page scrolled to it, else why not, in words. */
export function scrollNote(response: ResponseOf<'highlight-scroll'>): string | null {
  if (!response.ok) return `Could not scroll the page: ${response.failure.message}`;
  return response.found ? null : 'This value is not highlighted in the page.';
}
