/**
 * A new capture of a known paper never silently downgrades it (issue 14, item 3): full text is
 * kept over an abstract or nothing, a capture from another host is named, earlier captures are
 * kept (a bounded number), and the side panel is told.
 */
import 'fake-indexeddb/auto';
import { Dexie } from 'dexie';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Article } from '../../../src/contracts/article';
import { captureTab, type CaptureInjection, type CaptureTabDependencies } from '../../../src/extension/capture-tab';
import { createAssayDatabase, type AssayDatabase } from '../../../src/store/assay-database';
import { deletePaper, getPaper, listPaperVersions, savePaper } from '../../../src/store/paper-repository';
import { currentPaperFinder } from '../../../src/ui/side-panel/current-paper';
import { makeArticle } from './article-fixture';

let database: AssayDatabase;
let count = 0;

beforeEach(() => {
  count += 1;
  database = createAssayDatabase(`assay-paper-versions-${count}`);
});

afterEach(async () => {
  await database.delete();
});

const DOI = '10.1021/acsphotonics.9b00250';
const KEY = `doi:${DOI}`;
const SENTENCE = 'The squeezed-light source reached 6 dB of noise reduction at 1550 nm in the waveguide. ';

/** A capture of the paper: `full` text (many blocks), the `abstract` only, or `none` (metadata only), from `host`. */
function capture(kind: 'full' | 'abstract' | 'none', host: string | null, paragraphs = 40): Article {
  const texts =
    kind === 'none' ? [] : kind === 'abstract' ? [SENTENCE] : Array.from({ length: paragraphs }, (_, index) => `${index}. ${SENTENCE}`);
  let text = '';
  const blocks = texts.map((block, index) => {
    if (text) text += '\n\n';
    const start = text.length;
    text += block;
    return { id: `b${index}`, kind: 'paragraph' as const, text: block, start, end: text.length };
  });
  return makeArticle({ url: host ? `https://${host}/doi/${DOI}` : null, blocks, text, abstractOnly: kind !== 'full' });
}

