/**
 * One small self-made page per publisher adapter (ACS, RSC, Elsevier, Springer/Nature, Wiley),
 * shaped like the publisher's real markup (structure taken from the saved pages in
 * ../shared/fixtures, text written here).
 */
import { describe, expect, it } from 'vitest';
import { captureString, filler, page, textsOf } from './html-test-helpers';

describe('ACS adapter (pubs.acs.org, Atypon layout)', () => {
  const html = page(
    `<meta name="dc.Title" content="Ring-opening enthalpy of lactones"><meta name="dc.Publisher" content="American Chemical Society">
     <meta name="dc.Identifier" scheme="doi" content="10.1021/acs.jpca.0c00001">`,
    `<main class="content article"><article>
      <div class="article_abstract"><h2 id="Abstract">Abstract</h2>
        <div id="abstractBox" class="article_abstract-content hlFld-Abstract"><p class="articleBody_abstractText">We predict ΔH of ring opening within 8 kJ/mol.</p></div>
        <div class="article_keywords hlFld-Abstract"><ul><li><a class="keyword">polymers</a></li></ul></div></div>
      <div class="article_content"><div class="article_content-table hlFld-FullText"><div class="article_content-row">
        <div class="article_content-left" property="articleBody">
          <div id="sec1" class="NLM_sec NLM_sec_level_1"><div class="article_content-header"><div class="article_content-title"><h2>1. Introduction</h2></div>
            <div class="article_content-sections"><span>ARTICLE SECTIONS</span><a href="#">Jump To</a></div></div>
            <div class="NLM_p">${filler('lactone')}</div>
            <figure class="article__inlineFigure"><img src="f1.gif"><div class="figure-bottom-links"><div class="download-ppt"><a>Download MS PowerPoint Slide</a></div></div>
              <figcaption><div class="hlFld-FigureCaption caption"><p>Figure 1. Workflow of the data fusion.</p></div></figcaption></figure>
            <div class="NLM_table-wrap"><div class="caption">Table 1. Data summary</div><table><tr><th>category</th><th>number</th></tr><tr><td>polymers</td><td>193</td></tr></table></div>
            <div class="NLM_p">${filler('enthalpy')}</div><div class="NLM_p">${filler('GPR model')}</div></div>
          <div class="articleCitedByDropzone"><div class="cited-by"><h2>Cited By</h2><div class="cited-content hlFld-Abstract"><p>This article is cited by 3 publications.</p></div></div></div>
          <h2>References</h2><ol id="references"><li><div class="NLM_citation">Cited work on polyesters, 2019.</div></li></ol>
        </div>
        <div id="article_content-right" class="article_content-right"><figure><figcaption>Figure 1. Workflow of the data fusion.</figcaption></figure></div>
      </div></div></div></article></main>`,
  );

  it('reads the abstract box, sections, captions and tables, and leaves out cited-by, keywords and the figure pane', () => {
    const article = captureString(html);
    expect(article).toMatchObject({ adapter: 'acs', doi: '10.1021/acs.jpca.0c00001', abstractOnly: false });
    expect(article.blocks[0]).toMatchObject({ section: 'Abstract', text: 'We predict ΔH of ring opening within 8 kJ/mol.' });
    expect(textsOf(article, 'heading')).toEqual(['1. Introduction']);
    expect(textsOf(article, 'caption')).toEqual(['Figure 1. Workflow of the data fusion.', 'Table 1. Data summary']);
    expect(textsOf(article, 'table')).toEqual(['category\tnumber\npolymers\t193']);
    expect(article.text).not.toMatch(/cited by 3|polyesters|polymers\s*$|PowerPoint|ARTICLE SECTIONS/m);
  });
});

