import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAssayDatabase, type AssayDatabase } from '../../../../src/store/assay-database';
import { savePaper } from '../../../../src/store/paper-repository';
import { capturedOnText, currentPaperFinder, findPaperForPage, tabUrlReader } from '../../../../src/ui/side-panel/current-paper';
import { isSamePage, pageAddress } from '../../../../src/extension/page-address';
import { makeArticle } from '../../store/article-fixture';

describe('isSamePage', () => {
  const paper = 'https://pubs.acs.org/doi/10.1021/acsphotonics.9b00250';

  it('ignores the fragment', () => {
    expect(isSamePage(`${paper}#sec-2`, paper)).toBe(true);
    expect(isSamePage(paper, `${paper}#abstract`)).toBe(true);
    expect(pageAddress(`${paper}#`)).toBe(paper);
  });

  it('ignores one trailing slash of a non-root path', () => {
    expect(isSamePage(`${paper}/`, paper)).toBe(true);
    expect(isSamePage('https://arxiv.org/abs/2401.00001/?v=2', 'https://arxiv.org/abs/2401.00001?v=2')).toBe(true);
    expect(pageAddress('https://example.org')).toBe('https://example.org/'); // the root keeps its "/"
    expect(isSamePage(`${paper}//`, paper)).toBe(false); // only one slash goes
  });

  it('keeps the query string, as written', () => {
    expect(isSamePage(`${paper}?page=2`, paper)).toBe(false);
    expect(isSamePage('https://example.org/view?id=7', 'https://example.org/view?id=8')).toBe(false);
    expect(isSamePage('https://example.org/view?a=1&b=2', 'https://example.org/view?b=2&a=1')).toBe(false);
    expect(isSamePage('https://example.org/view?id=7#fig1', 'https://example.org/view?id=7')).toBe(true);
  });

  it('compares scheme and host as the URL parser normalizes them, and other schemes and paths exactly', () => {
    expect(isSamePage('HTTPS://Example.ORG:443/a', 'https://example.org/a')).toBe(true);
    expect(isSamePage('http://example.org/a', 'https://example.org/a')).toBe(false);
    expect(isSamePage('https://example.org/A', 'https://example.org/a')).toBe(false);
    // Not a URL: compared as written without its fragment.
    expect(pageAddress('not a url#x')).toBe('not a url');
  });
});

describe('findPaperForPage', () => {
  let database: AssayDatabase;
  let count = 0;
  beforeEach(() => {
    count += 1;
    database = createAssayDatabase(`assay-current-paper-${count}`);
  });
  afterEach(async () => {
    await database.delete();
  });

  it('finds a paper keyed by DOI through its url field, fragment and trailing slash aside', async () => {
    const saved = await savePaper(database, makeArticle());
    expect(saved.key).toBe('doi:10.1021/acsphotonics.9b00250');
    expect((await findPaperForPage(database, 'https://pubs.acs.org/doi/10.1021/acsphotonics.9b00250#sec1'))?.key).toBe(saved.key);
    expect((await findPaperForPage(database, 'https://pubs.acs.org/doi/10.1021/acsphotonics.9b00250/'))?.key).toBe(saved.key);
    expect(await findPaperForPage(database, 'https://pubs.acs.org/doi/10.1021/acsphotonics.9b00250?download=1')).toBeUndefined();
    expect(await findPaperForPage(database, 'https://pubs.acs.org/doi/10.1021/other')).toBeUndefined();
  });

  it('finds a paper keyed by URL, and the newest of two captures of one page', async () => {
    const byUrl = await savePaper(database, makeArticle({ doi: null, doiOrigin: null, url: 'https://example.org/report?id=7#results' }));
    expect(byUrl.key).toBe('url:https://example.org/report?id=7');
    expect((await findPaperForPage(database, 'https://example.org/report?id=7'))?.key).toBe(byUrl.key);
    // Two DOIs captured from one page (a journal's landing page changed): the later capture wins.
    const page = 'https://example.org/issue/3';
    await savePaper(database, makeArticle({ doi: '10.1000/old', url: page }), new Date('2025-01-01T00:00:00Z'));
    await savePaper(database, makeArticle({ doi: '10.1000/new', url: page }), new Date('2025-03-01T00:00:00Z'));
    expect((await findPaperForPage(database, page))?.key).toBe('doi:10.1000/new');
  });

  it('reads the tab URL, finds its paper with the capture warnings, and finds nothing for a hidden URL', async () => {
    await savePaper(database, makeArticle({ warnings: ['Figures were skipped.'] }), new Date('2025-02-01T12:00:00Z'));
    const urls: Record<number, string | undefined> = { 3: 'https://pubs.acs.org/doi/10.1021/acsphotonics.9b00250#fig2', 4: undefined };
    const finder = (tabId: number) =>
      currentPaperFinder(
        database,
        tabUrlReader(
          async () => tabId,
          async (id) => ({ url: urls[id] }),
        ),
      );
    const found = await finder(3)();
    expect(found?.paper.key).toBe('doi:10.1021/acsphotonics.9b00250');
    expect(found?.paper.capturedAt).toBe('2025-02-01T12:00:00.000Z');
    expect(found?.warnings).toEqual(['Figures were skipped.']);
    expect(found && 'article' in found.paper).toBe(false); // the summary only
    expect(await finder(4)()).toBeUndefined();
  });
});

describe('tabUrlReader', () => {
  it('resolves to the URL, or undefined when it is hidden, empty, or the tab cannot be read', async () => {
    expect(
      await tabUrlReader(
        async () => 5,
        async () => ({ url: 'https://example.org/a' }),
      )(),
    ).toBe('https://example.org/a');
    expect(
      await tabUrlReader(
        async () => 5,
        async () => ({}),
      )(),
    ).toBeUndefined();
    expect(
      await tabUrlReader(
        async () => 5,
        async () => ({ url: '' }),
      )(),
    ).toBeUndefined();
    expect(
      await tabUrlReader(
        async () => Promise.reject(new Error('no active tab')),
        async () => ({ url: 'x' }),
      )(),
    ).toBeUndefined();
    expect(
      await tabUrlReader(
        async () => 5,
        async () => Promise.reject(new Error('No tab with id: 5')),
      )(),
    ).toBeUndefined();
  });
});

describe('capturedOnText', () => {
  it('writes the day of capture in the long date style', () => {
    expect(capturedOnText('2025-02-01T12:00:00.000Z', 'en-GB', 'UTC')).toBe('Captured on 1 February 2025');
    expect(capturedOnText('2025-02-01T23:30:00.000Z', 'en-US', 'Asia/Tokyo')).toBe('Captured on February 2, 2025'); // 08:30 the next day in Tokyo
    expect(capturedOnText('yesterday')).toBe('Captured on an unknown date');
  });
});
