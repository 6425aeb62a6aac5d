/**
 * Choosing the publisher adapter for a page: by URL host when a URL is known (the surest
 * signal: a PMC or arXiv copy of an ACS paper must be read as PMC or arXiv), else by a mirror's
 * markup, then by DOI prefix, then by the publisher named in the metadata, then by any
 * adapter's markup (old ScienceDirect and Scitation pages saved without DOI). No match → the
 * generic walk (`genericAdapter`).
 */
import { selectAll } from '../selector-index';
import { hostIs, type AdapterContext, type PublisherAdapter } from './adapter';
import { acsAdapter } from './acs';
import { aipAdapter } from './aip';
import { apsAdapter } from './aps';
import { arxivAdapter } from './arxiv';
import { ecsAdapter } from './ecs';
import { elsevierAdapter } from './elsevier';
import { iopAdapter } from './iop';
import { mdpiAdapter } from './mdpi';
import { pmcAdapter } from './pmc';
import { rscAdapter } from './rsc';
import { springerAdapter } from './springer';
import { wileyAdapter } from './wiley';

/** All publisher adapters. Host-specific mirrors (PMC, arXiv) come first so their markup wins. */
export const PUBLISHER_ADAPTERS: readonly PublisherAdapter[] = [
  pmcAdapter,
  arxivAdapter,
  acsAdapter,
  rscAdapter,
  elsevierAdapter,
  springerAdapter,
  wileyAdapter,
  apsAdapter,
  iopAdapter,
  aipAdapter,
  mdpiAdapter,
  ecsAdapter,
];

/** The walk with no publisher knowledge: content root by scoring, generic exclusions only. */
export const genericAdapter: PublisherAdapter = {
  id: 'generic',
  hosts: [],
  doiPrefixes: [],
  contentRoots: ['[itemprop="articleBody"]', '.article-body', '#article-body', '.articleBody', '.fulltext', '#fulltext'],
  abstract: '[role="doc-abstract"], section.abstract, div.abstract, #abstract, .abstract',
  title: 'h1',
};

/**
 * The adapter for a page. `context.host` decides when it belongs to a known publisher;
 * otherwise the markup of a mirror (PMC, arXiv), the DOI prefix, the publisher name and
 * finally any adapter's distinctive markup are tried in that order.
 */
export function chooseAdapter(context: AdapterContext): PublisherAdapter {
  if (context.host) {
    const byHost = PUBLISHER_ADAPTERS.find((adapter) => adapter.hosts.some((domain) => hostIs(context.host, domain)));
    if (byHost) return byHost;
  }
  // Every adapter's markup is looked for in one walk of the page (`selectAll`), done only when needed.
  let found: Set<Element>[] | undefined;
  const hasMarkup = (adapter: PublisherAdapter): boolean => {
    found ??= selectAll(
      context.document,
      PUBLISHER_ADAPTERS.map((candidate) => candidate.markup ?? ''),
    );
    return (found[PUBLISHER_ADAPTERS.indexOf(adapter)]?.size ?? 0) > 0;
  };
  const byMarkup = (adapters: readonly PublisherAdapter[]): PublisherAdapter | undefined => adapters.find(hasMarkup);
  // Mirrors first: a PMC or arXiv page carries the original publisher's DOI and name.
  const mirror = byMarkup(PUBLISHER_ADAPTERS.filter((adapter) => adapter.mirror));
  if (mirror) return mirror;
  const prefix = context.doi ? context.doi.split('/')[0] : null;
  const byDoi = prefix ? PUBLISHER_ADAPTERS.find((adapter) => adapter.doiPrefixes.includes(prefix)) : undefined;
  if (byDoi) return byDoi;
  const publisher = context.publisher;
  const byName = publisher ? PUBLISHER_ADAPTERS.find((adapter) => adapter.publisherName?.test(publisher)) : undefined;
  return byName ?? byMarkup(PUBLISHER_ADAPTERS) ?? genericAdapter;
}
