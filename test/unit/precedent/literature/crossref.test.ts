import { describe, expect, it } from 'vitest';
import { createCrossrefClient, crossrefSpacingMs } from '../../../../src/precedent/literature/crossref';
import { LiteratureError, type LiteratureQuery } from '../../../../src/precedent/literature/types';
import { createFakeClock, fixture, rejectionOf, scriptedFetch, type Step } from './fake-http';

const query: LiteratureQuery = { material: 'MgB2', property: 'superconductivity', terms: ['critical temperature'], rows: 10 };
const fast = { backoff: { minTimeoutMs: 1, maxTimeoutMs: 2 } };
const ok = (name: string, headers: Record<string, string> = {}): Step => ({
  status: 200,
  body: fixture(name),
  headers: { 'content-type': 'application/json', ...headers },
});

function client(steps: Step[], extra: Partial<Parameters<typeof createCrossrefClient>[0]> = {}) {
  const clock = createFakeClock();
  const scripted = scriptedFetch(steps, clock);
  const crossref = createCrossrefClient({ fetch: scripted.fetch, mailto: 'lab@example.org', rows: 2, clock, ...fast, ...extra });
  return { crossref, clock, requests: scripted.requests };
}

describe('createCrossrefClient', () => {
  it('asks /works with query.bibliographic, rows, select, mailto, cursor=* and a polite User-Agent', async () => {
    const { crossref, requests } = client([ok('crossref-empty.json')]);
    await crossref.search(query);
    const url = requests[0]!.url;
    expect(url.origin + url.pathname).toBe('https://api.crossref.org/works');
    expect(url.searchParams.get('query.bibliographic')).toBe('MgB2 superconductivity critical temperature');
    expect(url.searchParams.get('rows')).toBe('2');
    expect(url.searchParams.get('select')).toBe('DOI,title,author,issued,abstract,URL');
    expect(url.searchParams.get('mailto')).toBe('lab@example.org');
    expect(url.searchParams.get('cursor')).toBe('*');
    expect(requests[0]!.headers['user-agent']).toBe('Assay/0.1 (mailto:lab@example.org)');
  });

  it('parses items: JATS abstract to text, entities decoded, DOI lower-cased, untitled items skipped', async () => {
    const { crossref } = client([ok('crossref-page1.json'), ok('crossref-page2.json')]);
    const { records, total } = await crossref.search({ ...query, rows: 1 });
    expect(total).toBe(3);
    expect(records).toEqual([
      {
        source: 'crossref',
        doi: '10.1038/35065039',
        title: 'Superconductivity at 39 K in magnesium diboride',
        year: 2001,
        authors: ['Jun Nagamatsu', 'Jun Akimitsu'],
        // <jats:sub> joins without a space ("MgB2", "Tc"); the two <jats:p> are separated by one;
        // &#x2009; (thin space) folds to a space; &amp; → &.
        abstract:
          'In the light of the tremendous progress, we report the discovery of bulk superconductivity in MgB2 with a transition temperature Tc = 39 K & more. Second paragraph.',
        url: 'http://dx.doi.org/10.1038/35065039',
      },
    ]);
  });

  it('pages with next-cursor until total-results is reached', async () => {
    const { crossref, requests } = client([ok('crossref-page1.json'), ok('crossref-page2.json')]);
    const { records, total } = await crossref.search(query);
    expect(requests.map((request) => request.url.searchParams.get('cursor'))).toEqual(['*', 'DnF1ZXJ5VGhlbkZldGNoBgAAAAAAAAbT']);
    // page 1: one titled item of two; page 2: one more → 2 records, the untitled one dropped.
    expect(records.map((record) => record.doi)).toEqual(['10.1038/35065039', '10.1103/physrevlett.86.4656']);
    expect(records[1]!.year).toBe(2001);
    expect(records[1]!.abstract).toBeNull();
    expect(total).toBe(3);
  });

  it('stops at maxRecords even when more pages exist', async () => {
    const { crossref, requests } = client([ok('crossref-page1.json'), ok('crossref-page2.json')], { maxRecords: 1 });
    const { records } = await crossref.search(query);
    expect(records).toHaveLength(1);
    expect(requests).toHaveLength(1);
    expect(requests[0]!.url.searchParams.get('rows')).toBe('1');
  });

  it('returns no records and total 0 for an empty result', async () => {
    const { crossref, requests } = client([ok('crossref-empty.json')]);
    expect(await crossref.search(query)).toEqual({ records: [], total: 0 });
    expect(requests).toHaveLength(1);
  });

  it('waits out Retry-After on a 429, then succeeds', async () => {
    const { crossref, clock, requests } = client([
      { status: 429, body: 'slow down', headers: { 'retry-after': '2' } },
      ok('crossref-empty.json'),
    ]);
    await crossref.search(query);
    expect(requests).toHaveLength(2);
    expect(clock.sleeps).toEqual([2000]); // "2" seconds → 2 000 ms on the clock
    expect(requests[1]!.at - requests[0]!.at).toBeGreaterThanOrEqual(2000);
  });

  it('retries a 500, then succeeds', async () => {
    const { crossref, requests } = client([{ status: 500, body: 'oops' }, ok('crossref-empty.json')]);
    expect((await crossref.search(query)).total).toBe(0);
    expect(requests).toHaveLength(2);
  });

  it('gives up on a persistent 503 with an http error naming the status', async () => {
    const { crossref, requests } = client([{ status: 503, body: 'Service Unavailable' }], { retries: 2 });
    const error = await rejectionOf(crossref.search(query));
    expect(error).toBeInstanceOf(LiteratureError);
    expect(error).toMatchObject({ code: 'http', provider: 'crossref', status: 503 });
    expect((error as LiteratureError).message).toContain('HTTP 503');
    expect((error as LiteratureError).message).toContain('after 3 attempts');
    expect(requests).toHaveLength(3);
  });

  it('does not retry a 400 and reports 429 after the retries as rate-limited', async () => {
    const bad = client([{ status: 400, body: '{"status":"failed"}' }]);
    expect(await rejectionOf(bad.crossref.search(query))).toMatchObject({ code: 'http', status: 400 });
    expect(bad.requests).toHaveLength(1);
    const limited = client([{ status: 429, body: '' }], { retries: 1 });
    expect(await rejectionOf(limited.crossref.search(query))).toMatchObject({ code: 'rate-limited', provider: 'crossref' });
    expect(limited.requests).toHaveLength(2);
  });

  it('retries a network failure and reports unreachable when it persists', async () => {
    const { crossref, requests } = client([{ network: 'getaddrinfo ENOTFOUND api.crossref.org' }], { retries: 1 });
    const error = await rejectionOf(crossref.search(query));
    expect(error).toMatchObject({ code: 'unreachable', provider: 'crossref' });
    expect((error as Error).message).toContain('ENOTFOUND');
    expect(requests).toHaveLength(2);
  });

  it('reports malformed JSON and a JSON body of the wrong shape as malformed', async () => {
    const notJson = client([{ status: 200, body: '<html>maintenance</html>' }]);
    expect(await rejectionOf(notJson.crossref.search(query))).toMatchObject({ code: 'malformed', provider: 'crossref' });
    const wrongShape = client([{ status: 200, body: '{"status":"ok","message":{"items":"none"}}' }]);
    const error = await rejectionOf(wrongShape.crossref.search(query));
    expect(error).toMatchObject({ code: 'malformed' });
    expect((error as Error).message).toContain('total-results');
    expect(notJson.requests).toHaveLength(1); // malformed is not retried
  });

  it('times out an attempt that never answers', async () => {
    const { crossref } = client([{ hang: true }], { timeoutMs: 20 });
    expect(await rejectionOf(crossref.search(query))).toMatchObject({ code: 'timeout', provider: 'crossref' });
  });

  it('rejects with aborted when the caller aborts, in flight or before', async () => {
    const { crossref } = client([{ hang: true }]);
    const controller = new AbortController();
    const pending = crossref.search(query, controller.signal);
    setTimeout(() => controller.abort(), 5);
    expect(await rejectionOf(pending)).toMatchObject({ code: 'aborted', provider: 'crossref' });
    expect(await rejectionOf(crossref.search(query, AbortSignal.abort()))).toMatchObject({ code: 'aborted' });
  });

  it('spaces requests by x-rate-limit-interval / x-rate-limit-limit', async () => {
    const { crossref, requests } = client([ok('crossref-empty.json', { 'x-rate-limit-limit': '1', 'x-rate-limit-interval': '1s' })]);
    await crossref.search(query);
    await crossref.search(query);
    // 1 request per 1 s → the second starts ≥ 1 000 ms after the first.
    expect(requests.map((request) => request.at)).toEqual([0, 1000]);
  });

  it('reads the rate-limit headers: 50 per 1s → 20 ms; 10 per 500ms → 50 ms; missing → undefined', () => {
    expect(crossrefSpacingMs(new Headers({ 'x-rate-limit-limit': '50', 'x-rate-limit-interval': '1s' }))).toBe(20);
    expect(crossrefSpacingMs(new Headers({ 'x-rate-limit-limit': '10', 'x-rate-limit-interval': '500ms' }))).toBe(50);
    expect(crossrefSpacingMs(new Headers({ 'x-rate-limit-limit': '50' }))).toBeUndefined();
  });
});
