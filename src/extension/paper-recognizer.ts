/**
 * "Knows a paper when it sees one" (issue 17): on the publisher sites the reader opted in to
 * (Settings, paper-sites-section.tsx), each page that finishes loading is read like a capture;
 * when it is a paper (`isRecognizedPaper`) it is saved — so the side panel opens on it already
 * captured (current-paper.ts finds it by the tab's URL) — its quick-scan candidates are counted
 * in the offscreen document, and the tab's toolbar badge shows the count, the way a reference
 * manager's connector announces an item.
 *
 * Two keys, both needed: the site is in the reader's list (`paperSitesSetting`) AND the browser
 * holds its host permission (`permissions.contains`). A host permission alone (one granted for a
 * model server, say) is not an opt-in, and a listed site whose permission was withdrawn in the
 * browser's own settings is not read. On any other page nothing is done: not a storage read
 * beyond the list, not an injection; without a host permission the tab's URL is not even
 * visible to the extension, and the recognizer stops there.
 *
 * PDFs are not downloaded on their own (`readTabArticle(…, { pdf: false })`): a PDF is read when
 * the reader captures it. A paper already saved is not saved again (the reader's capture
 * decides when a saved paper is replaced): its candidates are counted as saved.
 */
import type { Article } from '../contracts/article';
import type { CandidateCountResponse } from '../contracts/messages';
import { isRecognizedPaper, NO_BADGE, paperBadge, type ActionBadge } from './paper-badge';
import { isOnPaperSite, siteOfUrl, sitePermissionPattern } from './paper-sites';
import type { TabArticle } from './capture-tab';

/** What the recognizer needs; `browserPaperRecognizerDependencies` (paper-recognizer-browser.ts) gives the extension's. */
export interface PaperRecognizerDependencies {
  /** The reader's sites (`paperSitesSetting`); a failed read counts as none. */
  readSites(): Promise<string[]>;
  /** `permissions.contains({ origins: [pattern] })` for `pattern` = `sitePermissionPattern(site)`. */
  hasHostPermission(pattern: string): Promise<boolean>;
  /** The tab's page as an article, without saving (`readTabArticle(tabId, …, { pdf: false })`). */
  readArticle(tabId: number): Promise<TabArticle>;
  /** Save `article` unless its paper is saved already; → the saved paper's key (`PaperSummary.key`). */
  savePaper(article: Article): Promise<string>;
  /** The quick-scan candidate count of the saved paper (`candidate-count` in the offscreen document). */
  countCandidates(paperKey: string): Promise<CandidateCountResponse>;
  /** Show `badge` on tab `tabId`'s toolbar button (`action.setBadgeText`, `setTitle`, colours). */
  showBadge(tabId: number, badge: ActionBadge): Promise<void>;
  /** The open tabs (`tabs.query({})`): a URL is there only where the extension holds the host permission. */
  listTabs(): Promise<Array<{ id?: number; url?: string; status?: string }>>;
}

/** The slice of `tabs.onUpdated`'s arguments the recognizer reads. */
export interface TabChange {
  status?: string;
}

/** How one look at a page ended, for tests and logs. */
export type Recognition =
  | 'not-complete' // a change other than "loading finished"
  | 'not-opted-in' // no URL, not a listed site, or its permission is not held: nothing was done
  | 'not-a-paper' // read, and not a paper (or not readable): no badge
  | 'stale' // the tab moved on before the answer: nothing shown
  | 'paper'; // badge shown

/**
 * Make the recognizer. `tabUpdated(tabId, change, tab)` is `tabs.onUpdated`'s listener body:
 * - `status: 'loading'`: the tab navigates; any earlier look at it is abandoned, and a badge
 *   this recognizer showed on it is cleared (`NO_BADGE`);
 * - `status: 'complete'`: the page is looked at as the file comment says;
 * and resolves to how it ended (`Recognition`). `optInChanged()` clears the badges the opt-in no
 * longer covers and looks at loaded pages it now covers; `tabRemoved(tabId)` forgets the tab. Never rejects: a failure while reading, saving or showing ends the look without a badge, reported
 * with `warn` when it is not the page's own (a capture failure such as `not-article` is silent).
 */
