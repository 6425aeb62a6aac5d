/**
 * Citation fields beyond DOI and title: volume, pages, the print year over the online date,
 * author lists written oddly in tags, and what the page prints when its tags say nothing
 * (`printed-citation.ts`). Self-written pages in each publisher convention, with names and
 * numbers made up, so a rule that only fits one fixture fails here.
 */
import { describe, expect, it } from 'vitest';
import { readJsonLd } from '../../../../src/capture/html/json-ld';
import { readPageMetadata } from '../../../../src/capture/html/metadata';
import { normalizePages } from '../../../../src/capture/citation-fields';
import { journalFromDocumentTitle, markedUpAuthors } from '../../../../src/capture/html/printed-citation';
import { captureString, filler, page, parseHtml } from './html-test-helpers';

function metadataOf(head: string, body = '') {
  return readPageMetadata(parseHtml(page(head, body)));
}

describe('citation tags: volume, pages, year', () => {
  it('reads volume and first–last page from Highwire tags, the last page from PRISM when Highwire has none', () => {
    const metadata = metadataOf(`
      <meta name="citation_title" content="Strain in GaN films">
      <meta name="citation_volume" content="445">
      <meta name="citation_firstpage" content="268">
      <meta name="prism.endingPage" content="270">`);
    expect(metadata.volume).toBe('445');
    expect(metadata.pages).toBe('268-270');
  });

  it('keeps an article number as the page and one page once', () => {
    expect(metadataOf('<meta name="citation_firstpage" content="041027">').pages).toBe('041027');
    expect(metadataOf('<meta name="prism.startingPage" content="800"><meta name="prism.endingPage" content="800">').pages).toBe('800');
  });

  it('leaves volume and pages null when the tags are empty or placeholders (an advance article)', () => {
    const metadata = metadataOf('<meta name="citation_volume" content=""><meta name="citation_firstpage" content="XXX">');
    expect(metadata.volume).toBeNull();
    expect(metadata.pages).toBeNull();
  });

  it('takes the print year over the online date, whatever the tag order', () => {
    // A 1926 paper put online in 2006; a paper online in December 2014 in the February 2015 issue.
    expect(
      metadataOf('<meta name="citation_online_date" content="2006/03/16"><meta name="citation_publication_date" content="1926/01/01">')
        .year,
    ).toBe(1926);
    expect(
      metadataOf('<meta name="citation_online_date" content="2014/12/17"><meta name="citation_cover_date" content="2015/02/01">').year,
    ).toBe(2015);
    expect(metadataOf('<meta name="citation_online_date" content="2005/05/20"><meta name="dc.date" content="1976-10-01">').year).toBe(1976);
    expect(
      metadataOf('<meta name="prism.coverDate" content="January 2014"><meta name="citation_online_date" content="2013/05/29">').year,
    ).toBe(2014);
  });

  it('uses the online date when it is the only date', () => {
    expect(metadataOf('<meta name="citation_online_date" content="1976/10/01">').year).toBe(1976);
  });

  it('reads volume and pages from JSON-LD when no tag gives them', () => {
    const jsonLd = readJsonLd(
      parseHtml(
        page(
          `<script type="application/ld+json">${JSON.stringify({
            '@type': 'ScholarlyArticle',
            headline: 'X',
            pageStart: '231',
            pageEnd: '234',
            isPartOf: { '@type': 'PublicationIssue', issueNumber: '3', isPartOf: { '@type': 'PublicationVolume', volumeNumber: '18' } },
          })}</script>`,
          '',
        ),
      ),
    );
    expect(jsonLd.volume).toBe('18');
    expect([jsonLd.pageStart, jsonLd.pageEnd]).toEqual(['231', '234']);
  });

  it('does not take a URL or a whole citation in dc.source as the journal', () => {
    expect(metadataOf('<meta name="dc.source" content="http://dx.doi.org/10.1146/annurev-x-1">').journal).toBeNull();
    expect(metadataOf('<meta name="dc.source" content="Nature, Published online: 17 January 2007; | doi:10.1038/x">').journal).toBeNull();
  });
});

