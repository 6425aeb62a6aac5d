/**
 * HTML capture: a publisher page (live DOM in the extension, jsdom in Node) → `Article`.
 *
 * Steps: read metadata (meta tags, JSON-LD) → reject bot checks and search listings → choose a
 * publisher adapter (`adapters/registry.ts`) → read the abstract → walk the content root(s) into
 * blocks → decide full text vs abstract only → DOI fallbacks (URL, publisher markup, body).
 * The document is only read, never changed: on a live page the reader is still looking at it.
 */
import type { Article, DoiOrigin } from '../../contracts/article';
import { ArticleBuilder } from '../article-builder';
import { doiFromUrl, normalizeDoi } from '../doi';
import { CaptureError } from '../errors';
import type { PublisherAdapter } from './adapters/adapter';
import { chooseAdapter } from './adapters/registry';
import { findBodyDoi } from './body-doi';
import { BodyWalker, type WalkRules, type WalkSelections } from './body-walker';
import { hasPaywallPrompt, rejectNonArticlePages } from './classify-page';
import { findContentRoots } from './content-root';
import { compactText, isHiddenByMarkup } from './dom-text';
import { pageElements, readPageMetadata, type PageMetadata } from './metadata';
import { cleanDocumentTitle } from './title';
import { selectAll, withinSet } from './selector-index';
import { hiddenWithin, styleRuleVisibility, type VisibilityJudge } from './visibility';
import { outermostMembers } from '../tree-walk';

/** How `captureHtml` is told where the page is and what the reader sees of it. */
export interface CaptureHtmlOptions {
  url?: string | null;
  /**
   * Which elements the page hides (`visibility.ts`). The extension passes the browser's computed
   * judgement (`pageVisibility`); without it, inline styles and the page's `<style>` rules decide.
   */
  isHidden?: VisibilityJudge;
}

/** Below this many characters of body text (outside the abstract) a page is a landing page. */
const MIN_FULL_TEXT_CHARS = 2500;
/** An abstract element with less text than this is a link or a label ("Abstract", "View abstract"). */
const MIN_ABSTRACT_CHARS = 24;
/** A page with no abstract and less body text than this holds no article text at all. */
const MIN_LANDING_TEXT_CHARS = 800;
/** Left out of every walk, whatever the adapter: page furniture and back-matter containers. */
const GENERIC_EXCLUDE = [
  'header',
  '[role="banner"]',
  '[role="navigation"]',
  '[role="contentinfo"]',
  '[role="complementary"]',
  '[role="dialog"]',
  '[role="doc-bibliography"]',
  '[role="search"]',
  '[role="toolbar"]',
  '[role="menu"]',
  '[role="tablist"]',
  '#cookie-banner',
  '.cookie-banner',
  '#onetrust-consent-sdk',
  '.cc-banner',
  '.cookies',
  '#cookies',
  '.breadcrumb',
  '.breadcrumbs',
  '.skip-link',
  '.visually-hidden',
  '.sr-only',
  '.screen-reader-text',
  '.affiliations',
  '.author-affiliations',
  '.author-list',
  '.authors-list',
  '.contrib-group',
  '.cited-by',
  '.citedBy',
  '.related-articles',
  '.article-metrics',
  '.social-share',
  '.share-buttons',
].join(', ');

/**
 * Capture the article shown in `document`. `options.url` is the page address (or null for a
 * saved file); it picks the adapter, is the last-but-one DOI fallback and becomes `Article.url`.
 * Text the page hides (by markup or CSS, `options.isHidden`) is never read.
 *
 * Throws `CaptureError`:
 * - `bot-check` for Cloudflare/bot challenge pages,
 * - `search-results` for listings of many articles,
 * - `not-article` when there is neither article text nor an abstract, or no title at all.
 */