describe('a new capture of a saved paper', () => {
  it('keeps the full text over an abstract-only capture from another host, names both hosts, and keeps the capture as a version', async () => {
    await savePaper(database, capture('full', 'pubs.acs.org'), new Date('2025-02-01T12:00:00Z'));
    const after = await savePaper(database, capture('abstract', 'evil.example'), new Date('2025-03-01T12:00:00Z'));
    expect(after).toMatchObject({ abstractOnly: false, url: `https://pubs.acs.org/doi/${DOI}`, capturedAt: '2025-02-01T12:00:00.000Z' });
    const stored = await getPaper(database, KEY);
    expect(stored?.article.blocks).toHaveLength(40);
    expect(stored?.mergeWarnings).toEqual([
      'Not saved over the paper: this capture from evil.example has only the abstract, so the full text captured on 1 February 2025 from pubs.acs.org is kept. This capture is kept as an earlier version.',
      'This paper was saved before from pubs.acs.org; this capture is from evil.example. Check that this page is the paper you meant: a page can claim any DOI.',
    ]);
    const versions = await listPaperVersions(database, KEY);
    expect(versions).toHaveLength(1);
    expect(versions[0]).toMatchObject({ reason: 'not-better', capturedAt: '2025-03-01T12:00:00.000Z', record: { abstractOnly: true } });
  });

  it('keeps the full text over a capture with no text at all, and an abstract over nothing', async () => {
    await savePaper(database, capture('full', 'pubs.acs.org'));
    expect((await savePaper(database, capture('none', 'pubs.acs.org'))).blockCount).toBe(40);
    await database.papers.clear();
    await savePaper(database, capture('abstract', 'pubs.acs.org'));
    expect((await savePaper(database, capture('none', 'pubs.acs.org'))).blockCount).toBe(1);
  });

  it('keeps a full text over one less than half as long (a fragment claiming the DOI)', async () => {
    await savePaper(database, capture('full', 'pubs.acs.org', 40));
    expect((await savePaper(database, capture('full', 'pubs.acs.org', 10))).blockCount).toBe(40);
    expect((await getPaper(database, KEY))?.mergeWarnings?.[0]).toMatch(/has less than half the text \(.* characters against .*\)/);
    // A full text at least half as long is a new capture of the paper: it replaces the saved one.
    expect((await savePaper(database, capture('full', 'pubs.acs.org', 30))).blockCount).toBe(30);
  });

  it('takes a better or equal capture, keeps the one it replaces, and names a change of host', async () => {
    await savePaper(database, capture('abstract', 'pubs.acs.org'), new Date('2025-01-01T00:00:00Z'));
    const upgraded = await savePaper(database, capture('full', 'pubs.acs.org'), new Date('2025-01-02T00:00:00Z'));
    expect(upgraded).toMatchObject({ abstractOnly: false, capturedAt: '2025-01-02T00:00:00.000Z' });
    expect(upgraded.mergeWarnings).toBeUndefined();
    const mirrored = await savePaper(database, capture('full', 'www.ncbi.nlm.nih.gov'), new Date('2025-01-03T00:00:00Z'));
    expect(mirrored.url).toBe(`https://www.ncbi.nlm.nih.gov/doi/${DOI}`);
    expect(mirrored.mergeWarnings).toEqual([
      'This paper was saved before from pubs.acs.org; this capture is from www.ncbi.nlm.nih.gov. Check that this page is the paper you meant: a page can claim any DOI. The capture from pubs.acs.org is kept as an earlier version.',
    ]);
    const versions = await listPaperVersions(database, KEY);
    expect(versions.map((version) => [version.reason, version.record.url, version.record.abstractOnly])).toEqual([
      ['replaced', `https://pubs.acs.org/doi/${DOI}`, false],
      ['replaced', `https://pubs.acs.org/doi/${DOI}`, true],
    ]);
  });

  it('keeps at most 5 earlier captures per paper, the newest, and deletes them with the paper', async () => {
    for (let day = 1; day <= 9; day += 1) await savePaper(database, capture('full', 'pubs.acs.org'), new Date(Date.UTC(2025, 0, day)));
    const versions = await listPaperVersions(database, KEY);
    expect(versions.map((version) => version.capturedAt.slice(0, 10))).toEqual([
      '2025-01-08',
      '2025-01-07',
      '2025-01-06',
      '2025-01-05',
      '2025-01-04',
    ]);
    await savePaper(database, makeArticle({ doi: '10.1234/other' }));
    await savePaper(database, makeArticle({ doi: '10.1234/other', url: 'https://other.example/x' }));
    await deletePaper(database, KEY);
    expect(await listPaperVersions(database, KEY)).toEqual([]);
    expect(await listPaperVersions(database, 'doi:10.1234/other')).toHaveLength(1);
  });

  it('never lowers what the saved paper holds, whatever the order of captures (property)', async () => {
    const rank = { none: 0, abstract: 1, full: 2 } as const;
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.tuple(
            fc.constantFrom('full', 'abstract', 'none') as fc.Arbitrary<'full' | 'abstract' | 'none'>,
            fc.constantFrom('a.example', 'b.example', null),
          ),
          {
            minLength: 1,
            maxLength: 8,
          },
        ),
        async (captures) => {
          await database.papers.clear();
          await database.paperVersions.clear();
          let best = 0;
          for (const [index, [kind, host]] of captures.entries()) {
            best = Math.max(best, rank[kind]);
            const saved = await savePaper(database, capture(kind, host), new Date(Date.UTC(2025, 0, index + 1)));
            const holds = saved.article.blocks.length === 0 ? 0 : saved.abstractOnly ? 1 : 2;
            expect(holds).toBe(best);
          }
          expect(await database.papers.count()).toBe(1);
          expect(await database.paperVersions.count()).toBe(Math.min(captures.length - 1, 5));
        },
      ),
      { numRuns: 30 },
    );
  });
});

