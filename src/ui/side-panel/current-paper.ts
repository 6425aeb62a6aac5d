/**
 * Which saved paper the side panel's tab shows, so a reopened panel can show the paper and its
 * latest run without a new capture. Two URLs are the same page by `isSamePage`
 * (src/extension/page-address.ts).
 */
import { liveQuery } from 'dexie';
import type { PaperSummary } from '../../contracts/messages';
import type { AssayDatabase } from '../../store/assay-database';
import { getPaper, papersWithUrlPrefix } from '../../store/paper-repository';
import { toPaperSummary, type PaperRecord } from '../../store/paper-record';
import { pageAddress } from '../../extension/page-address';

/**
 * The saved paper for the page at `pageUrl`, or undefined: first the record keyed
 * `url:<pageUrl without fragment>` (a paper without DOI, found without a scan), else the most
 * recently captured record whose `url` field `isSamePage` (papers keyed by DOI keep the page
 * URL there), looked up by prefix on the `url` index (`papersWithUrlPrefix`), so no other paper
 * is read.
 */
export async function findPaperForPage(database: AssayDatabase, pageUrl: string): Promise<PaperRecord | undefined> {
  const byKey = await getPaper(database, `url:${pageUrl.replace(/#.*$/s, '')}`);
  if (byKey) return byKey;
  const wanted = pageAddress(pageUrl);
  // Every URL of the same page starts with its address up to the path (no trailing slash, query or fragment).
  const prefix = pageUrl.replace(/[?#].*$/s, '').replace(/\/+$/, '');
  const candidates = await papersWithUrlPrefix(database, prefix);
  return candidates.find((paper) => paper.url !== null && pageAddress(paper.url) === wanted);
}

/** The part of `browser.tabs` this module reads. */
export type GetTab = (tabId: number) => Promise<{ url?: string | undefined }>;

/**
 * A reader of the URL of the tab `resolveTab()` names (`resolveTargetTabId`), via `getTab`
 * (`browser.tabs.get`). The URL is visible only where the extension may read the page
 * (activeTab after the toolbar click, or a host permission); otherwise, and on any error (no
 * tab, tab closed), the reader resolves to undefined. Never rejects.
 */
export function tabUrlReader(resolveTab: () => Promise<number>, getTab: GetTab): () => Promise<string | undefined> {
  return async () => {
    try {
      const tab = await getTab(await resolveTab());
      return tab.url || undefined;
    } catch {
      return undefined;
    }
  };
}

/**
 * A paper found for the panel's page, with the warnings of its latest capture (as after a
 * capture): what saving it changed or declined to change, then the capture's own.
 */
export interface CurrentPaper {
  paper: PaperSummary;
  warnings: string[];
}

/**
 * The lookup the side panel runs when it opens and whenever its page changes: the URL of
 * `target` (a `PanelTarget` of panel-target.ts: the page the panel follows) where the watcher read it, else the one
 * `readPageUrl` reads (the tab's URL, `tabUrlReader`) when no target is given, then
 * `findPaperForPage`. Resolves to undefined when the URL is hidden or no paper matches; a
 * database error rejects (the panel then shows the normal "Capture this page" state).
 */
export function currentPaperFinder(
  database: AssayDatabase,
  readPageUrl: () => Promise<string | undefined>,
): (target?: { url?: string }) => Promise<CurrentPaper | undefined> {
  return async (target) => {
    const url = target ? target.url : await readPageUrl();
    if (url === undefined) return undefined;
    const record = await findPaperForPage(database, url);
    return record && { paper: toPaperSummary(record), warnings: [...(record.mergeWarnings ?? []), ...record.article.warnings] };
  };
}

/**
 * "Captured on 1 February 2025": the day of `capturedAt` (ISO 8601) in `locale`'s long date
 * style (the browser's locale by default) and `timeZone` (the browser's by default);
 * "Captured on an unknown date" when `capturedAt` does not parse.
 */
export function capturedOnText(capturedAt: string, locale?: string, timeZone?: string): string {
  const date = new Date(capturedAt);
  if (Number.isNaN(date.getTime())) return 'Captured on an unknown date';
  return `Captured on ${new Intl.DateTimeFormat(locale, { dateStyle: 'long', ...(timeZone && { timeZone }) }).format(date)}`;
}

/**
 * `WatchPapers` over `database`: calls `onChange` whenever the `papers` table changes, in this
 * page or in another context of the extension (Dexie's live queries hear the background's
 * writes through its cross-context change events), and once when it starts. → unsubscribe.
 */
export function papersChanged(database: AssayDatabase): (onChange: () => void) => () => void {
  return (onChange) => {
    // The newest capture time moves with every saved or re-captured paper; count alone would miss a re-capture.
    const subscription = liveQuery(() => database.papers.orderBy('capturedAt').lastKey()).subscribe({ next: () => onChange() });
    return () => subscription.unsubscribe();
  };
}
