import { describe, expect, it } from 'vitest';
import { CaptureError } from '../../../../src/capture/errors';
import { cleanDocumentTitle } from '../../../../src/capture/html/title';
import { captureString, filler, page, textsOf } from './html-test-helpers';

/** The error code `captureString` throws for `html`, or a failure message when it does not throw. */
function captureErrorCode(html: string, url: string | null = null): string {
  try {
    captureString(html, url);
  } catch (error) {
    if (error instanceof CaptureError) return error.code;
    throw error;
  }
  return 'no error thrown';
}

const ARTICLE_HEAD = `
  <title>Sodium storage in hard carbon | Example Journal</title>
  <meta name="citation_title" content="Sodium storage in hard carbon">
  <meta name="citation_doi" content="10.5555/hc.2020.1">
  <meta name="citation_author" content="Rosa Diaz">
  <meta name="citation_publication_date" content="2020/05/01">`;
const ABSTRACT = '<section class="abstract"><h2>Abstract</h2><p>Hard carbon anodes reach 300 mAh/g in sodium cells at C/10.</p></section>';
const BODY = `<article><h2>Introduction</h2><p>${filler('hard carbon')}</p><p>${filler('sodium')}</p><p>${filler('anode')}</p>
  <h2>References</h2><ol><li>R. Author, J. Power Sources 1 (2000) 1. doi:10.5555/cited.1</li></ol></article>`;

describe('captureHtml: a full article', () => {
  it('captures metadata, the abstract first, then sections, without references', () => {
    const article = captureString(page(ARTICLE_HEAD, ABSTRACT + BODY));
    expect(article).toMatchObject({
      doi: '10.5555/hc.2020.1',
      doiOrigin: 'meta',
      title: 'Sodium storage in hard carbon',
      year: 2020,
      source: 'html',
      adapter: 'generic',
      abstractOnly: false,
    });
    expect(article.authors).toEqual(['Rosa Diaz']);
    expect(article.blocks[0]).toMatchObject({ kind: 'paragraph', section: 'Abstract' });
    expect(article.blocks[0]?.text).toContain('300 mAh/g');
    expect(textsOf(article, 'heading')).toEqual(['Introduction']);
    expect(article.text).not.toContain('J. Power Sources');
    expect(article.warnings).toEqual([]);
  });

  it('uses the page URL for Article.url and keeps a later canonical link out of it', () => {
    const article = captureString(
      page(ARTICLE_HEAD + '<link rel="canonical" href="https://example.org/c">', ABSTRACT + BODY),
      'https://example.org/live',
    );
    expect(article.url).toBe('https://example.org/live');
  });
});

describe('captureHtml: DOI priority', () => {
  const bodyWithDois = `<header class="article-header"><a href="https://doi.org/10.5555/header.1">https://doi.org/10.5555/header.1</a></header>${ABSTRACT}${BODY}`;

  it('prefers the meta DOI over the URL and the body', () => {
    const article = captureString(page(ARTICLE_HEAD, bodyWithDois), 'https://doi.org/10.5555/url.1');
    expect([article.doi, article.doiOrigin]).toEqual(['10.5555/hc.2020.1', 'meta']);
  });

  it('takes JSON-LD next, then the URL', () => {
    const noDoiHead = '<meta name="citation_title" content="T">';
    const jsonLd =
      '<script type="application/ld+json">{"@type":"ScholarlyArticle","headline":"T","identifier":"doi:10.5555/ld.1"}</script>';
    expect(captureString(page(noDoiHead + jsonLd, bodyWithDois), 'https://doi.org/10.5555/url.1')).toMatchObject({
      doi: '10.5555/ld.1',
      doiOrigin: 'json-ld',
    });
    expect(captureString(page(noDoiHead, bodyWithDois), 'https://pubs.example.org/doi/full/10.5555/url.1')).toMatchObject({
      doi: '10.5555/url.1',
      doiOrigin: 'url',
    });
  });

  it('falls back to a doi.org link in the article header, with a warning', () => {
    const article = captureString(page('<meta name="citation_title" content="T">', bodyWithDois));
    expect([article.doi, article.doiOrigin]).toEqual(['10.5555/header.1', 'body']);
    expect(article.warnings.join(' ')).toMatch(/DOI was taken from .* body/);
  });

  it('never takes a DOI from the reference list, and says so when there is none', () => {
    const article = captureString(page('<meta name="citation_title" content="T">', ABSTRACT + BODY));
    expect(article.doi).toBeNull();
    expect(article.doiOrigin).toBeNull();
    expect(article.warnings.join(' ')).toMatch(/No DOI found/);
  });
});