describe('the side panel after a capture of a saved paper', () => {
  function dependencies(article: Article): CaptureTabDependencies {
    return {
      tabs: { get: async () => ({ url: article.url ?? 'https://example.org/' }), sendMessage: async () => undefined },
      scripting: {
        executeScript: async (injection: CaptureInjection) => [{ result: 'func' in injection ? 'text/html' : { ok: true, article } }],
      },
      readPdf: async () => ({ ok: false, failure: { code: 'internal', message: 'an HTML tab is never read as a PDF' } }),
      extensionBase: 'chrome-extension://assayid/',
    };
  }

  it('shows the kept full text with the warnings, and shows them again when the page is opened later', async () => {
    await captureTab({ type: 'capture-tab', tabId: 1 }, database, dependencies(capture('full', 'pubs.acs.org')));
    const abstract = {
      ...capture('abstract', 'evil.example'),
      warnings: ['Only the abstract is on this page (a landing page without the full text).'],
    };
    const response = await captureTab({ type: 'capture-tab', tabId: 1 }, database, dependencies(abstract));
    expect(response).toMatchObject({ ok: true, paper: { abstractOnly: false, blockCount: 40, url: `https://pubs.acs.org/doi/${DOI}` } });
    const warnings = response.ok ? response.warnings : [];
    expect(warnings).toHaveLength(3);
    expect(warnings[0]).toMatch(/^Not saved over the paper: this capture from evil\.example has only the abstract/);
    expect(warnings[1]).toMatch(/^This paper was saved before from pubs\.acs\.org; this capture is from evil\.example/);
    expect(warnings[2]).toBe('Only the abstract is on this page (a landing page without the full text).');
    const found = await currentPaperFinder(database, async () => `https://pubs.acs.org/doi/${DOI}`)();
    expect(found?.warnings.slice(0, 2)).toEqual(warnings.slice(0, 2));
  });

  it('names the field when the page answers with an article the contract refuses', async () => {
    const response = await captureTab({ type: 'capture-tab', tabId: 1 }, database, dependencies(makeArticle({ title: 'T'.repeat(2_001) })));
    expect(response).toEqual({
      ok: false,
      failure: {
        code: 'unreadable',
        message:
          "The page was read, but what it holds is not an article Assay can keep: title: title is longer than 2,000 characters: not a paper's title.",
      },
    });
  });
});

describe('the database upgrade to version 6', () => {
  it('keeps the papers saved under version 5 and starts them without earlier versions', async () => {
    const name = `assay-paper-versions-upgrade-${count}`;
    const old = new Dexie(name);
    old.version(1).stores({ papers: 'key, capturedAt, doi' });
    old.version(2).stores({ runs: 'id, [paperKey+startedAt], status' });
    old.version(3).stores({ triplets: 'id, &mergeKey, paper.key, material, property, status, savedAt' });
    old.version(4).stores({ papers: 'key, capturedAt, doi, url' });
    old.version(5).stores({ referenceTables: 'id, importedAt', precedents: 'key' });
    await old.open();
    const saved = await savePaper(database, capture('full', 'pubs.acs.org'));
    await old.table('papers').put(saved);
    old.close();
    const upgraded = createAssayDatabase(name);
    try {
      expect((await getPaper(upgraded, KEY))?.blockCount).toBe(40);
      expect(upgraded.verno).toBeGreaterThanOrEqual(6);
      await savePaper(upgraded, capture('abstract', 'pubs.acs.org'));
      expect((await getPaper(upgraded, KEY))?.blockCount).toBe(40);
      expect(await listPaperVersions(upgraded, KEY)).toHaveLength(1);
    } finally {
      await upgraded.delete();
    }
  });
});
