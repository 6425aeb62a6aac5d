import { describe, expect, it } from 'vitest';
import { readJsonLd } from '../../../../src/capture/html/json-ld';
import { displayAuthorName, readPageMetadata, yearOf } from '../../../../src/capture/html/metadata';
import { page, parseHtml } from './html-test-helpers';

function metadataOf(head: string, body = '') {
  return readPageMetadata(parseHtml(page(head, body)));
}

describe('readPageMetadata: Highwire citation_* tags', () => {
  it('reads DOI, title, authors in order, journal, year and publisher', () => {
    const metadata = metadataOf(`
      <meta name="citation_title" content="Band gap of  GaN nanowires">
      <meta name="citation_author" content="Smith, Jane">
      <meta name="citation_author" content="Wei Zhang">
      <meta name="citation_author" content="Jane Smith">
      <meta name="citation_journal_title" content="Nano Letters">
      <meta name="citation_publication_date" content="2016/03/14">
      <meta name="citation_publisher" content="American Chemical Society">
      <meta name="citation_doi" content="10.1021/ACS.NANOLETT.5B00300">
      <meta name="citation_fulltext_world_readable" content="">`);
    expect(metadata.doi).toBe('10.1021/acs.nanolett.5b00300');
    expect(metadata.doiOrigin).toBe('meta');
    expect(metadata.title).toBe('Band gap of GaN nanowires');
    // "Smith, Jane" and "Jane Smith" are one person: kept once, in first-seen order.
    expect(metadata.authors).toEqual(['Jane Smith', 'Wei Zhang']);
    expect(metadata.journal).toBe('Nano Letters');
    expect(metadata.year).toBe(2016);
    expect(metadata.publisher).toBe('American Chemical Society');
    expect(metadata.fulltextWorldReadable).toBe(true);
  });

  it('strips a doi: prefix from citation_doi (old nature.com pages)', () => {
    expect(metadataOf('<meta name="citation_doi" content="doi:10.1038/nmat942">').doi).toBe('10.1038/nmat942');
  });

  it('falls back to citation_date, then citation_year, for the year', () => {
    expect(metadataOf('<meta name="citation_date" content="14 March 2009">').year).toBe(2009);
    expect(metadataOf('<meta name="citation_year" content="1926">').year).toBe(1926);
  });
});

describe('readPageMetadata: Dublin Core and PRISM', () => {
  it('takes dc.Identifier with scheme="doi" and ignores other schemes', () => {
    const metadata = metadataOf(`
      <meta name="dc.Identifier" scheme="pii" content="S1089-5639(00)03647-1">
      <meta name="dc.Identifier" scheme="doi" content="10.1021/jp003647e">
      <meta name="dc.Title" content="Heisenberg Hamiltonian for Poly-ynes">
      <meta name="dc.Creator" content="A. Author">`);
    expect(metadata.doi).toBe('10.1021/jp003647e');
    expect(metadata.title).toBe('Heisenberg Hamiltonian for Poly-ynes');
    expect(metadata.authors).toEqual(['A. Author']);
  });

  it('takes a dc.identifier written with a doi: prefix', () => {
    expect(metadataOf('<meta name="dc.identifier" content="doi:10.1103/PhysRevX.12.041027">').doi).toBe('10.1103/physrevx.12.041027');
  });

  it('does not take a dc.identifier that is not a DOI', () => {
    expect(metadataOf('<meta name="dc.identifier" content="S0378775316301574">').doi).toBeNull();
  });

  it('reads prism.doi, prism.publicationName and prism.publicationDate', () => {
    const metadata = metadataOf(`
      <meta name="prism.doi" content="doi:10.1038/d41586-020-02610-z">
      <meta name="prism.publicationName" content="Nature">
      <meta name="prism.publicationDate" content="2020-09-10">`);
    expect(metadata.doi).toBe('10.1038/d41586-020-02610-z');
    expect(metadata.journal).toBe('Nature');
    expect(metadata.year).toBe(2020);
  });
});

describe('readPageMetadata: Open Graph, canonical link and <title>', () => {
  it('uses og:title only when no citation or DC title exists, and og:url as the canonical URL', () => {
    const metadata = metadataOf(`<title>Ignored | Site</title>
      <meta property="og:title" content="Open Graph title">
      <meta property="og:url" content="https://example.org/article/1">`);
    expect(metadata.title).toBe('Open Graph title');
    expect(metadata.canonicalUrl).toBe('https://example.org/article/1');
    expect(metadata.documentTitle).toBe('Ignored | Site');
  });

  it('prefers <link rel="canonical"> over og:url', () => {
    const metadata = metadataOf(
      `<link rel="canonical" href="https://pubs.acs.org/doi/10.1021/x1"><meta property="og:url" content="https://other.example/x">`,
    );
    expect(metadata.canonicalUrl).toBe('https://pubs.acs.org/doi/10.1021/x1');
  });

  it('uses a long citation_abstract as the abstract but not a short teaser', () => {
    const long = 'We report '.concat('a measured thermal conductivity of 1.2 W/mK. '.repeat(8));
    expect(metadataOf(`<meta name="citation_abstract" content="<p>${long}</p>">`).abstract).toBe(long.trim());
    expect(metadataOf('<meta name="dc.description" content="Read the latest research.">').abstract).toBeNull();
  });
});

