/**
 * Crossref REST API client (https://api.crossref.org/swagger-ui/index.html, "Etiquette" and
 * "Rate limits" in https://www.crossref.org/documentation/retrieve-metadata/rest-api/): the
 * source the SuperCon precedent paper used to find DOIs (seed 002, §3.1). Searches `/works` by
 * `query.bibliographic`, pages with `cursor`, joins the polite pool with `mailto` and a
 * User-Agent naming it, and spaces requests by the `x-rate-limit-limit` / `x-rate-limit-interval`
 * headers each response carries.
 */
import { z } from 'zod';
import { abortedError, collectCursorPages, createPoliteGetter, createSystemClock, freeTextQuery } from './polite-http';
import { normalizeDoi } from '../../capture/doi';
import { foldWhitespace, jatsToText } from './record-text';
import { LiteratureError, type LiteratureClient, type LiteratureClientOptions, type LiteratureRecord } from './types';

/** Page size `rows=`: default 20, Crossref allows up to 1 000. */
export interface CrossrefClientOptions extends LiteratureClientOptions {
  /** Contact address for the polite pool (sent as `mailto=` and in the User-Agent). */
  mailto: string;
}

const CROSSREF_WORKS_URL = 'https://api.crossref.org/works';
const SELECT_FIELDS = 'DOI,title,author,issued,abstract,URL';

/** The subset of a Crossref work the client reads (a narrowed third-party type). */
const crossrefWorkSchema = z.object({
  DOI: z.string().min(1),
  title: z.array(z.string()).optional(),
  author: z.array(z.object({ given: z.string().optional(), family: z.string().optional(), name: z.string().optional() })).optional(),
  issued: z.object({ 'date-parts': z.array(z.array(z.number().nullable())) }).optional(),
  abstract: z.string().optional(),
  URL: z.string().optional(),
});

const crossrefWorkListSchema = z.object({
  status: z.literal('ok'),
  message: z.object({
    'total-results': z.number().int().nonnegative(),
    items: z.array(crossrefWorkSchema),
    'next-cursor': z.string().optional(),
  }),
});

/**
 * A Crossref `LiteratureClient`. One search sends
 * `GET https://api.crossref.org/works?query.bibliographic=<material property terms…>&rows=N&select=DOI,title,author,issued,abstract,URL&mailto=<mailto>&cursor=*`
 * then repeats with `cursor=<next-cursor>` until it has min(query.rows, maxRecords) records, a
 * page comes back empty, or `total-results` is reached. Items without a title are skipped (they
 * give the judge nothing to read). Errors: `LiteratureError` with provider 'crossref' — see
 * `createPoliteGetter`; a body that is not a Crossref work list → 'malformed'.
 */
export function createCrossrefClient(options: CrossrefClientOptions): LiteratureClient {
  const pageSize = Math.max(1, Math.min(1000, options.rows ?? 20));
  const maxRecords = options.maxRecords ?? 100;
  const get = createPoliteGetter({
    provider: 'crossref',
    fetch: options.fetch,
    headers: { accept: 'application/json', 'user-agent': `Assay/0.1 (mailto:${options.mailto})` },
    timeoutMs: options.timeoutMs ?? 30_000,
    retries: options.retries ?? 3,
    ...(options.backoff ? { backoff: options.backoff } : {}),
    clock: options.clock ?? createSystemClock(),
    minIntervalMs: 0,
    intervalFromHeaders: crossrefSpacingMs,
  });

  return {
    name: 'crossref',
    describeQuery: freeTextQuery,
    async search(query, signal) {
      const wanted = Math.max(0, Math.min(query.rows, maxRecords));
      const result = await collectCursorPages(
        wanted,
        pageSize,
        async (cursor, rows) => {
          const url = new URL(CROSSREF_WORKS_URL);
          url.searchParams.set('query.bibliographic', freeTextQuery(query));
          url.searchParams.set('rows', String(rows));
          url.searchParams.set('select', SELECT_FIELDS);
          url.searchParams.set('mailto', options.mailto);
          url.searchParams.set('cursor', cursor);
          const page = parseWorkList((await get(url.toString(), signal)).body);
          return { items: page.items, total: page['total-results'], next: page['next-cursor'] };
        },
        toRecord,
      );
      if (signal?.aborted) throw abortedError('crossref');
      return result;
    },
  };
}

/**
 * Spacing between requests (ms) from Crossref's headers: interval / limit, e.g. "50" requests
 * per "1s" → 20 ms. Undefined when either header is missing or unreadable.
 */
export function crossrefSpacingMs(headers: Headers): number | undefined {
  const limit = Number(headers.get('x-rate-limit-limit'));
  const interval = parseIntervalMs(headers.get('x-rate-limit-interval'));
  if (!Number.isFinite(limit) || limit <= 0 || interval === undefined) return undefined;
  return interval / limit;
}

/** "1s" → 1000, "500ms" → 500, "1m" → 60 000, "2" (seconds) → 2000; undefined otherwise. */
function parseIntervalMs(value: string | null): number | undefined {
  const match = value?.trim().match(/^(\d+(?:\.\d+)?)\s*(ms|s|m|h)?$/u);
  if (!match) return undefined;
  const unitMs = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[(match[2] ?? 's') as 'ms' | 's' | 'm' | 'h'];
  return Number(match[1]) * unitMs;
}

function parseWorkList(body: string): z.infer<typeof crossrefWorkListSchema>['message'] {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new LiteratureError('malformed', 'crossref', 'the Crossref answer was not JSON');
  }
  const parsed = crossrefWorkListSchema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .slice(0, 3)
      .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
      .join('; ');
    throw new LiteratureError('malformed', 'crossref', `the Crossref answer is not a work list (${problems})`);
  }
  return parsed.data.message;
}

function toRecord(item: z.infer<typeof crossrefWorkSchema>): LiteratureRecord | null {
  const title = foldWhitespace(item.title?.[0] ?? '');
  const doi = normalizeDoi(item.DOI);
  if (title === '' || !doi) return null;
  const year = item.issued?.['date-parts'][0]?.[0] ?? null;
  return {
    source: 'crossref',
    doi,
    title,
    year,
    authors: (item.author ?? [])
      .map((author) => foldWhitespace(author.name ?? [author.given, author.family].filter(Boolean).join(' ')))
      .filter((name) => name !== ''),
    abstract: item.abstract ? jatsToText(item.abstract) : null,
    url: item.URL || `https://doi.org/${doi}`,
  };
}
