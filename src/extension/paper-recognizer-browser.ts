/**
 * The publisher-site recognizer (paper-recognizer.ts) over the extension's own APIs: the stored
 * list of sites, `permissions.contains`, the capture script, the database, the offscreen
 * document's candidate count and the toolbar button. Only the background uses it.
 */
import { browser } from 'wxt/browser';
import type { CandidateCountRequest, CandidateCountResponse } from '../contracts/messages';
import type { AssayDatabase } from '../store/assay-database';
import { paperKey } from '../store/paper-record';
import { getPaper, saveCapture } from '../store/paper-repository';
import { browserCaptureDependencies, readTabArticle } from './capture-tab';
import { PAPER_BADGE_COLOR, PAPER_BADGE_TEXT_COLOR } from './paper-badge';
import { createPaperRecognizer, type PaperRecognizerDependencies, type Recognition } from './paper-recognizer';
import { paperSitesSetting, readStoredSetting, userPropertiesSetting } from './stored-settings';

/** The offscreen forwarder's part the recognizer uses (offscreen-engine.ts `createOffscreenForwarder`). */
export interface CandidateCounter {
  countCandidates(request: CandidateCountRequest): Promise<CandidateCountResponse>;
}

/**
 * The extension's `PaperRecognizerDependencies`: sites from storage.local, the host permission
 * from `browser.permissions`, the page read by the capture script (PDF tabs declined, so
 * `readPdf` is never called), a paper saved to `database` unless its key is there already, the
 * count from `offscreen` with the reader's own properties, and the badge on the tab's button.
 */
export function browserPaperRecognizerDependencies(database: AssayDatabase, offscreen: CandidateCounter): PaperRecognizerDependencies {
  const capture = browserCaptureDependencies(() =>
    Promise.resolve({ ok: false, failure: { code: 'no-tab', message: 'PDFs are read only when you capture them.' } }),
  );
  return {
    readSites: () => readStoredSetting(paperSitesSetting),
    hasHostPermission: (pattern) => browser.permissions.contains({ origins: [pattern] }),
    readArticle: (tabId) => readTabArticle(tabId, capture, { pdf: false }),
    savePaper: async (article) => {
      const key = paperKey(article);
      if (await getPaper(database, key)) return key;
      return (await saveCapture(database, article)).record.key;
    },
    countCandidates: async (key) => {
      const properties = await readStoredSetting(userPropertiesSetting).catch(() => []);
      return offscreen.countCandidates({ type: 'candidate-count', paperKey: key, properties });
    },
    showBadge: async (tabId, badge) => {
      await browser.action.setBadgeText({ tabId, text: badge.text });
      await browser.action.setTitle({ tabId, title: badge.title });
      if (badge.text === '') return;
      await browser.action.setBadgeBackgroundColor({ tabId, color: PAPER_BADGE_COLOR });
      await browser.action.setBadgeTextColor({ tabId, color: PAPER_BADGE_TEXT_COLOR });
    },
    listTabs: () => browser.tabs.query({}),
  };
}

/** One finished look at a page: the tab, its URL as the extension saw it (undefined when hidden), and how it ended. */
export interface RecognitionRecord {
  tabId: number;
  url: string | undefined;
  recognition: Recognition;
}

/**
 * Start recognizing papers on the reader's publisher sites (see paper-recognizer.ts): listen to
 * `tabs.onUpdated` and `tabs.onRemoved`, and to changes of the opt-in (the stored list,
 * `permissions.onRemoved`). Call once, synchronously, at the background's start
 * (an MV3 worker must add its listeners in its first turn to be woken for them). `onLook`
 * hears how each look at a loaded page ended (the test build records them for the e2e).
 */
export function recognizePapersOnPublisherSites(
  database: AssayDatabase,
  offscreen: CandidateCounter,
  onLook?: (record: RecognitionRecord) => void,
): void {
  const recognizer = createPaperRecognizer(browserPaperRecognizerDependencies(database, offscreen));
  browser.tabs.onUpdated.addListener((tabId, change, tab) => {
    void recognizer.tabUpdated(tabId, change, tab).then((recognition) => {
      if (recognition !== 'not-complete') onLook?.({ tabId, url: tab.url, recognition });
    });
  });
  browser.tabs.onRemoved.addListener((tabId) => recognizer.tabRemoved(tabId));
  // A site added or removed in Settings, or a permission withdrawn in the browser: open tabs follow at once.
  const optInChanged = () => void recognizer.optInChanged().then((looks) => looks.forEach((record) => onLook?.(record)));
  browser.storage.onChanged.addListener((changes, area) => {
    if (area === paperSitesSetting.area && paperSitesSetting.key in changes) optInChanged();
  });
  browser.permissions.onRemoved.addListener(optInChanged);
}