export function captureHtml(document: Document, options: CaptureHtmlOptions): Article {
  const elements = pageElements(document);
  const isHidden = options.isHidden ?? styleRuleVisibility(document, elements.styles);
  const metadata = readPageMetadata(document, elements);
  rejectNonArticlePages(document, metadata, elements);
  const url = options.url ?? metadata.canonicalUrl ?? null;
  const adapter = chooseAdapter({
    document,
    url,
    host: hostOf(options.url ?? metadata.canonicalUrl),
    doi: metadata.doi,
    publisher: metadata.publisher,
  });
  const title = pickTitle(document, metadata, adapter, isHidden);
  const warnings: string[] = [];

  // Every selector the capture uses from here on is resolved in one walk of the page.
  const rules = walkRules(adapter, title);
  const [abstractMatches, abstractExcluded, excluded, captions, sectionHeadings, figures, ...contentRoots] = selectAll(document, [
    adapter.abstract ?? '',
    adapter.exclude ?? '',
    rules.exclude,
    rules.caption,
    rules.sectionHeading,
    rules.figure,
    ...adapter.contentRoots,
  ]) as [Set<Element>, Set<Element>, Set<Element>, Set<Element>, Set<Element>, Set<Element>, ...Set<Element>[]];
  const selections: WalkSelections = { excluded, captions, sectionHeadings, figures };
  // Abstract and body are built apart so a landing page can be reduced to its abstract: what
  // else such a page holds is login prompts, reference lists and "cited by" boxes.
  const abstractBuilder = new ArticleBuilder();
  const abstractElements = readAbstract(document, abstractMatches, abstractExcluded, abstractBuilder, selections, rules, isHidden);
  if (abstractElements.length === 0 && metadata.abstract) abstractBuilder.add('paragraph', metadata.abstract, { section: 'Abstract' });
  const bodyBuilder = new ArticleBuilder();
  const abstractSet = new Set(abstractElements);
  const roots = findContentRoots(document, contentRoots, (element) => isHiddenByMarkup(element) || isHidden(element)).filter(
    (root) => !withinSet(root, abstractSet),
  );
  const walker = new BodyWalker(bodyBuilder, rules, abstractSet, selections, isHidden);
  for (const root of roots) walker.walk(root);
  const abstractChars = abstractBuilder.bodyLength;
  const bodyChars = bodyBuilder.bodyLength;

  const doi = resolveDoi(document, metadata, options.url ?? null, bodyBuilder.build().text, adapter);
  if (doi.origin === 'body') warnings.push('No DOI in the page metadata: the DOI was taken from a link or text in the page body.');
  if (!doi.value) warnings.push('No DOI found in the page (metadata, URL or body).');
  if (!title) throw new CaptureError('not-article', 'No article title found: the page has no citation_title, og:title, <h1> or <title>.');

  const fullText = bodyChars >= MIN_FULL_TEXT_CHARS;
  // A page with the paper's metadata but neither an abstract nor text (a 1926 article offered
  // as PDF only, a conference landing page) is still a paper the reader may want on record:
  // it is captured with its DOI and title, no blocks, and a warning saying where the text is.
  // Without article metadata and a DOI the same page is not an article.
  const metadataOnly = !fullText && abstractChars === 0 && bodyChars < MIN_LANDING_TEXT_CHARS;
  if (metadataOnly && !(metadata.articleTagCount > 0 && doi.value)) {
    throw new CaptureError('not-article', 'No article text found on this page: no abstract, no paragraphs, no article metadata.');
  }
  if (!fullText && abstractChars === 0 && metadata.articleTagCount === 0 && !doi.value) {
    throw new CaptureError(
      'not-article',
      'This page has neither article metadata nor an abstract, and little text: it does not look like an article.',
    );
  }
  const abstractOnly = !fullText;
  if (metadataOnly) {
    warnings.push(
      "Only the paper's metadata is on this page: no abstract and no text. Open the full text or the PDF to capture its content.",
    );
  } else if (abstractOnly) {
    warnings.push(
      hasPaywallPrompt(document)
        ? 'Only the abstract is on this page (the full text is behind a paywall or login).'
        : 'Only the abstract is on this page (a landing page without the full text).',
    );
  }
  const builder = metadataOnly
    ? new ArticleBuilder()
    : abstractOnly && abstractChars > 0
      ? abstractBuilder
      : concatenate(abstractBuilder, bodyBuilder);
  const built = builder.build();
  return {
    doi: doi.value,
    doiOrigin: doi.origin,
    title,
    authors: metadata.authors,
    journal: metadata.journal,
    volume: metadata.volume,
    pages: metadata.pages,
    year: metadata.year,
    url,
    source: 'html',
    adapter: adapter.id,
    blocks: built.blocks,
    text: built.text,
    abstractOnly,
    warnings,
  };
}

