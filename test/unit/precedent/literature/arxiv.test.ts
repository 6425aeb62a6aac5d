import { describe, expect, it } from 'vitest';
import { arxivSearchQuery, createArxivClient } from '../../../../src/precedent/literature/arxiv';
import { LiteratureError, type LiteratureQuery } from '../../../../src/precedent/literature/types';
import { createFakeClock, fixture, rejectionOf, scriptedFetch, type Step } from './fake-http';

const query: LiteratureQuery = { material: 'MgB2', property: 'superconductivity', terms: [], rows: 10 };
const fast = { backoff: { minTimeoutMs: 1, maxTimeoutMs: 2 } };
const ok = (name: string): Step => ({ status: 200, body: fixture(name), headers: { 'content-type': 'application/atom+xml' } });

function client(steps: Step[], extra: Partial<Parameters<typeof createArxivClient>[0]> = {}) {
  const clock = createFakeClock();
  const scripted = scriptedFetch(steps, clock);
  const arxiv = createArxivClient({ fetch: scripted.fetch, rows: 2, clock, ...fast, ...extra });
  return { arxiv, clock, requests: scripted.requests };
}

describe('arxivSearchQuery', () => {
  it('quotes the material and ORs the property with the extra terms, quoting phrases', () => {
    expect(arxivSearchQuery(query)).toBe('all:"MgB2" AND all:superconductivity');
    expect(arxivSearchQuery({ ...query, terms: ['critical temperature', 'superconductivity'] })).toBe(
      'all:"MgB2" AND (all:superconductivity OR all:"critical temperature")',
    );
    expect(arxivSearchQuery({ ...query, material: 'La"H10', property: '' })).toBe('all:"LaH10"');
  });
});

describe('createArxivClient', () => {
  it('asks https://export.arxiv.org/api/query (never plain http) with search_query, start and max_results', async () => {
    const { arxiv, requests } = client([ok('arxiv-empty.xml')]);
    await arxiv.search(query);
    const url = requests[0]!.url;
    expect(url.origin + url.pathname).toBe('https://export.arxiv.org/api/query');
    expect(url.searchParams.get('search_query')).toBe('all:"MgB2" AND all:superconductivity');
    expect(url.searchParams.get('start')).toBe('0');
    expect(url.searchParams.get('max_results')).toBe('2');
  });

  it('parses Atom entries: folded title, decoded summary, authors, arxiv:doi, versionless id', async () => {
    const { arxiv } = client([ok('arxiv-page1.xml')]);
    const { records, total } = await arxiv.search({ ...query, rows: 2 });
    expect(total).toBe(3);
    expect(records[0]).toEqual({
      source: 'arxiv',
      doi: '10.1038/35065039',
      arxivId: 'cond-mat/0102167',
      title: 'Superconductivity at 39 K in magnesium diboride',
      year: 2001,
      authors: ['Jun Nagamatsu', 'Jun Akimitsu'],
      abstract: 'We report bulk superconductivity in MgB2 with T_c = 39 K & a sharp transition <1 K wide.',
      url: 'http://arxiv.org/abs/cond-mat/0102167v3',
    });
    expect(records[1]).toMatchObject({ doi: null, arxivId: '2101.00001', year: 2021, authors: ['A. Author'] });
  });

  it('pages with start and keeps one request every 3 s', async () => {
    const { arxiv, requests } = client([ok('arxiv-page1.xml'), ok('arxiv-page2.xml')]);
    const { records } = await arxiv.search(query);
    expect(records.map((record) => record.arxivId)).toEqual(['cond-mat/0102167', '2101.00001', '2202.02222']);
    expect(requests.map((request) => request.url.searchParams.get('start'))).toEqual(['0', '2']);
    expect(requests.map((request) => request.at)).toEqual([0, 3000]);
  });

  it('spaces separate searches by 3 s too', async () => {
    const { arxiv, requests, clock } = client([ok('arxiv-empty.xml')]);
    await arxiv.search(query);
    await arxiv.search(query);
    expect(requests.map((request) => request.at)).toEqual([0, 3000]);
    expect(clock.sleeps).toEqual([3000]);
  });

  it('returns no records for an empty feed', async () => {
    const { arxiv } = client([ok('arxiv-empty.xml')]);
    expect(await arxiv.search(query)).toEqual({ records: [], total: 0 });
  });

  it("turns arXiv's error entry into an http error carrying arXiv's message", async () => {
    const { arxiv } = client([ok('arxiv-error.xml')]);
    const error = await rejectionOf(arxiv.search(query));
    expect(error).toMatchObject({ code: 'http', provider: 'arxiv' });
    expect((error as Error).message).toContain('max_results must be non-negative');
  });

  it('reports XML that does not validate, and XML that is not a feed, as malformed', async () => {
    const broken = client([{ status: 200, body: '<feed><entry><id>x</entry></feed>' }]);
    expect(await rejectionOf(broken.arxiv.search(query))).toMatchObject({ code: 'malformed', provider: 'arxiv' });
    const notFeed = client([{ status: 200, body: '<html><body>Rate exceeded</body></html>' }]);
    expect(await rejectionOf(notFeed.arxiv.search(query))).toMatchObject({ code: 'malformed', provider: 'arxiv' });
  });

  it('waits out Retry-After on a 429 on top of the 3 s spacing, then succeeds', async () => {
    const { arxiv, requests } = client([{ status: 429, body: '', headers: { 'retry-after': '5' } }, ok('arxiv-empty.xml')]);
    await arxiv.search(query);
    // 5 000 ms Retry-After already exceeds the 3 000 ms spacing, so no further wait.
    expect(requests.map((request) => request.at)).toEqual([0, 5000]);
  });

  it('retries a 500 then succeeds; gives up on a persistent 503 with the status', async () => {
    const flaky = client([{ status: 500, body: '' }, ok('arxiv-empty.xml')]);
    expect((await flaky.arxiv.search(query)).total).toBe(0);
    expect(flaky.requests).toHaveLength(2);
    const down = client([{ status: 503, body: 'down' }], { retries: 1 });
    const error = await rejectionOf(down.arxiv.search(query));
    expect(error).toBeInstanceOf(LiteratureError);
    expect(error).toMatchObject({ code: 'http', status: 503 });
    expect((error as Error).message).toContain('HTTP 503');
  });

  it('rejects with aborted when the caller aborts in flight', async () => {
    const { arxiv } = client([{ hang: true }]);
    const controller = new AbortController();
    const pending = arxiv.search(query, controller.signal);
    setTimeout(() => controller.abort(), 5);
    expect(await rejectionOf(pending)).toMatchObject({ code: 'aborted', provider: 'arxiv' });
  });
});