describe('author tags written oddly', () => {
  it('splits one dc.creator holding every name with empty fields between them', () => {
    expect(metadataOf('<meta name="dc.creator" content="A. Rossi, , B. Weber, , C.D. Novak, ">').authors).toEqual([
      'A. Rossi',
      'B. Weber',
      'C.D. Novak',
    ]);
  });

  it('drops footnote marks and a trailing "and" from names', () => {
    const metadata = metadataOf(`
      <meta name="dc.Creator" content="Anna  Berg,†">
      <meta name="dc.Creator" content="Jean Luc  Moreau,*,‡ and">
      <meta name="dc.Creator" content="Piet  Smit‡">`);
    expect(metadata.authors).toEqual(['Anna Berg', 'Jean Luc Moreau', 'Piet Smit']);
  });

  it('decodes entities left in names (WILEY-style "Family, Given")', () => {
    expect(metadataOf('<meta name="citation_author" content="Loo, Yueh&amp;#x2010;Lin">').authors).toEqual(['Yueh‐Lin Loo']);
  });
});

describe('what the page prints, when the tags say nothing', () => {
  it('finds the journal in <title> beside the article title, not the site or an author', () => {
    expect(journalFromDocumentTitle('Heat flow in Si - Journal of Odd Results (ACS Publications)', 'Heat flow in Si')).toBe(
      'Journal of Odd Results',
    );
    expect(journalFromDocumentTitle('Heat flow: in Si | Annual Review of Heat', 'Heat flow: in Si')).toBe('Annual Review of Heat');
    expect(
      journalFromDocumentTitle('Heat flow in Si - Berg - 2015 - Heat Letters - Wiley Online Library', 'Heat flow in Si', ['Anna Berg']),
    ).toBe('Heat Letters');
    expect(journalFromDocumentTitle('Heat flow in Si - ScienceDirect', 'Heat flow in Si')).toBeNull();
    expect(journalFromDocumentTitle('Heat flow in Si | Example Site', 'Heat flow in Si', [], 'Example Site')).toBeNull();
    expect(journalFromDocumentTitle('Phys. Rev. Q 12, 3456 (2019) - Heat flow in Si', 'Heat flow in Si')).toBeNull();
  });

  it('takes no journal from the <title> of a page without article tags (a blog post)', () => {
    expect(metadataOf('<title>Notes on cathodes | My Lab Blog</title>', '<h1>Notes on cathodes</h1>').journal).toBeNull();
    expect(metadataOf('<meta name="dc.title" content="Notes on cathodes"><title>Notes on cathodes | Cathode Letters</title>').journal).toBe(
      'Cathode Letters',
    );
  });

  it('reads a "Cite this" line printed as separate spans', () => {
    const metadata = metadataOf(
      '<meta name="dc.Title" content="Heat flow in Si"><title>Heat flow in Si | Journal of Odd Results</title>',
      `<div><strong>Cite This:</strong><span><i>J. Odd Res.</i></span><span>2001</span><span>105</span><span>13</span><span>3365-3370</span></div>
       <p>${filler('Si')}</p>`,
    );
    expect(metadata).toMatchObject({ journal: 'Journal of Odd Results', volume: '105', pages: '3365-3370', year: 2001 });
  });

  it('leaves volume and pages null for a "Cite this" line of an article not yet in an issue', () => {
    const metadata = metadataOf(
      '',
      '<div><strong>Cite This:</strong><span>Odd Photonics</span><span>2019</span><span>XXXX</span><span>XXX</span><span>XXX-XXX</span></div>',
    );
    expect(metadata).toMatchObject({ volume: null, pages: null, year: 2019 });
  });

  it('reads a breadcrumb and a physics-style citation line before the DOI link', () => {
    const metadata = metadataOf(
      '',
      `<nav><ul class="breadcrumbs"><li><a href="/">Home</a> &gt;</li><li><a href="/journal/x">Odd Physics Letters</a> &gt;</li>
       <li>Volume 106, Issue 23 &gt;</li><li>10.9999/1.23</li></ul></nav>
       <div class="citation">Odd Phys. Lett. <b>106</b>, 234103 (2015); <a href="https://doi.org/10.9999/1.23">https://doi.org/10.9999/1.23</a></div>`,
    );
    expect(metadata).toMatchObject({ journal: 'Odd Physics Letters', volume: '106', pages: '234103', year: 2015 });
  });

  it("takes the citation line of the article's own DOI, not a reference's printed the same way", () => {
    const metadata = metadataOf(
      '<meta name="citation_doi" content="10.9999/own.1"><meta name="dc.date" content="2021-05-01">',
      `<ol class="refs"><li>Odd Phys. Lett. 54, 1234 (1996); https://doi.org/10.9999/other.7</li></ol>
       <div>Odd Phys. Lett. 118, 061901 (2021); https://doi.org/10.9999/own.1</div>`,
    );
    expect(metadata).toMatchObject({ volume: '118', pages: '061901', year: 2021 });
  });

  it('reads a volume line with the journal printed just before it', () => {
    const metadata = metadataOf(
      '',
      `<div class="head"><h2><a href="/journal/123">Journal of Odd Sources</a></h2>
       <p><a href="/journal/123/313">Volume 313</a>, 1 May 2016, Pages 51–64</p></div>`,
    );
    expect(metadata).toMatchObject({ journal: 'Journal of Odd Sources', volume: '313', pages: '51-64', year: 2016 });
  });

  it('takes the article author list, not the names in references or related articles', () => {
    const document = parseHtml(
      page(
        '',
        `<aside class="related"><span class="given-name">Rel</span><span class="surname">Ated</span></aside>
         <div id="author-group">
           <a class="author"><span class="given-name">Anna</span> <span class="surname">Berg</span><sup>a</sup></a>
           <a class="author"><span class="given-name">Piet</span> <span class="surname">Smit</span></a>
         </div>
         <ol class="references"><li><span class="given-name">Ref</span><span class="surname">Erence</span></li></ol>`,
      ),
    );
    expect(markedUpAuthors(document)).toEqual(['Anna Berg', 'Piet Smit']);
  });

  it('reads contrib-author elements, skipping an ORCID badge link and affiliation marks', () => {
    const document = parseHtml(
      page(
        '',
        `<div class="entryAuthor" aria-label="authors">
           <span class="contrib-author"><a href="/author/Berg"> Anna Berg</a><sup>1,2</sup><i>, </i></span>
           <span class="contrib-author"><a href="https://orcid.org/0000"><img alt=""></a><a href="/author/Smit"> Piet Smit</a><sup>3</sup><i>, and </i></span>
         </div>`,
      ),
    );
    expect(markedUpAuthors(document)).toEqual(['Anna Berg', 'Piet Smit']);
  });

  it('does not look at the page when the tags give every field', () => {
    const metadata = metadataOf(
      `<meta name="citation_author" content="Anna Berg"><meta name="citation_journal_title" content="Heat Letters">
       <meta name="citation_volume" content="7"><meta name="citation_firstpage" content="11"><meta name="citation_date" content="2020">`,
      '<div><strong>Cite This:</strong><span>Other J.</span><span>1999</span><span>1</span><span>2</span><span>3-4</span></div><span class="contrib-author">Other Person</span>',
    );
    expect(metadata).toMatchObject({ authors: ['Anna Berg'], journal: 'Heat Letters', volume: '7', pages: '11', year: 2020 });
  });

  it('normalizes page ranges', () => {
    expect(normalizePages('10709 – 10716')).toBe('10709-10716');
    expect(normalizePages('A326', 'A329')).toBe('A326-A329');
    expect(normalizePages('XXX-XXX')).toBeNull();
    expect(normalizePages(null)).toBeNull();
  });

  it('carries volume and pages into the captured Article', () => {
    const article = captureString(
      page(
        `<meta name="citation_title" content="Strain in GaN films"><meta name="citation_volume" content="12">
         <meta name="citation_firstpage" content="143"><meta name="citation_doi" content="10.9999/x.1">`,
        `<article><h1>Strain in GaN films</h1><p>${filler('GaN', 40)}</p></article>`,
      ),
    );
    expect(article).toMatchObject({ volume: '12', pages: '143' });
  });
});
