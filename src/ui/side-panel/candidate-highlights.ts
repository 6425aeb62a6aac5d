/**
 * Quick-scan candidates as page highlights: what the side panel sends right after a capture,
 * before (or instead of) an SLM-MATRIX run, and what it says about them. Pure: the article and
 * its catalogue, or the scan's candidates and the run's row, in; items and words out, so every
 * rule is unit-tested.
 */
import { builtInDisplayUnits, displayTextBeside, displayUnitsOf, type DisplayUnitSchema } from '../../properties/display-unit';
import type { Article } from '../../contracts/article';
import { formatConditions, formatProvenance } from '../../contracts/conditions';
import type { HighlightItem, ResponseOf } from '../../contracts/messages';
import type { MatrixRunRow } from '../../contracts/matrix-run';
import type { PropertyDefinition } from '../../contracts/property';
import { describeQuote } from '../../text/anchoring';
import { buildArticleIndex } from '../../text/article-index';
import { scanArticle } from '../../text/scan';
import type { Candidate } from '../../text/scan-types';
import { spellPropertyName, type PropertyLabel } from '../shared/run-view-model';
import { pageAt } from './fact-list-model';
import { countByProperty } from './run-defaults';

/**
 * At most this many candidates are highlighted (the first in reading order). A review paper's
 * tables can yield thousands of values; past a few hundred marks the page is unreadable and
 * anchoring each quote costs the page time (the message itself allows 5 000 items).
 */
export const MAX_CANDIDATE_HIGHLIGHTS = 500;

/** At most this many doubts on a card (the message allows 8, each ≤ 500 characters). */
export const MAX_CARD_DOUBTS = 8;

/** What every candidate's hover card says instead of who agreed. */
export const CANDIDATE_NOTE = 'Quick scan: not yet checked by the models';

/** The card's material when the scan linked none to the value. */
export const UNKNOWN_MATERIAL = 'Material not found';

/** The id of the `index`-th candidate's item: "candidate-3" (never a record index, so run ids and these cannot collide). */
export function candidateItemId(index: number): string {
  return `candidate-${index}`;
}

/**
 * One `HighlightItem` per candidate of `article` (`scanArticle(article).candidates`), the first
 * `limit` (default `MAX_CANDIDATE_HIGHLIGHTS`) in the order given:
 * - `id`: `candidateItemId(index)`; `status`: 'candidate';
 * - `quote` and `position`: the candidate's segment (its sentence, or its table row with the
 *   header row) described in `article.text` by `describeQuote` (32 characters of context);
 * - `mark`: the quantity as printed (`quantity.text`, e.g. "about 1.13 eV");
 * - `card`: the material as written (`UNKNOWN_MATERIAL` when none), the property's label, the
 *   value as printed and the unit as printed (the canonical symbol when none was printed), and
 *   `agreed` = `CANDIDATE_NOTE`, and `display`, the quantity in the property's display unit
 *   (`displayTextBeside` with `displayUnits`, default the built-in schemas) when it was printed
 *   in another unit; `conditions` and `provenance` in the words the verdicts use
 *   (`formatConditions`, `formatProvenance`: "HSE06 · indirect", "cited [19]") when the scan read
 *   any, and `doubts` (the candidate's, at most `MAX_CARD_DOUBTS`) when it has any.
 * A candidate whose segment is empty or outside `article.text` is left out (it cannot be quoted).
 * → `{ items, total }`, `total` = `candidates.length`, so the panel can say how many were left out.
 */
export function candidateHighlightItems(
  article: Pick<Article, 'text'>,
  candidates: readonly Candidate[],
  label: PropertyLabel = spellPropertyName,
  limit: number = MAX_CANDIDATE_HIGHLIGHTS,
  displayUnits: ReadonlyMap<string, DisplayUnitSchema> = builtInDisplayUnits(),
): { items: HighlightItem[]; total: number } {
  const items: HighlightItem[] = [];
  for (const [index, candidate] of candidates.entries()) {
    if (items.length >= limit) break;
    const { segment, quantity } = candidate;
    if (segment.start < 0 || segment.end > article.text.length || segment.start >= segment.end) continue;
    const evidence = describeQuote(article.text, segment.start, segment.end);
    const item: HighlightItem = {
      id: candidateItemId(index),
      status: 'candidate',
      quote: evidence.quote,
      mark: quantity.text,
      card: {
        material: candidate.material?.text ?? UNKNOWN_MATERIAL,
        property: label(candidate.property),
        value: quantity.valueText,
        unit: quantity.unitText.trim() || quantity.unit,
        agreed: CANDIDATE_NOTE,
      },
    };
    if (evidence.position) item.position = evidence.position;
    const conditions = formatConditions(candidate.conditions);
    if (conditions) item.card.conditions = conditions;
    const provenance = formatProvenance(candidate.provenance);
    if (provenance) item.card.provenance = provenance.slice(0, 200);
    const doubts = candidate.doubts.slice(0, MAX_CARD_DOUBTS).map((doubt) => doubt.slice(0, 500));
    if (doubts.length > 0) item.card.doubts = doubts;
    const display = displayTextBeside(quantity, displayUnits.get(candidate.property));
    if (display) item.card.display = display;
    items.push(item);
  }
  return { items, total: candidates.length };
}

