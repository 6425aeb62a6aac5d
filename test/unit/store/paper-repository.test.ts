import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ArticleSchema } from '../../../src/contracts/article';
import { createAssayDatabase, type AssayDatabase } from '../../../src/store/assay-database';
import { deletePaper, getPaper, listPapers, papersWithUrlPrefix, savePaper } from '../../../src/store/paper-repository';
import { makeArticle } from './article-fixture';

let database: AssayDatabase;
let databaseCount = 0;

beforeEach(() => {
  databaseCount += 1;
  database = createAssayDatabase(`assay-test-${databaseCount}`);
});

afterEach(async () => {
  await database.delete();
});

describe('paper repository', () => {
  it('uses a valid article fixture', () => {
    expect(ArticleSchema.safeParse(makeArticle()).success).toBe(true);
  });

  it('saves a paper keyed by DOI with its metadata and full article', async () => {
    const saved = await savePaper(database, makeArticle(), new Date('2025-01-02T03:04:05Z'));
    expect(saved.key).toBe('doi:10.1021/acsphotonics.9b00250');
    const stored = await getPaper(database, saved.key);
    expect(stored).toMatchObject({
      doi: '10.1021/acsphotonics.9b00250',
      title: 'Quantum Sensing with Squeezed Light',
      journal: 'ACS Photonics',
      year: 2019,
      source: 'html',
      adapter: 'acs',
      blockCount: 2,
      abstractOnly: true,
      capturedAt: '2025-01-02T03:04:05.000Z',
    });
    expect(stored?.article.text).toContain('band gap');
  });

  it('updates, not duplicates, when the same DOI is captured again', async () => {
    await savePaper(database, makeArticle({ title: 'Old title' }), new Date('2025-01-01T00:00:00Z'));
    await savePaper(database, makeArticle({ url: 'https://example.org/other-mirror' }), new Date('2025-02-01T00:00:00Z'));
    const papers = await listPapers(database);
    expect(papers).toHaveLength(1);
    expect(papers[0]).toMatchObject({ title: 'Quantum Sensing with Squeezed Light', capturedAt: '2025-02-01T00:00:00.000Z' });
  });

  it('keys by URL (without fragment) when there is no DOI, and by title when there is neither', async () => {
    const byUrl = await savePaper(database, makeArticle({ doi: null, doiOrigin: null, url: 'https://example.org/paper#results' }));
    expect(byUrl.key).toBe('url:https://example.org/paper');
    await savePaper(database, makeArticle({ doi: null, doiOrigin: null, url: 'https://example.org/paper#methods' }));
    const byTitle = await savePaper(database, makeArticle({ doi: null, doiOrigin: null, url: null, title: '  A  Paper ' }));
    expect(byTitle.key).toBe('title:a paper');
    expect(await database.papers.count()).toBe(2);
  });

  it('lists papers newest first', async () => {
    await savePaper(database, makeArticle({ doi: '10.1000/first' }), new Date('2025-01-01T00:00:00Z'));
    await savePaper(database, makeArticle({ doi: '10.1000/third' }), new Date('2025-03-01T00:00:00Z'));
    await savePaper(database, makeArticle({ doi: '10.1000/second' }), new Date('2025-02-01T00:00:00Z'));
    const dois = (await listPapers(database)).map((paper) => paper.doi);
    expect(dois).toEqual(['10.1000/third', '10.1000/second', '10.1000/first']);
  });

  it('deletes a paper, and deleting a missing key is harmless', async () => {
    const saved = await savePaper(database, makeArticle());
    await deletePaper(database, saved.key);
    await deletePaper(database, 'doi:10.1000/missing');
    expect(await getPaper(database, saved.key)).toBeUndefined();
    expect(await listPapers(database)).toEqual([]);
  });
});

describe('papers by URL prefix (schema version 4)', () => {
  it('finds papers through the url index, newest first, and only those whose url starts with the prefix', async () => {
    await savePaper(
      database,
      makeArticle({ doi: null, url: 'https://example.org/articles/gan#results' }),
      new Date('2025-01-01T00:00:00Z'),
    );
    await savePaper(database, makeArticle({ doi: null, url: 'https://example.org/articles/gan?page=2' }), new Date('2025-01-02T00:00:00Z'));
    await savePaper(database, makeArticle({ doi: null, url: 'https://example.org/other' }), new Date('2025-01-03T00:00:00Z'));
    expect(database.verno).toBeGreaterThanOrEqual(4); // v4 added the url index; later versions keep it
    const found = await papersWithUrlPrefix(database, 'https://example.org/articles/gan');
    expect(found.map((paper) => paper.url)).toEqual([
      'https://example.org/articles/gan?page=2',
      'https://example.org/articles/gan#results',
    ]);
    expect(await papersWithUrlPrefix(database, '')).toEqual([]);
  });
});
