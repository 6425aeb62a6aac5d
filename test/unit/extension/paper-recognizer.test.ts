import { describe, expect, it } from 'vitest';
import type { Article } from '../../../src/contracts/article';
import type { CandidateCountResponse } from '../../../src/contracts/messages';
import type { TabArticle } from '../../../src/extension/capture-tab';
import type { ActionBadge } from '../../../src/extension/paper-badge';
import { createPaperRecognizer, type PaperRecognizerDependencies } from '../../../src/extension/paper-recognizer';
import { makeArticle } from '../store/article-fixture';

const PAGE = 'https://pubs.acs.org/doi/10.1021/acsphotonics.9b00250';

/** Fakes that record every call; `sites`, `granted`, `article`, `count` and `tabs` say what the browser holds. */
function fakeBrowser(options: {
  sites?: string[];
  granted?: string[];
  article?: TabArticle;
  count?: CandidateCountResponse;
  tabs?: Array<{ id?: number; url?: string; status?: string }>;
}) {
  const calls: string[] = [];
  const badges: Array<{ tabId: number; badge: ActionBadge }> = [];
  const saved: Article[] = [];
  let releaseRead: (() => void) | undefined;
  const dependencies: PaperRecognizerDependencies = {
    readSites: async () => {
      calls.push('readSites');
      return options.sites ?? [];
    },
    hasHostPermission: async (pattern) => {
      calls.push(`contains ${pattern}`);
      return (options.granted ?? []).includes(pattern);
    },
    readArticle: async (tabId) => {
      calls.push(`read ${tabId}`);
      if (releaseRead) await new Promise<void>((resolve) => (releaseRead = resolve));
      return options.article ?? { ok: true, article: makeArticle() };
    },
    savePaper: async (article) => {
      calls.push('save');
      saved.push(article);
      return `doi:${article.doi}`;
    },
    countCandidates: async (paperKey) => {
      calls.push(`count ${paperKey}`);
      return options.count ?? { ok: true, candidates: 3 };
    },
    showBadge: async (tabId, badge) => {
      badges.push({ tabId, badge });
    },
    listTabs: async () => options.tabs ?? [],
  };
  return {
    dependencies,
    calls,
    badges,
    saved,
    /** Make the next `readArticle` wait until `release()` is called. */
    holdRead: () => {
      releaseRead = () => undefined;
      return () => releaseRead?.();
    },
  };
}

const optedIn = { sites: ['https://pubs.acs.org'], granted: ['https://pubs.acs.org/*'] };

