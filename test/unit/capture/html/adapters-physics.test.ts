/**
 * One small self-made page per publisher adapter (APS, IOP, AIP/Scitation, MDPI, ECS) and for
 * arXiv and PMC, which have no saved fixture: their pages here follow the sites' documented
 * markup (arXiv abstract page `blockquote.abstract`, arXiv HTML = LaTeXML `ltx_*` classes,
 * PMC `section.abstract` / `.ref-list`). Plus the rules that choose an adapter.
 */
import { describe, expect, it } from 'vitest';
import { chooseAdapter } from '../../../../src/capture/html/adapters/registry';
import { captureString, filler, page, parseHtml, textsOf } from './html-test-helpers';

describe('APS adapter (journals.aps.org)', () => {
  it('reads an abstract page behind "Authorization Required" as abstract only, without PhySH tags and login text', () => {
    const html = page(
      `<meta name="citation_publisher" content="American Physical Society"><meta name="citation_doi" content="10.1103/RevModPhys.94.045004">
       <meta name="citation_title" content="Ultrafast electron diffraction">`,
      `<main id="main"><section id="article-body"><div id="article-content">
        <section id="abstract-section"><h2>Abstract</h2><div id="abstract-section-content" class="content"><p>Electron pulses of 100 fs resolve lattice dynamics.</p>
          <ul class="physh-tagging"><li><a class="physh-concept">Beam optics</a></li></ul></div></section>
        <section class="article fulltext"><h2>Authorization Required</h2><p>We need you to provide your credentials.</p><a>Buy Article »</a></section>
        <section id="references" class="references"><h2>References (72)</h2><ol class="references"><li>Cited diffraction work.</li></ol></section>
      </div></section></main>`,
    );
    const article = captureString(html);
    expect(article).toMatchObject({
      adapter: 'aps',
      doi: '10.1103/revmodphys.94.045004',
      abstractOnly: true,
      text: 'Electron pulses of 100 fs resolve lattice dynamics.',
    });
    expect(article.warnings.join(' ')).toMatch(/paywall or login/);
  });
});

describe('IOP adapter (iopscience.iop.org)', () => {
  it('reads articleBody sections, figure captions and tables, without the reference list', () => {
    const html = page(
      `<meta name="citation_publisher" content="IOP Publishing"><meta name="citation_doi" content="10.1088/0953-8984/28/22/224009">
       <meta name="citation_title" content="Indium tin oxide plasmonics">`,
      `<main><div class="article-content"><div class="wd-jnl-art-abstract"><h2>Abstract</h2><p>ITO films show ε′ = 0 near 1.5 µm.</p></div>
        <div itemprop="articleBody"><h2>1. Introduction</h2><p>${filler('ITO')}</p><p>${filler('plasmon')}</p><p>${filler('PLD')}</p>
          <div class="figure"><img src="f1.jpg"><p class="figure-caption"><strong>Figure 1.</strong> Permittivity of ITO.</p><div class="figure-links"><a>Download figure</a></div></div>
          <div class="table-wrap"><p class="table-caption"><strong>Table 1.</strong> Deposition conditions.</p><table><tr><th>Film</th><th>O2 (mTorr)</th></tr><tr><td>A</td><td>10</td></tr></table></div>
          <h2 id="references">References</h2><div class="reference-list"><ol><li>Cited ITO paper.</li></ol></div></div></div></main>`,
    );
    const article = captureString(html);
    expect(article).toMatchObject({ adapter: 'iop', doi: '10.1088/0953-8984/28/22/224009', abstractOnly: false });
    expect(textsOf(article, 'caption')).toEqual(['Figure 1. Permittivity of ITO.', 'Table 1. Deposition conditions.']);
    expect(textsOf(article, 'table')).toEqual(['Film\tO2 (mTorr)\nA\t10']);
    expect(article.text).not.toMatch(/Cited ITO|Download figure/);
  });
});