/** One builder holding the blocks of `first` then `second` (texts are already normalized, so re-adding keeps them). */
function concatenate(first: ArticleBuilder, second: ArticleBuilder): ArticleBuilder {
  const combined = new ArticleBuilder();
  for (const part of [first, second]) {
    for (const block of part.build().blocks)
      combined.add(block.kind, block.text, { section: block.section, preserveLines: block.kind === 'table' });
  }
  return combined;
}

function hostOf(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return null;
  }
}

function walkRules(adapter: PublisherAdapter, title: string | null): WalkRules {
  return {
    exclude: [GENERIC_EXCLUDE, adapter.exclude].filter(Boolean).join(', '),
    caption: adapter.caption ?? '',
    sectionHeading: adapter.sectionHeading ?? '',
    figure: adapter.figure ?? '',
    title,
  };
}

/** Title: metadata, else the adapter's title element or the first `<h1>`, else `<title>` minus the site name. */
function pickTitle(document: Document, metadata: PageMetadata, adapter: PublisherAdapter, isHidden: VisibilityJudge): string | null {
  if (metadata.title) return metadata.title;
  for (const heading of document.querySelectorAll(adapter.title ?? 'h1')) {
    if (isHiddenByMarkup(heading) || hiddenWithin(heading, isHidden)) continue;
    const text = compactText(heading, isHidden);
    if (text.length >= 8) return text;
  }
  return cleanDocumentTitle(metadata.documentTitle);
}

/**
 * Read the abstract element(s) (`matches`: the adapter's abstract selector) into the builder as
 * paragraphs of section "Abstract", and return them so the body walk leaves them out. Matches
 * inside `excluded` (the adapter's exclusions) or hidden are not abstracts; nested matches and
 * repeated texts are read once.
 */
function readAbstract(
  document: Document,
  matches: ReadonlySet<Element>,
  excluded: ReadonlySet<Element>,
  builder: ArticleBuilder,
  selections: WalkSelections,
  rules: WalkRules,
  isHidden: VisibilityJudge,
): Element[] {
  // An abstract inside an excluded area is a cited paper's (ACS "Cited by" reuses .hlFld-Abstract).
  const outer = outermostMembers(document, matches, (element) => isHiddenByMarkup(element) || excluded.has(element) || isHidden(element));
  const read: Element[] = [];
  const seen = new Set<string>();
  for (const element of outer) {
    const text = compactText(element, isHidden);
    // Shorter matches are links or tab labels named "abstract", not an abstract.
    if (text.length < MIN_ABSTRACT_CHARS || seen.has(text)) continue;
    seen.add(text);
    read.push(element);
    // The page-wide selections serve: the walk reads only this element's subtree.
    new BodyWalker(builder, rules, new Set(), selections, isHidden).readAs(element, 'Abstract');
  }
  return read;
}

/** DOI in order of trust: meta tags, JSON-LD, the page URL, the publisher's page markup, the body. */
function resolveDoi(
  document: Document,
  metadata: PageMetadata,
  url: string | null,
  bodyText: string,
  adapter: PublisherAdapter,
): { value: string | null; origin: DoiOrigin | null } {
  if (metadata.doi) return { value: metadata.doi, origin: metadata.doiOrigin };
  const fromUrl = doiFromUrl(url) ?? doiFromUrl(metadata.canonicalUrl);
  if (fromUrl) return { value: fromUrl, origin: 'url' };
  const fromBody = adapter.pageDoi?.(document) ?? normalizeDoi(findBodyDoi(document, bodyText));
  if (fromBody) return { value: fromBody, origin: 'body' };
  return { value: null, origin: null };
}
