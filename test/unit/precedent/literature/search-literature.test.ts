import { describe, expect, it } from 'vitest';
import { createArxivClient } from '../../../../src/precedent/literature/arxiv';
import { createCrossrefClient } from '../../../../src/precedent/literature/crossref';
import { createOpenAlexClient } from '../../../../src/precedent/literature/openalex';
import { mergeRecords, searchLiterature, type LiteratureProgress } from '../../../../src/precedent/literature/search-literature';
import {
  LiteratureError,
  type LiteratureClient,
  type LiteratureQuery,
  type LiteratureRecord,
} from '../../../../src/precedent/literature/types';
import { createFakeClock, fixture, rejectionOf, scriptedFetch, type Step } from './fake-http';

const query: LiteratureQuery = { material: 'MgB2', property: 'superconductivity', terms: [], rows: 10 };
const fast = { backoff: { minTimeoutMs: 1, maxTimeoutMs: 2 }, clock: createFakeClock() };
const ok = (name: string): Step => ({ status: 200, body: fixture(name) });

function providers(crossrefSteps: Step[]): LiteratureClient[] {
  return [
    createCrossrefClient({ fetch: scriptedFetch(crossrefSteps).fetch, mailto: 'lab@example.org', rows: 2, retries: 1, ...fast }),
    createArxivClient({ fetch: scriptedFetch([ok('arxiv-page1.xml'), ok('arxiv-page2.xml')]).fetch, rows: 2, ...fast }),
    createOpenAlexClient({
      fetch: scriptedFetch([ok('openalex-page1.json'), ok('openalex-page2.json')]).fetch,
      apiKey: 'k',
      rows: 2,
      ...fast,
    }),
  ];
}

const record = (overrides: Partial<LiteratureRecord>): LiteratureRecord => ({
  source: 'crossref',
  doi: null,
  title: 'A title',
  year: null,
  authors: [],
  abstract: null,
  url: 'https://example.org',
  ...overrides,
});

describe('searchLiterature', () => {
  it('merges the three providers, deduplicating by DOI, arXiv id and title', async () => {
    const { records, searched } = await searchLiterature(query, providers([ok('crossref-page1.json'), ok('crossref-page2.json')]));
    // Crossref 2 + arXiv 3 + OpenAlex 3 = 8 records. Nagamatsu 2001 is in all three (same DOI) → 1;
    // the MgB2 thin-film preprint is in arXiv and OpenAlex (arXiv id 2101.00001, via OpenAlex's
    // 10.48550 DOI) → 1. 8 − 2 − 1 = 5.
    expect(records.map((found) => [found.source, found.doi, found.arxivId ?? null])).toEqual([
      ['crossref', '10.1038/35065039', 'cond-mat/0102167'],
      ['crossref', '10.1103/physrevlett.86.4656', null],
      ['arxiv', '10.48550/arxiv.2101.00001', '2101.00001'],
      ['arxiv', null, '2202.02222'],
      ['openalex', null, null],
    ]);
    // The Crossref copy gained the arXiv id from arXiv; its JATS abstract is kept (first wins).
    expect(records[0]!.abstract).toMatch(/^In the light of/u);
    expect(searched).toEqual([
      { source: 'crossref', query: 'MgB2 superconductivity', total: 3 },
      { source: 'arxiv', query: 'all:"MgB2" AND all:superconductivity', total: 3 },
      { source: 'openalex', query: 'MgB2 superconductivity', total: 3 },
    ]);
  });

  it('reports a failing provider in searched and still returns the others', async () => {
    const events: LiteratureProgress[] = [];
    const { records, searched } = await searchLiterature(query, providers([{ status: 429, body: '' }]), {
      onProgress: (event) => events.push(event),
    });
    expect(searched[0]).toMatchObject({ source: 'crossref', total: 0, error: { code: 'rate-limited' } });
    expect(searched[0]!.error!.message).toContain('HTTP 429');
    expect(searched[1]!.error).toBeUndefined();
    expect(searched[2]!.error).toBeUndefined();
    // arXiv 3 + OpenAlex 3 − 1 shared DOI − 1 shared arXiv id = 4.
    expect(records).toHaveLength(4);
    expect(records[0]!.source).toBe('arxiv');
    expect(events.filter((event) => event.phase === 'failed').map((event) => event.source)).toEqual(['crossref']);
    expect(
      events
        .filter((event) => event.phase === 'finished')
        .map((event) => event.source)
        .sort(),
    ).toEqual(['arxiv', 'openalex']);
  });

  it('reports an unexpected (non-LiteratureError) failure instead of crashing', async () => {
    const broken: LiteratureClient = { name: 'crossref', describeQuery: () => 'q', search: () => Promise.reject(new RangeError('bug')) };
    const { searched } = await searchLiterature(query, [broken]);
    expect(searched).toEqual([
      { source: 'crossref', query: 'q', total: 0, error: { code: 'unreachable', message: 'the crossref search failed unexpectedly: bug' } },
    ]);
  });

  it('rejects with aborted when the caller aborts', async () => {
    const hanging = createCrossrefClient({ fetch: scriptedFetch([{ hang: true }]).fetch, mailto: 'a@b.c', ...fast });
    const controller = new AbortController();
    const pending = searchLiterature(query, [hanging], { signal: controller.signal });
    setTimeout(() => controller.abort(), 5);
    const error = await rejectionOf(pending);
    expect(error).toBeInstanceOf(LiteratureError);
    expect(error).toMatchObject({ code: 'aborted' });
  });
});

describe('mergeRecords', () => {
  it('matches DOIs case-insensitively as stored (already lower-case) and fills a missing abstract', () => {
    const merged = mergeRecords([
      record({ doi: '10.1/x', abstract: null }),
      record({ source: 'openalex', doi: '10.1/x', title: 'Other wording', abstract: 'Found Tc = 39 K.', year: 2001 }),
    ]);
    expect(merged).toEqual([record({ doi: '10.1/x', abstract: 'Found Tc = 39 K.', year: 2001 })]);
  });

  it('merges by title when one side has no DOI, but never merges two different DOIs', () => {
    const merged = mergeRecords([
      record({ doi: '10.1/conference', title: 'Tc of MgB₂!' }),
      record({ doi: '10.1/journal', title: 'Tc of MgB2' }),
      record({ source: 'arxiv', doi: null, arxivId: '2101.00001', title: 'TC OF MGB2' }),
    ]);
    expect(merged.map((found) => [found.doi, found.arxivId ?? null])).toEqual([
      ['10.1/conference', '2101.00001'],
      ['10.1/journal', null],
    ]);
  });

  it('does not mutate its input', () => {
    const first = record({ doi: null, title: 'Same' });
    mergeRecords([first, record({ doi: '10.1/y', title: 'Same' })]);
    expect(first.doi).toBeNull();
  });
});
