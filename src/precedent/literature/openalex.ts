/**
 * OpenAlex client (https://docs.openalex.org/api-entities/works/search-works, "paging" and
 * "abstract_inverted_index"): full-text search over titles and abstracts of `/works`, paged with
 * `cursor`. OpenAlex ships abstracts only as an inverted index (word → positions), which is
 * rebuilt here.
 */
import { z } from 'zod';
import { abortedError, collectCursorPages, createPoliteGetter, createSystemClock, freeTextQuery } from './polite-http';
import { normalizeDoi } from '../../capture/doi';
import { arxivIdFromDoi, foldWhitespace } from './record-text';
import { LiteratureError, type LiteratureClient, type LiteratureClientOptions, type LiteratureRecord } from './types';

/** Page size `per-page=`: default 25, OpenAlex allows up to 200. */
export interface OpenAlexClientOptions extends LiteratureClientOptions {
  /** Sent as `api_key=`. */
  apiKey: string;
  /** Least time between requests (ms); default 100 (OpenAlex allows 10 per second). */
  minIntervalMs?: number;
}

const OPENALEX_WORKS_URL = 'https://api.openalex.org/works';
const SELECT_FIELDS = 'id,doi,title,display_name,publication_year,authorships,abstract_inverted_index,primary_location';

/** The subset of an OpenAlex work the client reads. */
const openAlexWorkSchema = z.object({
  id: z.string().min(1),
  doi: z.string().nullish(),
  title: z.string().nullish(),
  display_name: z.string().nullish(),
  publication_year: z.number().int().nullish(),
  authorships: z.array(z.object({ author: z.object({ display_name: z.string().nullish() }) })).nullish(),
  abstract_inverted_index: z.record(z.string(), z.array(z.number().int().nonnegative())).nullish(),
  primary_location: z.object({ landing_page_url: z.string().nullish() }).nullish(),
});

const openAlexWorkListSchema = z.object({
  meta: z.object({ count: z.number().int().nonnegative(), next_cursor: z.string().nullish() }),
  results: z.array(openAlexWorkSchema),
});

/**
 * An OpenAlex `LiteratureClient`. One search sends
 * `GET https://api.openalex.org/works?search=<material property terms…>&per-page=N&select=…&api_key=<key>&cursor=*`,
 * then `cursor=<meta.next_cursor>` until it has min(query.rows, maxRecords) records, a page is
 * empty, `next_cursor` is null or `meta.count` is reached. Errors: `LiteratureError` with
 * provider 'openalex' — see `createPoliteGetter`; a body that is not a work list → 'malformed'.
 */
export function createOpenAlexClient(options: OpenAlexClientOptions): LiteratureClient {
  const pageSize = Math.max(1, Math.min(200, options.rows ?? 25));
  const maxRecords = options.maxRecords ?? 100;
  const get = createPoliteGetter({
    provider: 'openalex',
    fetch: options.fetch,
    headers: { accept: 'application/json' },
    timeoutMs: options.timeoutMs ?? 30_000,
    retries: options.retries ?? 3,
    ...(options.backoff ? { backoff: options.backoff } : {}),
    clock: options.clock ?? createSystemClock(),
    minIntervalMs: options.minIntervalMs ?? 100,
  });

  return {
    name: 'openalex',
    describeQuery: freeTextQuery,
    async search(query, signal) {
      const wanted = Math.max(0, Math.min(query.rows, maxRecords));
      const result = await collectCursorPages(
        wanted,
        pageSize,
        async (cursor, rows) => {
          const url = new URL(OPENALEX_WORKS_URL);
          url.searchParams.set('search', freeTextQuery(query));
          url.searchParams.set('per-page', String(rows));
          url.searchParams.set('select', SELECT_FIELDS);
          url.searchParams.set('api_key', options.apiKey);
          url.searchParams.set('cursor', cursor);
          const page = parseWorkList((await get(url.toString(), signal)).body);
          return { items: page.results, total: page.meta.count, next: page.meta.next_cursor ?? undefined };
        },
        toRecord,
      );
      if (signal?.aborted) throw abortedError('openalex');
      return result;
    },
  };
}

/**
 * Rebuild an abstract from OpenAlex's inverted index: each word is placed at each of its
 * positions, then the words are read in position order ({"Tc": [1], "The": [0], "is": [2]} →
 * "The Tc is"). Gaps (positions no word claims) are skipped. Null for an empty index.
 */
export function abstractFromInvertedIndex(index: Record<string, number[]> | null | undefined): string | null {
  if (!index) return null;
  const placed: Array<[number, string]> = [];
  for (const [word, positions] of Object.entries(index)) for (const position of positions) placed.push([position, word]);
  if (placed.length === 0) return null;
  placed.sort((left, right) => left[0] - right[0]);
  return foldWhitespace(placed.map(([, word]) => word).join(' '));
}

function parseWorkList(body: string): z.infer<typeof openAlexWorkListSchema> {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new LiteratureError('malformed', 'openalex', 'the OpenAlex answer was not JSON');
  }
  const parsed = openAlexWorkListSchema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .slice(0, 3)
      .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
      .join('; ');
    throw new LiteratureError('malformed', 'openalex', `the OpenAlex answer is not a work list (${problems})`);
  }
  return parsed.data;
}

function toRecord(work: z.infer<typeof openAlexWorkSchema>): LiteratureRecord | null {
  const title = foldWhitespace(work.title ?? work.display_name ?? '');
  if (title === '') return null;
  const doi = normalizeDoi(work.doi);
  const arxivId = arxivIdFromDoi(doi);
  return {
    source: 'openalex',
    doi,
    ...(arxivId ? { arxivId } : {}),
    title,
    year: work.publication_year ?? null,
    authors: (work.authorships ?? [])
      .map((authorship) => foldWhitespace(authorship.author.display_name ?? ''))
      .filter((name) => name !== ''),
    abstract: abstractFromInvertedIndex(work.abstract_inverted_index),
    url: work.primary_location?.landing_page_url || (doi ? `https://doi.org/${doi}` : work.id),
  };
}
