/**
 * The DOI of a page that has no DOI meta tag (old ScienceDirect pages, Scitation body fragments),
 * looked for in the body: first a `doi.org` link in the article header area (the link a
 * publisher prints under the title), then the first DOI written in the captured body text, which
 * no longer holds the reference list. A DOI found this way is a fallback: the caller records `doiOrigin: 'body'` and
 * a warning, because a body DOI can also be a cited paper's.
 */
import { findDois, normalizeDoi } from '../doi';
import { compactText } from './dom-text';
import { outermostMembers, walkElements } from '../tree-walk';
import { selectAll } from './selector-index';

/** Where cited works are listed: their DOIs are never the article's own. */
const REFERENCE_CONTAINERS =
  'ol.references, .references, .ref-list, #references, .bibliography, .Bibliography, #Bib1, .citation-list, ' +
  '.NLM_citation, .cit-list, [role="doc-bibliography"], .ltx_bibliography, .article-section__references, ' +
  '#html-references_list, .c-article-references, .referencedArticles, #refersToAndreferredToBy, .casAbstract, ' +
  '.citedBy, .cited-by, .related, .related-content, .recommended, li.ref, .reference';
/** The header area of an article page, where the article's own DOI link is printed. */
const HEADER_AREAS =
  '.publicationHead, .article-header, .ArticleHeader, .c-article-header, header, .article-meta, .publicationContentCitation, ' +
  '.citation, .doi, .svDoi, .slug-doi, .article-info, .epub-section, .articleInfo, #article-header, .article__header';
/** A link to a DOI: a resolver (`doi.org/10.…`) or a publisher `/doi/…/10.…` path. */
const DOI_HREF = /(?:doi\.org\/|\/doi\/(?:abs\/|full\/|pdf\/)?)10\.\d{4,9}\//i;

/**
 * The article's DOI found in the body of `document`, or null: a DOI link (or "doi: 10.…" text)
 * in the article header area, else the first DOI written in `bodyText`, the text the capture
 * kept (reference lists, "cited by" boxes and page furniture already left out). Only outermost
 * header areas are read (an inner one holds a part of the same links and text), outside
 * reference containers: one walk of the page.
 */
export function findBodyDoi(document: Document, bodyText: string): string | null {
  const [references = new Set<Element>(), headerAreas = new Set<Element>()] = selectAll(document, [REFERENCE_CONTAINERS, HEADER_AREAS]);
  const inReferences = (element: Element): boolean => references.has(element);
  for (const area of outermostMembers(document, headerAreas, inReferences)) {
    for (const link of doiLinks(area, inReferences)) {
      const doi = normalizeDoi(link.getAttribute('href'));
      if (doi) return doi;
    }
    const written = /\bdoi\s*:?\s*(10\.\d{4,9}\/\S+)/i.exec(compactText(area, inReferences));
    if (written?.[1]) {
      const doi = normalizeDoi(written[1]);
      if (doi) return doi;
    }
  }
  return firstTextDoi(bodyText);
}

/** DOI links under `root`, in document order, leaving out subtrees for which `skip` holds. */
function doiLinks(root: Element, skip: (element: Element) => boolean): Element[] {
  const links: Element[] = [];
  walkElements(root, (element) => {
    if (skip(element)) return false;
    if (element.localName.toLowerCase() === 'a' && DOI_HREF.test(element.getAttribute('href') ?? '')) links.push(element);
    return true;
  });
  return links;
}

/** The first DOI in a text, preferring one marked as such ("doi:", "doi.org/") over a bare one. */
function firstTextDoi(text: string): string | null {
  const marked = /\bdoi\s*:?\s*(10\.\d{4,9}\/\S+)|doi\.org\/(10\.\d{4,9}\/\S+)/i.exec(text);
  const candidate = marked?.[1] ?? marked?.[2];
  if (candidate) return normalizeDoi(candidate);
  return findDois(text)[0] ?? null;
}