describe('AIP adapter (Scitation body fragment without <head>)', () => {
  it('takes the DOI from the header doi.org link and leaves out inline reference pop-ups and the reference list', () => {
    const html = `<div class="page-body pagefulltext"><div class="publicationContentCitation"><a href="https://doi.org/10.1063/1.4817897">https://doi.org/10.1063/1.4817897</a></div>
      <article class="article"><h1>FeTa alloys for tunnel junctions</h1>
        <div class="hlFld-Abstract"><div class="sectionInfo abstractSectionHeading">Abstract</div><div class="abstractSection abstractInFull"><p>Fe-Ta spacers couple CoFeB layers ferromagnetically.</p></div></div>
        <div class="hlFld-Fulltext"><div class="NLM_paragraph">Coupling enables GMR.<span class="ref-lnk"><a><sup>1</sup></a><span class="ref-overlay"><span class="ref-content">1. M. N. Baibich, https://doi.org/10.1103/PhysRevLett.61.2472</span></span></span> ${filler('FeTa')}</div>
          <div class="NLM_paragraph">${filler('CoFeB')}</div><div class="NLM_paragraph">${filler('MgO')}</div>
          <table class="formula-display"><tr><td class="equationTd">Hex = H0 exp[−γt],</td><td class="formulaLabel">(1)</td></tr></table>
          <div class="article-paragraphs"><div class="sectionInfo"><h4 class="sectionHeading">REFERENCES</h4></div><ol><li><span class="ref-text">2. G. Binasch, https://doi.org/10.1103/PhysRevB.39.4828</span></li></ol></div>
        </div></article></div>`;
    const article = captureString(html);
    expect(article).toMatchObject({
      adapter: 'aip',
      doi: '10.1063/1.4817897',
      doiOrigin: 'body',
      title: 'FeTa alloys for tunnel junctions',
    });
    expect(article.blocks[0]).toMatchObject({ section: 'Abstract', text: 'Fe-Ta spacers couple CoFeB layers ferromagnetically.' });
    expect(textsOf(article, 'paragraph')).toContain('Hex = H0 exp[−γt], (1)');
    expect(article.text).not.toMatch(/Baibich|Binasch/);
  });
});

describe('MDPI adapter (www.mdpi.com)', () => {
  it('reads the popup table and full caption, not the thumbnail copies', () => {
    const html = page(
      `<meta name="citation_publisher" content="Multidisciplinary Digital Publishing Institute"><meta name="citation_doi" content="10.3390/metabo4040932"><meta name="citation_title" content="Volatile metabolites of F. poae">`,
      `<article><section class="html-abstract" id="html-abstract"><h2 id="html-abstract-title">Abstract</h2><b>:</b> 29 volatiles were identified by SPME-GC/MS.</section>
        <div class="html-body"><section><h2>1. Introduction</h2><p>${filler('Fusarium')}</p><p>${filler('wheat')}</p><p>${filler('volatile')}</p>
          <div class="html-table-wrap"><table><tr><td class="html-table_wrap_td"><img alt="Table"></td><td class="html-table_wrap_discription"><b>Table 1.</b> Short description. <p><a>Click here to display table</a></p></td></tr></table></div>
          <div class="html-table_show mfp-hide"><table><caption><b>Table 1.</b> GC-MS identification of volatiles.</caption><tr><th>No.</th><th>Compound</th></tr><tr><td>1</td><td>2-Methylfuran</td></tr></table></div>
          <div class="html-fig-wrap"><div class="html-fig_img"><img></div><div class="html-fig_description"><b>Figure 1.</b> PCA scores. <p><a>Click here to enlarge figure</a></p></div></div>
          <div class="html-fig_show mfp-hide"><div class="html-caption"><b>Figure 1.</b> PCA score plot of SPME-GC/MS data.</div></div></section>
          <section id="html-references_list"><h2>References</h2><ol><li>Cited GC-MS work.</li></ol></section></div></article>`,
    );
    const article = captureString(html);
    expect(article).toMatchObject({ adapter: 'mdpi', doi: '10.3390/metabo4040932', abstractOnly: false });
    expect(article.blocks[0]).toMatchObject({ section: 'Abstract', text: '29 volatiles were identified by SPME-GC/MS.' });
    expect(textsOf(article, 'caption')).toEqual([
      'Table 1. GC-MS identification of volatiles.',
      'Figure 1. PCA score plot of SPME-GC/MS data.',
    ]);
    expect(textsOf(article, 'table')).toEqual(['No.\tCompound\n1\t2-Methylfuran']);
    expect(article.text).not.toMatch(/Click here|Short description|Cited GC-MS/);
  });
});

describe('ECS adapter (HighWire ecsdl.org)', () => {
  it('reads div.section blocks and fig-captions, without the ref-list and keyword title', () => {
    const html = page(
      `<meta name="DC.Publisher" content="The Electrochemical Society"><meta name="citation_doi" content="10.1149/1.1543949"><meta name="citation_title" content="Reactivity of lithium toward γ-butyrolactone">`,
      `<div id="content-block"><div class="article fulltext-view"><h1 id="article-title-1">Reactivity of lithium toward γ-butyrolactone</h1>
        <div class="section abstract" id="abstract-1"><h2>Abstract</h2><p>Li reacts with γ-BL at 300 K forming alkoxides.</p></div>
        <span class="kwd-group-title">Key Words</span>
        <div class="section"><h2>Experimental</h2><p>${filler('lithium')}</p><p>${filler('AES')}</p><p>${filler('XPS')}</p>
          <div class="fig"><img src="F1.gif"><div class="fig-caption"><span class="fig-label">Figure 1.</span> AES spectra of Li.</div></div></div>
        <div class="section ref-list" id="ref-list-1"><h2>References</h2><ol class="cit-list"><li>Cited Li paper.</li></ol></div></div></div>`,
    );
    const article = captureString(html);
    expect(article).toMatchObject({ adapter: 'ecs', doi: '10.1149/1.1543949', abstractOnly: false });
    expect(textsOf(article, 'caption')).toEqual(['Figure 1. AES spectra of Li.']);
    expect(article.text).not.toMatch(/Key Words|Cited Li/);
  });
});