describe('RSC adapter (pubs.rsc.org article HTML)', () => {
  const html = page(
    `<meta name="DC.publisher" content="Royal Society of Chemistry"><meta name="citation_doi" content="10.1039/C7TA06843C">
     <meta name="citation_title" content="Hollow Ni12P5 anodes">`,
    `<div id="wrapper"><div class="left_head"><a>View PDF Version</a></div>
      <div class="article_info"> DOI: <a href="https://doi.org/10.1039/C7TA06843C">10.1039/C7TA06843C</a></div>
      <h1><span class="title_heading">Hollow Ni12P5 anodes</span></h1><p class="header_text"><span class="bold">Huinan Guo</span></p>
      <div id="art-admin"><span>Received 3rd August 2017</span></div><p class="bold italic">First published on 2nd October 2017</p>
      <p class="abstract">Ni12P5 on graphene delivers 640 mAh/g after 100 cycles.</p>
      <h2>1. Introduction</h2><p>${filler('phosphide')}</p><p>${filler('graphene')}</p>
      <div class="image_table"><table><tr><td class="imgHolder"><img src="f1.gif"></td></tr>
        <tr><td class="image_title"><b>Fig. 1 </b> <span class="graphic_title">XRD of Ni12P5@C.</span></td></tr></table></div>
      <table class="formula"><tr><td>Ni12P5 + xLi ↔ Li3P + Ni</td><td>(1)</td></tr></table>
      <div class="table_caption"><b>Table 1</b> Cycling comparison</div>
      <div class="rtable__wrapper"><table><tr><th>Material</th><th>Capacity</th></tr><tr><td>Ni12P5@C/GNS</td><td>640</td></tr></table></div>
      <p>${filler('sodium')}</p><h2>Notes and references</h2><ol><li>M. Armand, Nature, 2008, 451, 652.</li></ol></div>`,
  );

  it('reads p.abstract, figures from image tables, equations and data tables, without the header and references', () => {
    const article = captureString(html);
    expect(article).toMatchObject({ adapter: 'rsc', doi: '10.1039/c7ta06843c', abstractOnly: false });
    expect(article.blocks[0]).toMatchObject({ section: 'Abstract', text: 'Ni12P5 on graphene delivers 640 mAh/g after 100 cycles.' });
    expect(textsOf(article, 'caption')).toEqual(['Fig. 1 XRD of Ni12P5@C.', 'Table 1 Cycling comparison']);
    expect(textsOf(article, 'table')).toEqual(['Material\tCapacity\nNi12P5@C/GNS\t640']);
    expect(textsOf(article, 'paragraph')).toContain('Ni12P5 + xLi ↔ Li3P + Ni (1)');
    expect(article.text).not.toMatch(/Huinan|Received 3rd|First published|View PDF|Armand/);
  });
});

describe('Elsevier adapter (ScienceDirect)', () => {
  const legacyBody = (extraHead: string, script: string) =>
    page(
      `<meta name="dc.publisher" content="Journal of Power Sources">${extraHead}${script}`,
      `<div id="centerInner" class="centerInner svBigBox"><div class="svArticle">
        <div class="publicationType">Regular Article</div><h1 class="svTitle">Garnet electrolytes for lithium metal</h1>
        <ul class="authorGroup"><li>A. Author</li></ul><dl class="articleDates"><dd>Received 8 April 2013</dd></dl>
        <div class="abstract svAbstract abstractHighlights"><h2>Highlights</h2><ul><li><span>•</span><div>Al-LLZO reaches 0.4 mS/cm.</div></li></ul></div>
        <div class="abstract svAbstract"><h2>Abstract</h2><p>Cubic Al-doped LLZO was sintered at 1200 °C.</p></div>
        <div class="svKeywords"><h2>Keywords</h2><ul><li>LLZO</li></ul></div>
        <h2>1. Introduction</h2><p>${filler('garnet')}</p><p>${filler('lithium')}</p><p>${filler('interface')}</p>
        <div class="figTblUpiOuter svArticle"><dl class="figure"><dt><a class="figureLink"><img src="f1.jpg" alt="Impedance spectra ..."></a></dt>
          <dd><div class="caption"> Fig. 1.&nbsp; <p>Impedance spectra at 25 °C.</p></div></dd>
          <dd class="menuButtonLinks"><ul class="menuButton"><li><a>Download full-size image</a></li></ul></dd></dl></div>
        <h2>References</h2><ol class="references"><li><ul class="reference"><li>R. Murugan, Angew. Chem. 46 (2007) 7778.</li></ul></li></ol>
      </div></div>`,
    );

  it('reads a legacy 2014–2016 page: abstracts, sections, captions, and the DOI from the page variable', () => {
    const article = captureString(legacyBody('', "<script>SDM.pm.doi = '10.1016/j.jpowsour.2016.02.050';</script>"));
    expect(article).toMatchObject({
      adapter: 'elsevier',
      doi: '10.1016/j.jpowsour.2016.02.050',
      doiOrigin: 'body',
      title: 'Garnet electrolytes for lithium metal',
    });
    expect(textsOf(article, 'paragraph').slice(0, 2)).toEqual([
      'Al-LLZO reaches 0.4 mS/cm.',
      'Cubic Al-doped LLZO was sintered at 1200 °C.',
    ]);
    expect(textsOf(article, 'caption')).toEqual(['Fig. 1. Impedance spectra at 25 °C.']);
    expect(article.text).not.toMatch(/Murugan|Received 8 April|Regular Article|A\. Author/);
  });

  it('leaves the DOI null on a legacy page that holds only a PII', () => {
    const article = captureString(legacyBody('<meta name="citation_pii" content="S0378775316301574">', ''));
    expect(article.doi).toBeNull();
    expect(article.warnings.join(' ')).toMatch(/No DOI found/);
  });

  it('reads a modern landing page as abstract only', () => {
    const html = page(
      `<meta name="citation_publisher" content="Elsevier"><meta name="citation_doi" content="10.1016/j.comptc.2018.10.004"><meta name="citation_title" content="Chemical bonding without orbitals">`,
      `<div class="article-wrapper"><article><h1><span class="title-text">Chemical bonding without orbitals</span></h1>
        <div class="Abstracts"><div class="abstract author"><h2>Abstract</h2><p>Bonding is described by the electron density alone.</p></div></div>
        <div class="PageDivider"></div><section class="bibliography"><h2>References</h2><p>V.E. Bondybey et al. (1983)</p></section></article></div>`,
    );
    const article = captureString(html);
    expect(article).toMatchObject({ adapter: 'elsevier', abstractOnly: true, text: 'Bonding is described by the electron density alone.' });
  });
});