describe('createPaperRecognizer', () => {
  it('does nothing at all on a page whose site the reader did not list, even with the permission', async () => {
    const fake = fakeBrowser({ sites: [], granted: ['https://pubs.acs.org/*'] });
    const recognizer = createPaperRecognizer(fake.dependencies);
    expect(await recognizer.tabUpdated(5, { status: 'complete' }, { url: PAGE })).toBe('not-opted-in');
    expect(fake.calls).toEqual(['readSites']);
    expect(fake.badges).toEqual([]);
  });

  it('does not read a listed site whose permission the browser does not hold', async () => {
    const fake = fakeBrowser({ sites: ['https://pubs.acs.org'], granted: [] });
    const recognizer = createPaperRecognizer(fake.dependencies);
    expect(await recognizer.tabUpdated(5, { status: 'complete' }, { url: PAGE })).toBe('not-opted-in');
    expect(fake.calls).toEqual(['readSites', 'contains https://pubs.acs.org/*']);
    expect(fake.saved).toEqual([]);
  });

  it('stops before any call when the URL is hidden (no host permission) or not a web page', async () => {
    const fake = fakeBrowser(optedIn);
    const recognizer = createPaperRecognizer(fake.dependencies);
    expect(await recognizer.tabUpdated(5, { status: 'complete' }, {})).toBe('not-opted-in');
    expect(await recognizer.tabUpdated(5, { status: 'complete' }, { url: 'chrome://newtab/' })).toBe('not-opted-in');
    expect(fake.calls).toEqual([]);
  });

  it('reads, saves, counts and badges a paper on an opted-in, granted site', async () => {
    const fake = fakeBrowser({ ...optedIn, count: { ok: true, candidates: 14 } });
    const recognizer = createPaperRecognizer(fake.dependencies);
    expect(await recognizer.tabUpdated(9, { status: 'loading' }, { url: PAGE })).toBe('not-complete');
    expect(await recognizer.tabUpdated(9, { status: 'complete' }, { url: `${PAGE}#sec2` })).toBe('paper');
    expect(fake.calls).toEqual([
      'readSites',
      'contains https://pubs.acs.org/*',
      'read 9',
      'save',
      'count doi:10.1021/acsphotonics.9b00250',
    ]);
    expect(fake.badges).toEqual([{ tabId: 9, badge: { text: '14', title: 'Assay: a paper — 14 candidate facts' } }]);
  });

  it('shows "?" and the reason when the count fails', async () => {
    const fake = fakeBrowser({ ...optedIn, count: { ok: false, failure: { code: 'internal', message: 'no answer' } } });
    await createPaperRecognizer(fake.dependencies).tabUpdated(9, { status: 'complete' }, { url: PAGE });
    expect(fake.badges).toEqual([{ tabId: 9, badge: { text: '?', title: 'Assay: a paper — candidate facts not counted (no answer)' } }]);
  });

  it('neither saves nor badges a page that is not a paper, or not readable', async () => {
    const notPaper = fakeBrowser({
      ...optedIn,
      article: { ok: true, article: makeArticle({ doi: null, doiOrigin: null, adapter: 'generic' }) },
    });
    expect(await createPaperRecognizer(notPaper.dependencies).tabUpdated(2, { status: 'complete' }, { url: PAGE })).toBe('not-a-paper');
    const failed = fakeBrowser({ ...optedIn, article: { ok: false, failure: { code: 'not-article', message: 'No article text.' } } });
    expect(await createPaperRecognizer(failed.dependencies).tabUpdated(2, { status: 'complete' }, { url: PAGE })).toBe('not-a-paper');
    for (const fake of [notPaper, failed]) {
      expect(fake.saved).toEqual([]);
      expect(fake.badges).toEqual([]);
    }
  });

  it('clears its badge when the tab navigates, and only a badge it showed', async () => {
    const fake = fakeBrowser(optedIn);
    const recognizer = createPaperRecognizer(fake.dependencies);
    await recognizer.tabUpdated(4, { status: 'loading' }, {});
    expect(fake.badges).toEqual([]); // never badged: nothing to clear
    await recognizer.tabUpdated(4, { status: 'complete' }, { url: PAGE });
    await recognizer.tabUpdated(4, { status: 'loading' }, {});
    expect(fake.badges.map(({ badge }) => badge.text)).toEqual(['3', '']);
    expect(fake.badges[1]?.badge.title).toBe('Open Assay');
    await recognizer.tabUpdated(4, { status: 'loading' }, {});
    expect(fake.badges).toHaveLength(2);
  });

  it('drops the answer of a look the tab navigated away from', async () => {
    const fake = fakeBrowser(optedIn);
    const recognizer = createPaperRecognizer(fake.dependencies);
    const release = fake.holdRead();
    const first = recognizer.tabUpdated(6, { status: 'complete' }, { url: PAGE });
    await new Promise((resolve) => setTimeout(resolve, 0));
    await recognizer.tabUpdated(6, { status: 'loading' }, {});
    release();
    expect(await first).toBe('stale');
    expect(fake.saved).toEqual([]);
    expect(fake.badges).toEqual([]);
  });

  it('never rejects: a failing dependency ends the look without a badge, with a warning', async () => {
    const fake = fakeBrowser(optedIn);
    const warnings: string[] = [];
    const recognizer = createPaperRecognizer(
      {
        ...fake.dependencies,
        savePaper: async () => {
          throw new Error('QuotaExceededError');
        },
      },
      (message) => warnings.push(message),
    );
    expect(await recognizer.tabUpdated(8, { status: 'complete' }, { url: PAGE })).toBe('not-a-paper');
    expect(fake.badges).toEqual([]);
    expect(warnings).toEqual(['Assay: the page in tab 8 could not be recognized: QuotaExceededError']);
  });

  it('clears the badges the opt-in no longer covers: a site removed, or its permission withdrawn', async () => {
    const sites = ['https://pubs.acs.org', 'https://pubs.rsc.org'];
    const granted = ['https://pubs.acs.org/*', 'https://pubs.rsc.org/*'];
    const fake = fakeBrowser({ sites, granted });
    const recognizer = createPaperRecognizer(fake.dependencies);
    await recognizer.tabUpdated(1, { status: 'complete' }, { url: PAGE });
    await recognizer.tabUpdated(2, { status: 'complete' }, { url: 'https://pubs.rsc.org/en/content/articlehtml/2012/jm/c1jm13879k' });
    expect(fake.badges.map(({ tabId, badge }) => [tabId, badge.text])).toEqual([
      [1, '3'],
      [2, '3'],
    ]);
    await recognizer.optInChanged();
    expect(fake.badges).toHaveLength(2); // nothing changed: both stay
    sites.splice(0, 1); // ACS removed in Settings
    await recognizer.optInChanged();
    expect(fake.badges.slice(2).map(({ tabId, badge }) => [tabId, badge.text])).toEqual([[1, '']]);
    granted.splice(1, 1); // RSC's permission withdrawn in the browser
    await recognizer.optInChanged();
    expect(fake.badges.slice(3).map(({ tabId, badge }) => [tabId, badge.text])).toEqual([[2, '']]);
  });

  it('looks at the loaded tabs of a site as soon as it is added, once, and not at loading or hidden ones', async () => {
    const sites: string[] = [];
    const tabs = [
      { id: 1, url: PAGE, status: 'complete' },
      { id: 2, url: `${PAGE}-2`, status: 'loading' },
      { id: 3, status: 'complete' }, // URL hidden: no permission for its site
      { id: 4, url: 'https://example.org/blog', status: 'complete' },
    ];
    const fake = fakeBrowser({ sites, granted: ['https://pubs.acs.org/*'], tabs });
    const recognizer = createPaperRecognizer(fake.dependencies);
    expect(await recognizer.optInChanged()).toEqual([]); // nothing listed yet
    sites.push('https://pubs.acs.org');
    expect(await recognizer.optInChanged()).toEqual([{ tabId: 1, url: PAGE, recognition: 'paper' }]);
    expect(fake.badges.map(({ tabId, badge }) => [tabId, badge.text])).toEqual([[1, '3']]);
    expect(await recognizer.optInChanged()).toEqual([]); // already read: not read again
    expect(fake.calls.filter((call) => call.startsWith('read '))).toEqual(['read 1']);
  });
});