describe('arXiv adapter', () => {
  it('reads an abstract page (arxiv.org/abs) as abstract only, without the "Abstract:" descriptor', () => {
    const html = page(
      `<meta name="citation_title" content="Superconductivity at 39 K in MgB2 thin films"><meta name="citation_author" content="Doe, Jane">
       <meta name="citation_date" content="2023/05/01"><meta name="citation_arxiv_id" content="2305.00001">`,
      `<div id="abs"><h1 class="title mathjax"><span class="descriptor">Title:</span>Superconductivity at 39 K in MgB2 thin films</h1>
        <div class="authors"><span class="descriptor">Authors:</span><a>Jane Doe</a></div>
        <blockquote class="abstract mathjax"><span class="descriptor">Abstract:</span> MgB2 films grown by HPCVD show Tc = 39 K and Jc above 10^7 A/cm2.</blockquote>
        <div class="metatable"><table><tr><td class="tablecell label">Cite as:</td><td class="tablecell arxivid">arXiv:2305.00001</td></tr>
          <tr><td class="tablecell label">DOI:</td><td class="tablecell arxivdoi"><a id="arxiv-doi-link" href="https://doi.org/10.48550/arXiv.2305.00001">https://doi.org/10.48550/arXiv.2305.00001</a></td></tr></table></div></div>`,
    );
    const article = captureString(html, 'https://arxiv.org/abs/2305.00001');
    expect(article).toMatchObject({ adapter: 'arxiv', abstractOnly: true, authors: ['Jane Doe'], year: 2023 });
    expect(article.text).toBe('MgB2 films grown by HPCVD show Tc = 39 K and Jc above 10^7 A/cm2.');
    expect(article.doi).toBe('10.48550/arxiv.2305.00001');
  });

  it('reads an arxiv.org/html (LaTeXML) page: ltx sections, figure and table captions, ltx_tabular, no bibliography', () => {
    const html = page(
      '<title>MgB2 films</title>',
      `<div class="ltx_page_main"><article class="ltx_document"><h1 class="ltx_title ltx_title_document">Superconductivity at 39 K in MgB2 thin films</h1>
        <div class="ltx_authors"><span class="ltx_creator ltx_role_author"><span class="ltx_personname">Jane Doe</span></span></div>
        <div class="ltx_abstract"><h6 class="ltx_title ltx_title_abstract">Abstract</h6><p class="ltx_p">Films show T<sub>c</sub> = 39 K.</p></div>
        <section class="ltx_section" id="S1"><h2 class="ltx_title ltx_title_section"><span class="ltx_tag ltx_tag_section">1 </span>Introduction</h2>
          <div class="ltx_para"><p class="ltx_p">${filler('MgB2')} The gap is <math class="ltx_Math" alttext="\\Delta"><semantics><mi>Δ</mi><annotation encoding="application/x-tex">\\Delta</annotation></semantics></math> = 7 meV.</p></div>
          <div class="ltx_para"><p class="ltx_p">${filler('HPCVD')}</p></div><div class="ltx_para"><p class="ltx_p">${filler('boron')}</p></div>
          <figure class="ltx_figure" id="S1.F1"><img src="x1.png"><figcaption class="ltx_caption"><span class="ltx_tag ltx_tag_figure">Figure 1: </span>Resistance versus temperature.</figcaption></figure>
          <figure class="ltx_table" id="S1.T1"><figcaption class="ltx_caption"><span class="ltx_tag ltx_tag_table">Table 1: </span>Film properties.</figcaption>
            <table class="ltx_tabular"><thead class="ltx_thead"><tr class="ltx_tr"><th class="ltx_td ltx_th">Film</th><th class="ltx_td ltx_th">Tc (K)</th></tr></thead>
            <tbody class="ltx_tbody"><tr class="ltx_tr"><td class="ltx_td">A</td><td class="ltx_td">39.2</td></tr></tbody></table></figure></section>
        <section class="ltx_bibliography" id="bib"><h2 class="ltx_title ltx_title_bibliography">References</h2><ul class="ltx_biblist"><li class="ltx_bibitem">J. Nagamatsu, Nature 410, 63 (2001).</li></ul></section>
      </article></div>`,
    );
    const article = captureString(html, 'https://arxiv.org/html/2305.00001v1');
    expect(article).toMatchObject({ adapter: 'arxiv', abstractOnly: false, title: 'Superconductivity at 39 K in MgB2 thin films' });
    expect(article.blocks[0]).toMatchObject({ section: 'Abstract', text: 'Films show Tc = 39 K.' });
    expect(textsOf(article, 'heading')).toEqual(['1 Introduction']);
    expect(textsOf(article, 'caption')).toEqual(['Figure 1: Resistance versus temperature.', 'Table 1: Film properties.']);
    expect(textsOf(article, 'table')).toEqual(['Film\tTc (K)\nA\t39.2']);
    expect(article.text).toContain('The gap is Δ = 7 meV.');
    expect(article.text).not.toMatch(/Nagamatsu|Jane Doe|\\Delta/);
  });
});