describe('captureHtml: title', () => {
  it('uses the article <h1> when there is no title metadata', () => {
    expect(captureString(page('<title>Site</title>', `<h1>Thermal conductivity of Bi2Te3 films</h1>${ABSTRACT}${BODY}`)).title).toBe(
      'Thermal conductivity of Bi2Te3 films',
    );
  });

  it('uses <title> minus the site suffix as the last resort', () => {
    expect(captureString(page('<title>Ionic conductivity of LLZO - ScienceDirect</title>', ABSTRACT + BODY)).title).toBe(
      'Ionic conductivity of LLZO',
    );
    expect(cleanDocumentTitle('Two-dimensional InP : Article : Nature Materials')).toBe('Two-dimensional InP');
    expect(cleanDocumentTitle('Graphene oxide | Nature')).toBe('Graphene oxide');
  });

  it('rejects a page with text but no title at all', () => {
    expect(captureErrorCode(`<html><body>${ABSTRACT}${BODY}</body></html>`)).toBe('not-article');
  });
});

describe('captureHtml: page classification', () => {
  it('rejects a Cloudflare challenge page as bot-check', () => {
    const challenge = page(
      '<title>Just a moment...</title>',
      '<div id="challenge-error-title">Enable JavaScript and cookies to continue</div><script src="/cdn-cgi/challenge-platform/h/b/orchestrate/chl_page/v1"></script>',
    );
    expect(captureErrorCode(challenge)).toBe('bot-check');
    expect(captureErrorCode(page('<title>Attention Required! | Cloudflare</title>', '<p>Sorry, you have been blocked</p>'))).toBe(
      'bot-check',
    );
  });

  it('rejects a search-results listing as search-results', () => {
    const items = Array.from(
      { length: 12 },
      (_, index) =>
        `<div class="capsule capsule--article"><h3 class="capsule__title">Paper ${index}</h3><p>${filler(`item ${index}`, 2)}</p></div>`,
    ).join('');
    expect(captureErrorCode(page('<title>Search Results for RSC Publishing</title>', items))).toBe('search-results');
  });

  it('rejects an empty page and a page with neither metadata nor text as not-article', () => {
    expect(captureErrorCode('<html><head><title>Home</title></head><body></body></html>')).toBe('not-article');
    expect(captureErrorCode(page('<title>Welcome to our lab</title>', '<h1>Welcome to our lab</h1><p>We study batteries.</p>'))).toBe(
      'not-article',
    );
  });

  it('captures a metadata-only landing page with its DOI, no blocks and a warning saying where the text is', () => {
    const article = captureString(page(ARTICLE_HEAD, '<div class="toolbar"><a href="x.pdf">PDF</a></div>'));
    expect(article).toMatchObject({
      doi: '10.5555/hc.2020.1',
      title: 'Sodium storage in hard carbon',
      abstractOnly: true,
      blocks: [],
      text: '',
    });
    expect(article.warnings.join(' ')).toMatch(/Only the paper's metadata/);
  });

  it('still rejects a page with a title and no metadata, abstract or text', () => {
    expect(
      captureErrorCode(page('<title>Sodium storage in hard carbon</title>', '<div class="toolbar"><a href="x.pdf">PDF</a></div>')),
    ).toBe('not-article');
  });

  it('captures a landing page with an abstract as abstractOnly and drops its login prompts and lists', () => {
    const landing = page(
      ARTICLE_HEAD,
      `${ABSTRACT}<div class="access"><h2>Access through your institution</h2><p>Purchase this article for $39.95.</p></div>`,
    );
    const article = captureString(landing);
    expect(article.abstractOnly).toBe(true);
    expect(article.text).toBe('Hard carbon anodes reach 300 mAh/g in sodium cells at C/10.');
    expect(article.warnings.join(' ')).toMatch(/paywall or login/);
  });

  it('uses a long citation_abstract when the page shows no abstract element', () => {
    const abstract = 'We measured '.concat('a Seebeck coefficient of 210 µV/K at 300 K in the films. '.repeat(5)).trim();
    const article = captureString(page(`${ARTICLE_HEAD}<meta name="citation_abstract" content="${abstract}">`, '<p>Sign in</p>'));
    expect(article.abstractOnly).toBe(true);
    expect(article.blocks).toHaveLength(1);
    expect(article.blocks[0]).toMatchObject({ section: 'Abstract', text: abstract });
  });
});
