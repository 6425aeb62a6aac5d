/**
 * Shapes shared by the open-literature clients of the precedent check (issue 6): one record per
 * paper found (title and abstract for the judge model), the query they answer, the client port
 * and the one error type every provider failure becomes. Records are validated with zod at the
 * boundary, so a provider's surprise never reaches the judge as a half-filled object.
 */
import { z } from 'zod';

export const literatureSourceSchema = z.enum(['crossref', 'arxiv', 'openalex']);
export type LiteratureSource = z.infer<typeof literatureSourceSchema>;

/**
 * One paper as a provider described it. `doi` is bare and lower-case ("10.1103/physrevb.1.1"),
 * `arxivId` has no version suffix ("2101.00001", "cond-mat/0102345"), `year` is the issue or
 * first-publication year, `abstract` is plain text (never markup), `url` the landing page.
 */
export const literatureRecordSchema = z.object({
  source: literatureSourceSchema,
  doi: z.string().min(1).nullable(),
  arxivId: z.string().min(1).optional(),
  title: z.string().min(1),
  year: z.number().int().nullable(),
  authors: z.array(z.string()),
  abstract: z.string().min(1).nullable(),
  url: z.string().min(1),
});
export type LiteratureRecord = z.infer<typeof literatureRecordSchema>;

/**
 * What to look for: a material ("MgB2"), the property ("superconductivity"), extra terms that
 * may stand in for the property ("critical temperature") and how many records each provider
 * should return at most (`rows`; providers also apply their own `maxRecords` cap).
 */
export interface LiteratureQuery {
  material: string;
  property: string;
  terms: string[];
  rows: number;
}

export const literatureErrorCodeSchema = z.enum([
  'rate-limited', // HTTP 429 after the retries
  'http', // another non-2xx answer, or a provider-level error document
  'unreachable', // connection refused, DNS, offline
  'timeout', // one attempt exceeded the client's timeoutMs
  'malformed', // a 2xx body that is not the provider's documented format
  'aborted', // the caller's AbortSignal fired
]);
export type LiteratureErrorCode = z.infer<typeof literatureErrorCodeSchema>;

/** A provider failure, with the provider's name ("crossref") and the HTTP status when there was one. */
export class LiteratureError extends Error {
  readonly code: LiteratureErrorCode;
  readonly provider: string;
  readonly status: number | undefined;

  constructor(code: LiteratureErrorCode, provider: string, message: string, status?: number) {
    super(message);
    this.name = 'LiteratureError';
    this.code = code;
    this.provider = provider;
    this.status = status;
  }
}

/** What one search returned: the records (at most the query's `rows`) and the provider's own hit count. */
export interface LiteratureSearchResult {
  records: LiteratureRecord[];
  total: number;
}

/**
 * A literature provider. `search` rejects only with `LiteratureError`. `describeQuery` gives the
 * query text the provider is sent (for the answer's "searched" list, even when the search fails).
 */
export interface LiteratureClient {
  name: LiteratureSource;
  describeQuery(query: LiteratureQuery): string;
  search(query: LiteratureQuery, signal?: AbortSignal): Promise<LiteratureSearchResult>;
}

/** Time as the clients see it (injected so tests can run the rate limits on a fake clock). */
export interface LiteratureClock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolve after `milliseconds`; reject when `signal` fires. */
  sleep(milliseconds: number, signal?: AbortSignal): Promise<void>;
}

/** Options every literature client takes; each client's docstring gives its own defaults. */
export interface LiteratureClientOptions {
  fetch: typeof globalThis.fetch;
  /** Page size: the most items one request asks for. */
  rows?: number;
  /** Most records one search returns, whatever the query asks; default 100. */
  maxRecords?: number;
  /** Per attempt (ms); default 30 000. */
  timeoutMs?: number;
  /** Extra attempts for 429, 5xx and network errors; default 3. */
  retries?: number;
  /** Backoff between attempts (ms); defaults 1 000 and 30 000. */
  backoff?: { minTimeoutMs?: number; maxTimeoutMs?: number };
  /** Clock and sleep for request spacing and Retry-After (tests pass a fake one). */
  clock?: LiteratureClock;
}
