import { describe, expect, it } from 'vitest';
import { abstractFromInvertedIndex, createOpenAlexClient } from '../../../../src/precedent/literature/openalex';
import type { LiteratureQuery } from '../../../../src/precedent/literature/types';
import { createFakeClock, fixture, rejectionOf, scriptedFetch, type Step } from './fake-http';

const query: LiteratureQuery = { material: 'MgB2', property: 'superconductivity', terms: ['Tc'], rows: 10 };
const fast = { backoff: { minTimeoutMs: 1, maxTimeoutMs: 2 } };
const ok = (name: string): Step => ({ status: 200, body: fixture(name), headers: { 'content-type': 'application/json' } });

function client(steps: Step[], extra: Partial<Parameters<typeof createOpenAlexClient>[0]> = {}) {
  const clock = createFakeClock();
  const scripted = scriptedFetch(steps, clock);
  const openAlex = createOpenAlexClient({ fetch: scripted.fetch, apiKey: 'key-123', rows: 2, clock, ...fast, ...extra });
  return { openAlex, clock, requests: scripted.requests };
}

describe('abstractFromInvertedIndex', () => {
  it('places each word at each of its positions and reads them in order', () => {
    expect(abstractFromInvertedIndex({ Tc: [1], The: [0], is: [2], high: [4], very: [3] })).toBe('The Tc is very high');
    expect(abstractFromInvertedIndex({ the: [0, 2], of: [1] })).toBe('the of the');
    expect(abstractFromInvertedIndex({})).toBeNull();
    expect(abstractFromInvertedIndex(null)).toBeNull();
  });
});

describe('createOpenAlexClient', () => {
  it('reads a work DOI with the capture reader: a DOI is kept without the words after it, "10." inside other text is no DOI', async () => {
    // The literature clients once had their own normalizeDoi, which took everything from the first
    // "10." on: "10.1038/35065039 (retracted)" kept " (retracted)", and "version 10.2/draft" became
    // the DOI "10.2/draft". src/capture/doi.ts's reader (the only one now) reads the first as the
    // bare DOI and rejects the second (a DOI prefix has 4 to 9 digits).
    const work = (id: string, doi: string) => ({ id, doi, title: id, publication_year: 2001 });
    const body = JSON.stringify({
      meta: { count: 2, next_cursor: null },
      results: [
        work('https://openalex.org/W1', 'https://doi.org/10.1038/35065039 (retracted)'),
        work('https://openalex.org/W2', 'version 10.2/draft'),
      ],
    });
    const { openAlex } = client([{ status: 200, body, headers: { 'content-type': 'application/json' } }]);
    const { records } = await openAlex.search(query);
    expect(records.map((record) => record.doi)).toEqual(['10.1038/35065039', null]);
  });

  it('asks /works with search, per-page, api_key and cursor=*', async () => {
    const { openAlex, requests } = client([ok('openalex-empty.json')]);
    await openAlex.search(query);
    const url = requests[0]!.url;
    expect(url.origin + url.pathname).toBe('https://api.openalex.org/works');
    expect(url.searchParams.get('search')).toBe('MgB2 superconductivity Tc');
    expect(url.searchParams.get('per-page')).toBe('2');
    expect(url.searchParams.get('api_key')).toBe('key-123');
    expect(url.searchParams.get('cursor')).toBe('*');
  });

  it('parses works, rebuilds abstracts and pages by next_cursor until it is null', async () => {
    const { openAlex, requests } = client([ok('openalex-page1.json'), ok('openalex-page2.json')]);
    const { records, total } = await openAlex.search(query);
    expect(total).toBe(3);
    expect(requests.map((request) => request.url.searchParams.get('cursor'))).toEqual([
      '*',
      'IlsxNjA5MzcyODAwMDAwLCAnaHR0cHM6Ly9vcGVuYWxleC5vcmcvVzI0ODg0OTk3NjQnXSI=',
    ]);
    expect(records).toEqual([
      {
        source: 'openalex',
        doi: '10.1038/35065039',
        title: 'Superconductivity at 39 K in magnesium diboride',
        year: 2001,
        authors: ['Jun Nagamatsu', 'Jun Akimitsu'],
        // "MgB2" sits at positions 4 and 8.
        abstract: 'We report superconductivity in MgB2 at 39 K; MgB2 is simple.',
        url: 'https://doi.org/10.1038/35065039',
      },
      {
        source: 'openalex',
        doi: '10.48550/arxiv.2101.00001',
        arxivId: '2101.00001',
        title: 'Two-gap superconductivity in MgB2 thin films',
        year: 2021,
        authors: ['A. Author'],
        abstract: null,
        url: 'https://arxiv.org/abs/2101.00001',
      },
      {
        source: 'openalex',
        doi: null,
        title: 'Magnetic penetration depth of MgB2', // display_name stands in for a null title
        year: null,
        authors: [],
        abstract: null,
        url: 'https://openalex.org/W4000000002',
      },
    ]);
  });

  it('returns no records for an empty result', async () => {
    const { openAlex } = client([ok('openalex-empty.json')]);
    expect(await openAlex.search(query)).toEqual({ records: [], total: 0 });
  });

  it('waits out Retry-After on a 429, then succeeds', async () => {
    const { openAlex, clock, requests } = client([
      { status: 429, body: '{"error":"rate limit"}', headers: { 'retry-after': '1' } },
      ok('openalex-empty.json'),
    ]);
    await openAlex.search(query);
    expect(clock.sleeps).toEqual([1000]);
    expect(requests).toHaveLength(2);
  });

  it('retries a 500 then succeeds; a persistent 503 ends in an http error with the status', async () => {
    const flaky = client([{ status: 500, body: '' }, ok('openalex-empty.json')]);
    expect((await flaky.openAlex.search(query)).total).toBe(0);
    const down = client([{ status: 503, body: '' }], { retries: 2 });
    const error = await rejectionOf(down.openAlex.search(query));
    expect(error).toMatchObject({ code: 'http', provider: 'openalex', status: 503 });
    expect((error as Error).message).toContain('HTTP 503');
    expect(down.requests).toHaveLength(3);
  });

  it('keeps the api_key out of error messages', async () => {
    const { openAlex } = client([{ status: 403, body: 'forbidden' }]);
    const error = await rejectionOf(openAlex.search(query));
    expect(error).toMatchObject({ code: 'http', status: 403 });
    expect((error as Error).message).not.toContain('key-123');
  });

  it('reports malformed JSON and a missing meta as malformed', async () => {
    const notJson = client([{ status: 200, body: '{"meta":' }]);
    expect(await rejectionOf(notJson.openAlex.search(query))).toMatchObject({ code: 'malformed', provider: 'openalex' });
    const noMeta = client([{ status: 200, body: '{"results":[]}' }]);
    expect(await rejectionOf(noMeta.openAlex.search(query))).toMatchObject({ code: 'malformed', provider: 'openalex' });
  });

  it('rejects with aborted when the caller aborts', async () => {
    const { openAlex } = client([{ hang: true }]);
    const controller = new AbortController();
    const pending = openAlex.search(query, controller.signal);
    setTimeout(() => controller.abort(), 5);
    expect(await rejectionOf(pending)).toMatchObject({ code: 'aborted', provider: 'openalex' });
  });
});