export function createPaperRecognizer(
  dependencies: PaperRecognizerDependencies,
  warn: (message: string) => void = (message) => console.warn(message),
) {
  /** Per tab, a number raised at each navigation and each look, so an older look's answer is dropped. */
  const looks = new Map<number, number>();
  /** Tabs this recognizer showed a badge on, with the URL of the page it recognized there. */
  const badged = new Map<number, string>();
  /** Tabs whose page was read (a paper or not), with its URL, until the tab navigates: `optInChanged` does not read them again. */
  const read = new Map<number, string>();

  const newLook = (tabId: number) => {
    const look = (looks.get(tabId) ?? 0) + 1;
    looks.set(tabId, look);
    return () => looks.get(tabId) === look;
  };

  async function clear(tabId: number): Promise<void> {
    if (!badged.delete(tabId)) return;
    await dependencies.showBadge(tabId, NO_BADGE);
  }

  async function look(tabId: number, url: string | undefined, current: () => boolean): Promise<Recognition> {
    const site = siteOfUrl(url);
    if (site === null || url === undefined) return 'not-opted-in';
    const sites = await dependencies.readSites().catch(() => []);
    if (!isOnPaperSite(url, sites)) return 'not-opted-in';
    if (!(await dependencies.hasHostPermission(sitePermissionPattern(site)).catch(() => false))) return 'not-opted-in';

    const page = await dependencies.readArticle(tabId);
    if (!current()) return 'stale';
    read.set(tabId, url);
    if (!page.ok || !isRecognizedPaper(page.article)) {
      await clear(tabId);
      return 'not-a-paper';
    }
    const paperKey = await dependencies.savePaper(page.article);
    const count = await dependencies.countCandidates(paperKey);
    if (!current()) return 'stale';
    const badge = count.ok ? paperBadge(count.candidates) : paperBadge(null, count.failure.message);
    badged.set(tabId, url);
    await dependencies.showBadge(tabId, badge);
    return 'paper';
  }

  async function tabUpdated(tabId: number, change: TabChange, tab: { url?: string }): Promise<Recognition> {
    try {
      if (change.status === 'loading') {
        newLook(tabId);
        read.delete(tabId);
        await clear(tabId);
        return 'not-complete';
      }
      if (change.status !== 'complete') return 'not-complete';
      return await look(tabId, tab.url, newLook(tabId));
    } catch (error) {
      warn(`Assay: the page in tab ${tabId} could not be recognized: ${error instanceof Error ? error.message : String(error)}`);
      return 'not-a-paper';
    }
  }

  /**
   * The reader's sites or the browser's permissions changed:
   * - clear the badge of every tab whose recognized page is no longer on a listed AND granted
   *   site (a site removed in Settings, or its permission withdrawn in the browser's settings);
   * - look at every loaded tab that now is on a listed and granted site and was not read yet
   *   (the page the reader was on when adding its site in Settings), as `tabUpdated` would.
   * → each look's tab, URL and `Recognition`. Never rejects.
   */
  async function optInChanged(): Promise<Array<{ tabId: number; url: string; recognition: Recognition }>> {
    const done: Array<{ tabId: number; url: string; recognition: Recognition }> = [];
    try {
      const sites = await dependencies.readSites().catch(() => []);
      for (const [tabId, url] of [...badged]) {
        const site = siteOfUrl(url);
        const kept =
          site !== null &&
          isOnPaperSite(url, sites) &&
          (await dependencies.hasHostPermission(sitePermissionPattern(site)).catch(() => false));
        if (kept) continue;
        newLook(tabId); // a look still running there must not bring the badge back
        read.delete(tabId);
        await clear(tabId);
      }
      for (const tab of await dependencies.listTabs()) {
        const { id: tabId, url } = tab;
        if (tabId === undefined || url === undefined || tab.status !== 'complete' || read.get(tabId) === url) continue;
        if (!isOnPaperSite(url, sites)) continue;
        done.push({ tabId, url, recognition: await look(tabId, url, newLook(tabId)) });
      }
    } catch (error) {
      warn(`Assay: the toolbar badges could not be updated: ${error instanceof Error ? error.message : String(error)}`);
    }
    return done;
  }

  function tabRemoved(tabId: number): void {
    looks.delete(tabId);
    read.delete(tabId);
    badged.delete(tabId);
  }

  return { tabUpdated, optInChanged, tabRemoved };
}