describe('PMC adapter (PubMed Central)', () => {
  const pmcPage = page(
    `<meta name="ncbi_db" content="pmc"><meta name="citation_title" content="Hydrogels for bone regeneration">
     <meta name="citation_doi" content="10.1021/acsbiomaterials.9b00001"><meta name="citation_publisher" content="American Chemical Society">`,
    `<main><article><section class="front-matter"><div class="cg">Ana Lima, Bo Chen</div></section>
      <section class="abstract" id="abstract1"><h2>Abstract</h2><p>Gelatin hydrogels raised bone volume by 40%.</p></section>
      <section class="body main-article-body"><section id="sec1"><h2 class="pmc_sec_title">1. Introduction</h2><p>${filler('gelatin')}</p><p>${filler('bioglass')}</p><p>${filler('scaffold')}</p></section>
        <section class="tw xbox font-sm" id="tbl1"><h3 class="obj_head">Table 1.</h3><div class="caption p"><p>Compressive moduli.</p></div>
          <div class="tbl-box p"><table class="content"><tr><th>Gel</th><th>E (kPa)</th></tr><tr><td>G1</td><td>35</td></tr></table></div></section>
        <figure class="fig xbox font-sm" id="fig1"><h3 class="obj_head">Figure 1.</h3><figcaption><p>Micro-CT of defects.</p></figcaption></figure></section>
      <section class="ref-list" id="ref-list1"><h2>References</h2><ul class="ref-list"><li>Cited hydrogel work.</li></ul></section></article></main>`,
  );

  it('is chosen over the DOI prefix of the original publisher, and reads sections, tables and captions', () => {
    const article = captureString(pmcPage);
    expect(article).toMatchObject({ adapter: 'pmc', doi: '10.1021/acsbiomaterials.9b00001', abstractOnly: false });
    expect(article.blocks[0]).toMatchObject({ section: 'Abstract', text: 'Gelatin hydrogels raised bone volume by 40%.' });
    expect(textsOf(article, 'table')).toEqual(['Gel\tE (kPa)\nG1\t35']);
    expect(textsOf(article, 'caption')).toEqual(['Table 1. Compressive moduli.', 'Figure 1. Micro-CT of defects.']);
    expect(article.text).not.toMatch(/Cited hydrogel|Ana Lima/);
  });

  it('is chosen by host when the URL is known', () => {
    expect(captureString(pmcPage, 'https://pmc.ncbi.nlm.nih.gov/articles/PMC7417471/').adapter).toBe('pmc');
  });
});

describe('chooseAdapter', () => {
  const context = (head: string, url: string | null, doi: string | null, publisher: string | null = null) => {
    const document = parseHtml(page(head, ''));
    return chooseAdapter({ document, url, host: url ? new URL(url).hostname : null, doi, publisher }).id;
  };

  it('goes by URL host first, then DOI prefix, then publisher name, else generic', () => {
    expect(context('', 'https://pubs.acs.org/doi/10.1039/x', '10.1039/x')).toBe('acs');
    expect(context('', 'https://www.nature.com/articles/nmat942', null)).toBe('springer');
    expect(context('', null, '10.1039/c7ta06843c')).toBe('rsc');
    expect(context('', null, '10.1103/physrevb.1.1')).toBe('aps');
    expect(context('', null, null, 'WILEY-VCH Verlag')).toBe('wiley');
    expect(context('', null, '10.5555/unknown', 'Some Society')).toBe('generic');
  });

  it('falls back to distinctive markup for pages saved without DOI or publisher', () => {
    const document = parseHtml('<div class="page-body pagefulltext"><div class="hlFld-Fulltext"></div></div>');
    expect(chooseAdapter({ document, url: null, host: null, doi: null, publisher: null }).id).toBe('aip');
  });
});