describe('readJsonLd', () => {
  const jsonLd = (value: string) => parseHtml(page(`<script type="application/ld+json">${value}</script>`, ''));

  it('reads a ScholarlyArticle inside @graph: headline, authors, date, journal and DOI identifier', () => {
    const article = readJsonLd(
      jsonLd(
        JSON.stringify({
          '@context': 'https://schema.org',
          '@graph': [
            { '@type': 'WebPage', name: 'Not the article' },
            {
              '@type': 'ScholarlyArticle',
              headline: 'Li-ion diffusion in LLZO',
              author: [
                { '@type': 'Person', name: 'Ana Lima' },
                { givenName: 'Bo', familyName: 'Chen' },
              ],
              datePublished: '2021-07-01',
              isPartOf: { '@type': 'Periodical', name: 'Journal of Power Sources' },
              identifier: { '@type': 'PropertyValue', propertyID: 'doi', value: 'https://doi.org/10.1016/J.JPOWSOUR.2021.1' },
            },
          ],
        }),
      ),
    );
    expect(article.title).toBe('Li-ion diffusion in LLZO');
    expect(article.authors).toEqual(['Ana Lima', 'Bo Chen']);
    expect(article.datePublished).toBe('2021-07-01');
    expect(article.journal).toBe('Journal of Power Sources');
    expect(article.doi).toBe('10.1016/j.jpowsour.2021.1');
  });

  it('takes the DOI from sameAs and ignores a plain page URL', () => {
    const article = readJsonLd(
      jsonLd(
        JSON.stringify({ '@type': 'Article', name: 'X', url: 'https://example.org/10.5555/page', sameAs: ['https://doi.org/10.5555/abc'] }),
      ),
    );
    expect(article.doi).toBe('10.5555/abc');
  });

  it('climbs isPartOf from issue to volume to periodical for the journal name', () => {
    const article = readJsonLd(
      jsonLd(
        JSON.stringify({
          '@type': 'ScholarlyArticle',
          headline: 'X',
          isPartOf: {
            '@type': 'PublicationIssue',
            issueNumber: '4',
            isPartOf: {
              '@type': 'PublicationVolume',
              volumeNumber: '28',
              isPartOf: { '@type': 'Periodical', name: 'J. Phys.: Condens. Matter' },
            },
          },
        }),
      ),
    );
    expect(article.journal).toBe('J. Phys.: Condens. Matter');
  });

  it('survives deeply nested values without overflowing the stack', () => {
    let nested = '"deep"';
    for (let level = 0; level < 20_000; level += 1) nested = `{"name":${nested}}`;
    const article = readJsonLd(jsonLd(`{"@type":"Article","headline":${nested},"author":${nested}}`));
    expect(article.title).toBeNull();
  });

  it('survives invalid JSON, hostile shapes and non-article types', () => {
    expect(readJsonLd(jsonLd('{ "headline": "broken", }')).title).toBeNull();
    expect(readJsonLd(jsonLd('[1, "x", null, {"@type": 5, "headline": {"a": 1}}]')).title).toBeNull();
    expect(readJsonLd(jsonLd(JSON.stringify({ '@type': 'Organization', name: 'ACS' }))).title).toBeNull();
  });

  it('is used by readPageMetadata when the meta tags hold no DOI, with origin json-ld', () => {
    const document = jsonLd(JSON.stringify({ '@type': 'ScholarlyArticle', headline: 'Only JSON-LD', doi: '10.5555/only-jsonld' }));
    const metadata = readPageMetadata(document);
    expect(metadata.doi).toBe('10.5555/only-jsonld');
    expect(metadata.doiOrigin).toBe('json-ld');
    expect(metadata.title).toBe('Only JSON-LD');
  });
});

describe('small parsers', () => {
  it('turns "Family, Given" into "Given Family" but keeps suffixes and plain names', () => {
    expect(displayAuthorName('Curie, Marie')).toBe('Marie Curie');
    expect(displayAuthorName('Marie Curie')).toBe('Marie Curie');
    expect(displayAuthorName('Smith, Jr.')).toBe('Smith, Jr.');
  });

  it('finds a four-digit year in several date shapes and rejects impossible ones', () => {
    expect(yearOf('2016/03/14')).toBe(2016);
    expect(yearOf('March 2003')).toBe(2003);
    expect(yearOf('12345')).toBeNull();
    expect(yearOf(null)).toBeNull();
  });
});