describe('Springer Nature adapter', () => {
  it('reads a SpringerLink FulltextWrapper page with Caption/Table markup and no reference list', () => {
    const html = page(
      `<meta name="citation_publisher" content="Springer US"><meta name="citation_doi" content="10.1007/s11237-016-9437-y"><meta name="citation_title" content="ZnS:Eu nanoparticles">`,
      `<article><div class="article-body"><div class="FulltextWrapper">
        <section id="Abs1" class="Abstract"><h2 class="Heading">Abstract</h2><p class="Para">ZnS:Eu emits at 510 nm.</p></section>
        <div class="KeywordGroup"><h3>Key words</h3><span class="Keyword">zinc sulfide</span></div>
        <div id="body"><section class="Section1"><h2 class="Heading">Experimental</h2><div class="content"><p class="Para">${filler('ZnS')}</p><p class="Para">${filler('europium')}</p><p class="Para">${filler('emission')}</p>
          <figure class="Figure"><div class="MediaObject"><img src="f1.gif"></div><figcaption class="Caption"><div class="CaptionContent"><span class="CaptionNumber">Fig. 1</span><p class="SimplePara">PL spectra.</p></div></figcaption></figure>
          <div class="Table"><div class="Caption"><div class="CaptionContent"><span class="CaptionNumber">Table 1</span><p class="SimplePara">Sizes</p></div></div>
            <table><thead><tr><th>Sample</th><th>d (nm)</th></tr></thead><tbody><tr><td>ZnS:Eu</td><td>4.1</td></tr></tbody></table></div></div></section></div>
        <aside class="Bibliography" id="Bib1"><h3 class="Heading">References</h3><ol><li class="Citation">Cited ZnS work 2001.</li></ol></aside>
      </div></div></article>`,
    );
    const article = captureString(html);
    expect(article).toMatchObject({ adapter: 'springer', doi: '10.1007/s11237-016-9437-y', abstractOnly: false });
    expect(article.blocks[0]).toMatchObject({ section: 'Abstract', text: 'ZnS:Eu emits at 510 nm.' });
    expect(textsOf(article, 'caption')).toEqual(['Fig. 1 PL spectra.', 'Table 1 Sizes']);
    expect(textsOf(article, 'table')).toEqual(['Sample\td (nm)\nZnS:Eu\t4.1']);
    expect(article.text).not.toMatch(/Cited ZnS|zinc sulfide/);
  });

  it('reads an old nature.com page: doi: prefix in citation_doi, #abs abstract, "Figure N:" headings, glyph images', () => {
    const html = page(
      `<title>InP wires and dots : Article : Nature Materials</title><meta name="citation_doi" content="doi:10.1038/nmat942">
       <meta name="citation_publisher" content="Nature Publishing Group"><meta name="citation_title" content="InP wires and dots">`,
      `<div id="content"><h2 id="atl">InP wires and dots</h2><p id="aug">Heng Yu, William E. Buhro</p>
        <div id="abs"><h3 class="hidden">Abstract</h3><p class="lead">Confinement is weaker in wires than in dots.</p></div>
        <div id="articlebody"><p class="norm">${filler('InP')}</p><p class="norm">${filler('quantum wire')}</p><p class="norm">${filler('bandgap')}</p>
          <div class="figure-table" id="f2"><h3>Figure 2: TEM images of InP quantum wires.</h3>
            <p class="legend">Mean diameter 4.49 <img src="/__chars/plus/special/plusmn/black/med/base/glyph.gif" alt="plusminus"> 0.75 nm.</p>
            <a class="full" href="/fig2.html">Full size image (83 KB)</a></div></div>
        <div id="References"><h3>References</h3><ol><li>Alivisatos, A. P. Science 271, 933 (1996).</li></ol></div></div>`,
    );
    const article = captureString(html);
    expect(article).toMatchObject({ adapter: 'springer', doi: '10.1038/nmat942', abstractOnly: false });
    expect(article.blocks[0]).toMatchObject({ section: 'Abstract', text: 'Confinement is weaker in wires than in dots.' });
    expect(textsOf(article, 'caption')).toEqual(['Figure 2: TEM images of InP quantum wires.', 'Mean diameter 4.49 ± 0.75 nm.']);
    expect(article.text).not.toMatch(/Full size image|Alivisatos|Heng Yu/);
  });
});

