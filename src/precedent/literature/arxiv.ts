/**
 * arXiv API client (https://info.arxiv.org/help/api/user-manual.html): an Atom 1.0 feed with
 * OpenSearch totals. The terms of use ask for no more than one request every three seconds
 * (https://info.arxiv.org/help/api/tou.html), enforced here on the injected clock.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { z } from 'zod';
import { abortedError, createPoliteGetter, createSystemClock } from './polite-http';
import { normalizeDoi } from '../../capture/doi';
import { foldWhitespace, stripArxivVersion } from './record-text';
import { LiteratureError, type LiteratureClient, type LiteratureClientOptions, type LiteratureQuery, type LiteratureRecord } from './types';

/** Page size `max_results=`: default 20. */
export interface ArxivClientOptions extends LiteratureClientOptions {
  /** Least time between requests (ms); default 3 000, arXiv's terms of use. */
  minIntervalMs?: number;
}

/** Over https: the query names the reader's material, and the extension's host permission is `https://export.arxiv.org/*`. */
const ARXIV_QUERY_URL = 'https://export.arxiv.org/api/query';
/** arXiv reports a bad query as a feed with one entry whose id starts with this. */
const ARXIV_ERROR_ID = 'http://arxiv.org/api/errors';

const textSchema = z.union([z.string(), z.number()]).transform(String);

/** The subset of an Atom entry the client reads (elements as fast-xml-parser gives them, namespaces kept). */
const arxivEntrySchema = z.object({
  id: textSchema,
  title: textSchema.optional(),
  summary: textSchema.optional(),
  published: textSchema.optional(),
  author: z.array(z.object({ name: textSchema })).optional(),
  'arxiv:doi': textSchema.optional(),
});

const arxivFeedSchema = z.object({
  feed: z.object({
    'opensearch:totalResults': z.coerce.number().int().nonnegative(),
    entry: z.array(arxivEntrySchema).optional(),
  }),
});

/**
 * An arXiv `LiteratureClient`. One search sends
 * `GET https://export.arxiv.org/api/query?search_query=all:"<material>" AND (all:<property> OR all:<term>…)&start=S&max_results=N`
 * (multi-word phrases quoted), S = 0, N, 2N… until it has min(query.rows, maxRecords) records, a
 * page is empty or `opensearch:totalResults` is reached. Errors: `LiteratureError` with provider
 * 'arxiv' — see `createPoliteGetter`; XML that does not validate or is not an Atom feed →
 * 'malformed'; arXiv's own error entry → 'http' with arXiv's message.
 */
export function createArxivClient(options: ArxivClientOptions): LiteratureClient {
  const pageSize = Math.max(1, options.rows ?? 20);
  const maxRecords = options.maxRecords ?? 100;
  const get = createPoliteGetter({
    provider: 'arxiv',
    fetch: options.fetch,
    headers: { accept: 'application/atom+xml' },
    timeoutMs: options.timeoutMs ?? 30_000,
    retries: options.retries ?? 3,
    ...(options.backoff ? { backoff: options.backoff } : {}),
    clock: options.clock ?? createSystemClock(),
    minIntervalMs: options.minIntervalMs ?? 3_000,
  });

  return {
    name: 'arxiv',
    describeQuery: arxivSearchQuery,
    async search(query, signal) {
      const wanted = Math.max(0, Math.min(query.rows, maxRecords));
      const records: LiteratureRecord[] = [];
      let total = 0;
      for (let start = 0; records.length < wanted;) {
        const url = new URL(ARXIV_QUERY_URL);
        url.searchParams.set('search_query', arxivSearchQuery(query));
        url.searchParams.set('start', String(start));
        url.searchParams.set('max_results', String(Math.min(pageSize, wanted)));
        const { body } = await get(url.toString(), signal);
        const page = parseFeed(body);
        total = page.total;
        for (const record of page.records) if (records.length < wanted) records.push(record);
        start += page.entryCount;
        if (page.entryCount === 0 || start >= total) break;
      }
      if (signal?.aborted) throw abortedError('arxiv');
      return { records, total };
    },
  };
}

/** `all:"MgB2" AND (all:superconductivity OR all:"critical temperature")` — the arXiv search_query. */
export function arxivSearchQuery(query: LiteratureQuery): string {
  const field = (text: string): string => {
    const folded = foldWhitespace(text.replaceAll('"', ''));
    return folded.includes(' ') ? `all:"${folded}"` : `all:${folded}`;
  };
  const alternatives = [...new Set([query.property, ...query.terms].map(foldWhitespace).filter((term) => term !== ''))].map(field);
  const material = `all:"${foldWhitespace(query.material.replaceAll('"', ''))}"`;
  if (alternatives.length === 0) return material;
  return `${material} AND ${alternatives.length === 1 ? alternatives[0] : `(${alternatives.join(' OR ')})`}`;
}

function parseFeed(body: string): { total: number; entryCount: number; records: LiteratureRecord[] } {
  const validation = XMLValidator.validate(body);
  if (validation !== true) {
    throw new LiteratureError('malformed', 'arxiv', `the arXiv answer is not XML (${validation.err.msg} at line ${validation.err.line})`);
  }
  const parser = new XMLParser({
    ignoreAttributes: true,
    parseTagValue: false,
    trimValues: true,
    isArray: (name) => name === 'entry' || name === 'author',
  });
  const parsed = arxivFeedSchema.safeParse(parser.parse(body) as unknown);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .slice(0, 3)
      .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
      .join('; ');
    throw new LiteratureError('malformed', 'arxiv', `the arXiv answer is not an Atom feed (${problems})`);
  }
  const entries = parsed.data.feed.entry ?? [];
  const failure = entries.find((entry) => entry.id.startsWith(ARXIV_ERROR_ID));
  if (failure) throw new LiteratureError('http', 'arxiv', `arXiv rejected the query: ${foldWhitespace(failure.summary ?? failure.id)}`);
  return {
    total: parsed.data.feed['opensearch:totalResults'],
    entryCount: entries.length,
    records: entries.flatMap((entry) => {
      const record = toRecord(entry);
      return record ? [record] : [];
    }),
  };
}

function toRecord(entry: z.infer<typeof arxivEntrySchema>): LiteratureRecord | null {
  const title = foldWhitespace(entry.title ?? '');
  const marker = '/abs/';
  const at = entry.id.indexOf(marker);
  if (title === '' || at < 0) return null;
  const summary = foldWhitespace(entry.summary ?? '');
  const year = Number.parseInt((entry.published ?? '').slice(0, 4), 10);
  return {
    source: 'arxiv',
    doi: normalizeDoi(entry['arxiv:doi']),
    arxivId: stripArxivVersion(entry.id.slice(at + marker.length)),
    title,
    year: Number.isInteger(year) ? year : null,
    authors: (entry.author ?? []).map((author) => foldWhitespace(author.name)).filter((name) => name !== ''),
    abstract: summary === '' ? null : summary,
    url: entry.id,
  };
}