/**
 * The quick scan of `article` for `catalogue` (the built-in schemas and the reader's own) as
 * highlight items (`candidateHighlightItems`): every property of the catalogue is looked for, each
 * card names its schema's `label` and shows the value in its schema's display unit, a reader's
 * own property like a built-in one. → `{ items, total, pages, counts }`, `pages`: each item's
 * 1-based page by id (`pageAt` of its segment's start), for a PDF; empty for a web page;
 * `counts` = every candidate (not only the highlighted ones) counted by property schema name
 * (`countByProperty`), for the run's default properties.
 */
export function scanHighlightItems(
  article: Article,
  catalogue: readonly PropertyDefinition[],
): { items: HighlightItem[]; total: number; pages: Record<string, number>; counts: Map<string, number> } {
  const labels = new Map(catalogue.map((schema) => [schema.name, schema.label]));
  const { candidates } = scanArticle(buildArticleIndex(article, catalogue));
  const label = (name: string) => labels.get(name) ?? spellPropertyName(name);
  const scanned = candidateHighlightItems(article, candidates, label, MAX_CANDIDATE_HIGHLIGHTS, displayUnitsOf(catalogue));
  const pages: Record<string, number> = {};
  for (const [index, candidate] of candidates.entries()) {
    const page = pageAt(article, candidate.segment.start);
    if (page !== undefined) pages[candidateItemId(index)] = page;
  }
  return { ...scanned, pages, counts: countByProperty(candidates) };
}

/**
 * Whether the page should show the quick-scan candidates rather than the run's items, given the
 * paper's latest run (`undefined` while it loads, `null` when the paper has none) and whether a
 * run of this paper has shown records since the panel opened (`recordsSeen`):
 * - while loading: no (a reopened panel must not flash candidates over a run's results);
 * - no run: yes;
 * - a run without a record, going or ended (failed, stopped, interrupted, or done with nothing
 *   found): yes, unless records were seen before (a new run after one with results clears the
 *   page instead of bringing the candidates back) — a run that could not start (no WebGPU, a
 *   download that failed) must not take the quick scan's highlights with it;
 * - a run with records: no — its verdicts replace the candidates.
 */
export function showsCandidates(run: MatrixRunRow | null | undefined, recordsSeen: boolean): boolean {
  if (run === undefined) return false;
  if (run === null) return !recordsSeen;
  return run.records.length === 0 && !recordsSeen;
}

/** The quick scan as the panel shows it, next to the paper summary (`candidate-status`). */
export type CandidateState =
  | { phase: 'scanning' }
  | { phase: 'failed'; message: string }
  | {
      phase: 'ready';
      items: HighlightItem[];
      total: number;
      /** Each item's 1-based PDF page by id (`scanHighlightItems`); empty or absent for a web page. */
      pages?: Record<string, number>;
      /** Every candidate counted by property schema name (`scanHighlightItems`); absent where a caller did not count. */
      counts?: ReadonlyMap<string, number>;
      response?: ResponseOf<'highlight-show'>;
    };

/**
 * The `candidate-status` line:
 * - scanning: "Looking for values in the paper…";
 * - failed: "The quick scan failed: <message>";
 * - ready, no item: "The quick scan found no values to highlight.";
 * - ready, not yet answered: "Highlighting N candidates…";
 * - page answered: "N candidates highlighted" (N = anchored), then " · M not found in the page"
 *   when some failed to anchor, then " · the first 500 of T" when capped ("1 candidate" singular);
 * - page unreachable: "Candidates are not highlighted in this page: <message>".
 */
export function candidateStatusText(state: CandidateState): string {
  switch (state.phase) {
    case 'scanning':
      return 'Looking for values in the paper…';
    case 'failed':
      return `The quick scan failed: ${state.message}`;
    case 'ready': {
      if (state.items.length === 0) return 'The quick scan found no values to highlight.';
      const capped = state.total > state.items.length ? ` · the first ${state.items.length} of ${state.total}` : '';
      const { response } = state;
      if (!response) return `Highlighting ${count(state.items.length)}…${capped}`;
      if (!response.ok) return `Candidates are not highlighted in this page: ${response.failure.message}`;
      const missed = response.report.failed.length > 0 ? ` · ${response.report.failed.length} not found in the page` : '';
      return `${count(response.report.anchored.length)} highlighted${missed}${capped}`;
    }
  }
}

/** The `data-status` of `candidate-status`: scanning, failed, none, sending, shown, or unreachable. */
export function candidateStatusCode(state: CandidateState): string {
  if (state.phase !== 'ready') return state.phase;
  if (state.items.length === 0) return 'none';
  if (!state.response) return 'sending';
  return state.response.ok ? 'shown' : 'unreachable';
}

function count(n: number): string {
  return `${n} candidate${n === 1 ? '' : 's'}`;
}