describe('Wiley adapter (Wiley Online Library)', () => {
  it('reads article-section markup, figure__caption and tables, without references, PDF links and author lists', () => {
    const html = page(
      `<meta name="citation_doi" content="10.1002/admi.201400532"><meta name="citation_publisher" content="WILEY&#x2010;VCH Verlag">
       <meta name="citation_title" content="Level alignment in perovskite cells">`,
      `<article id="main-content" class="article"><section id="pdf-section" class="article-section__pdf-container"><a><span>Standard PDF (579.9 KB)</span></a></section>
        <div class="loa-wrapper"><h2>Authors</h2><h3>Philip Schulz</h3></div>
        <div class="article__body"><article>
          <section class="article-section article-section__abstract" id="section-1-en"><h2 class="article-section__header">Abstract</h2>
            <div class="article-section__content"><p>The HOMO offset is 0.3 eV.</p></div></section>
          <section class="article-section article-section__full"><section class="article-section__content"><h2 class="article-section__title">Experimental Section</h2>
            <p>${filler('perovskite')}</p><p>${filler('PEDOT')}</p><p>${filler('UPS')}</p>
            <section class="article-section__inline-figure"><figure class="figure"><img src="f1.jpg"><div class="figure-extra"><a>Open in figure viewer</a></div>
              <figcaption class="figure__caption"><div class="figure__caption-text">Figure 1. UPS spectra.</div></figcaption></figure></section>
            <div class="article-table-content"><header class="article-table-caption">Table 1. Work functions</header>
              <table><tr><th>Layer</th><th>WF (eV)</th></tr><tr><td>PEDOT</td><td>5.1</td></tr></table></div></section></section>
          <section class="article-section__references"><h2>References</h2><ul><li>Cited perovskite paper.</li></ul></section>
        </article></div></article>`,
    );
    const article = captureString(html);
    expect(article).toMatchObject({ adapter: 'wiley', doi: '10.1002/admi.201400532', abstractOnly: false });
    expect(article.blocks[0]).toMatchObject({ section: 'Abstract', text: 'The HOMO offset is 0.3 eV.' });
    expect(textsOf(article, 'heading')).toEqual(['Experimental Section']);
    expect(textsOf(article, 'caption')).toEqual(['Figure 1. UPS spectra.', 'Table 1. Work functions']);
    expect(textsOf(article, 'table')).toEqual(['Layer\tWF (eV)\nPEDOT\t5.1']);
    expect(article.text).not.toMatch(/Standard PDF|Philip Schulz|Cited perovskite|figure viewer/);
  });
});
