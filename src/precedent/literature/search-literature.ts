/**
 * Run one precedent query against several literature providers at once and merge what they
 * found. A provider's failure is reported beside the others' results, never turned into an
 * empty list: "Crossref was rate-limited" and "Crossref found nothing" are different answers
 * (seed 002, §3.2: absence of evidence must be told apart from evidence of absence).
 */
import { titleKey } from './record-text';
import {
  LiteratureError,
  type LiteratureClient,
  type LiteratureErrorCode,
  type LiteratureQuery,
  type LiteratureRecord,
  type LiteratureSource,
} from './types';

/** What one provider was asked and what it said: its hit count, or the error instead. */
export interface ProviderSearch {
  source: LiteratureSource;
  /** The query text the provider was sent. */
  query: string;
  /** The provider's own count of matching works (0 when it failed). */
  total: number;
  /** Present when the provider failed; a serializable copy of the `LiteratureError`. */
  error?: { code: LiteratureErrorCode; message: string };
}

export type LiteratureProgress =
  | { source: LiteratureSource; phase: 'started' }
  | { source: LiteratureSource; phase: 'finished'; total: number; records: number }
  | { source: LiteratureSource; phase: 'failed'; error: { code: LiteratureErrorCode; message: string } };

export interface SearchLiteratureOptions {
  signal?: AbortSignal;
  onProgress?: (event: LiteratureProgress) => void;
}

/**
 * Search every client concurrently and merge: records come in client order, each provider's in
 * its own rank order, deduplicated (`mergeRecords`). Resolves with `{ records, searched }`, one
 * `searched` entry per client in client order. Rejects only when `signal` fires, with a
 * `LiteratureError('aborted')`.
 */
export async function searchLiterature(
  query: LiteratureQuery,
  clients: LiteratureClient[],
  options: SearchLiteratureOptions = {},
): Promise<{ records: LiteratureRecord[]; searched: ProviderSearch[] }> {
  const { signal, onProgress } = options;
  const outcomes = await Promise.all(
    clients.map(async (client) => {
      const searched: ProviderSearch = { source: client.name, query: client.describeQuery(query), total: 0 };
      onProgress?.({ source: client.name, phase: 'started' });
      try {
        const result = await client.search(query, signal);
        searched.total = result.total;
        onProgress?.({ source: client.name, phase: 'finished', total: result.total, records: result.records.length });
        return { searched, records: result.records };
      } catch (error) {
        searched.error =
          error instanceof LiteratureError
            ? { code: error.code, message: error.message }
            : {
                code: 'unreachable',
                message: `the ${client.name} search failed unexpectedly: ${error instanceof Error ? error.message : String(error)}`,
              };
        onProgress?.({ source: client.name, phase: 'failed', error: searched.error });
        return { searched, records: [] };
      }
    }),
  );
  if (signal?.aborted)
    throw new LiteratureError('aborted', clients.map((client) => client.name).join('+'), 'the literature search was cancelled');
  return { records: mergeRecords(outcomes.flatMap((outcome) => outcome.records)), searched: outcomes.map((outcome) => outcome.searched) };
}

/**
 * Deduplicate records, keeping the first of each paper and filling its missing DOI, arXiv id,
 * year and abstract from later copies (Crossref often lacks the abstract OpenAlex has). Two
 * records are the same paper when they share a DOI, or share an arXiv id, or — when at least one
 * has no DOI — have the same title key (`titleKey`). Two different DOIs are never merged, even
 * under one title (a conference paper and its journal version stay apart).
 */
export function mergeRecords(records: LiteratureRecord[]): LiteratureRecord[] {
  const kept: LiteratureRecord[] = [];
  for (const record of records) {
    const key = titleKey(record.title);
    const match = kept.find(
      (other) =>
        (record.doi !== null && other.doi === record.doi) ||
        (record.arxivId !== undefined && other.arxivId === record.arxivId) ||
        ((record.doi === null || other.doi === null) && key !== '' && titleKey(other.title) === key),
    );
    if (!match) {
      kept.push({ ...record, authors: [...record.authors] });
      continue;
    }
    if (match.doi === null && record.doi !== null) match.doi = record.doi;
    if (match.arxivId === undefined && record.arxivId !== undefined) match.arxivId = record.arxivId;
    if (match.year === null && record.year !== null) match.year = record.year;
    if (match.abstract === null && record.abstract !== null) match.abstract = record.abstract;
    if (match.authors.length === 0) match.authors = [...record.authors];
  }
  return kept;
}
