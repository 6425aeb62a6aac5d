/**
 * The bridge from the open-literature search to the precedent judge: the query a precedent
 * question becomes, each found abstract as a `RetrievedText`, and each provider's outcome as one
 * plain line ("Crossref: 12 found", "OpenAlex: unreachable — …").
 */
import { isSuperconductivityProperty } from '../judge/judge-prompts';
import type { RetrievedText } from '../judge/judge-schema';
import type { ProviderSearch } from './search-literature';
import type { LiteratureErrorCode, LiteratureQuery, LiteratureRecord, LiteratureSource } from './types';

/** Records each provider is asked for when the caller does not say (`rows`). */
export const DEFAULT_LITERATURE_ROWS = 10;

/** Failures that mean the machine could not reach the provider at all (no network). */
const NETWORK_FAILURES: ReadonlySet<LiteratureErrorCode> = new Set(['unreachable', 'timeout']);

const PROVIDER_LABELS: Record<LiteratureSource, string> = { crossref: 'Crossref', arxiv: 'arXiv', openalex: 'OpenAlex' };

/** The provider's name as people write it (`Crossref`, `arXiv`, `OpenAlex`). */
export function providerLabel(source: LiteratureSource): string {
  return PROVIDER_LABELS[source];
}

/**
 * The literature query for a precedent question. For `tc` (or a superconductivity synonym):
 * property `superconductivity`, terms `superconducting` and `critical temperature`. For another
 * property: its name with `_`/`-` read as spaces and no extra terms. `rows` defaults to
 * `DEFAULT_LITERATURE_ROWS`.
 */
export function literatureQueryFor(material: string, property: string, rows: number = DEFAULT_LITERATURE_ROWS): LiteratureQuery {
  if (isSuperconductivityProperty(property)) {
    return { material, property: 'superconductivity', terms: ['superconducting', 'critical temperature'], rows };
  }
  return { material, property: property.trim().replace(/[_-]+/g, ' '), terms: [], rows };
}

/**
 * A record the judge can read, or null when it has no abstract (a title alone rarely states a
 * value, and the judge must quote). `id` is the DOI, else the arXiv id, else the landing URL;
 * `text` is the title, a blank line, then the abstract; `origin` the provider (`crossref`, …).
 */
export function recordToRetrievedText(record: LiteratureRecord): RetrievedText | null {
  if (record.abstract === null || record.abstract.trim() === '') return null;
  return {
    id: record.doi ?? record.arxivId ?? record.url,
    doi: record.doi,
    title: record.title,
    year: record.year,
    text: `${record.title}\n\n${record.abstract}`,
    origin: record.source,
  };
}

/** One provider's outcome for `searched`: `12 found (5 with an abstract)`, or `unreachable — <message>`. */
export function providerNote(search: ProviderSearch, withAbstract: number): string {
  if (search.error) return `${search.error.code} — ${search.error.message}`;
  return `${search.total} found (${withAbstract} with an abstract)`;
}

/** True when every provider failed and every failure was a network one (`unreachable`, `timeout`); false for no providers. */
export function everyProviderOffline(searched: readonly ProviderSearch[]): boolean {
  return searched.length > 0 && searched.every((search) => search.error !== undefined && NETWORK_FAILURES.has(search.error.code));
}
