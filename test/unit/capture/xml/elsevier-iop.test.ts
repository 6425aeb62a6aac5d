import { describe, expect, it } from 'vitest';
import type { Article } from '../../../../src/contracts/article';
import { captureDocument } from '../../../../src/capture/capture-document';
import { nodeDomParser } from '../../../../src/capture/node/node-dom';

function capture(xml: string): Promise<Article> {
  return captureDocument(new TextEncoder().encode(xml), { domParser: nodeDomParser() });
}

const kindsAndTexts = (article: Article): string[][] => article.blocks.map((block) => [block.kind, block.text]);

// Modeled on the Article Retrieval API: CALS table entries carry the ce: namespace with no prefix,
// floats live in ce:floats and are placed by ce:float-anchor, layout whitespace around ce:inf.
const ARTICLE_BODY = `
<ce:floats>
  <ce:figure id="f1"><ce:label>Fig. 1</ce:label><ce:caption><ce:simple-para>XRD patterns.</ce:simple-para></ce:caption><ce:alt-text>Fig. 1</ce:alt-text></ce:figure>
  <ce:table xmlns="http://www.elsevier.com/xml/common/cals/dtd" id="t1"><ce:label>Table 1</ce:label>
    <ce:caption><ce:simple-para>Lattice constants.</ce:simple-para></ce:caption>
    <tgroup cols="2"><thead><row><entry xmlns="http://www.elsevier.com/xml/common/dtd">Phase</entry><entry xmlns="http://www.elsevier.com/xml/common/dtd">a (Å)</entry></row></thead>
    <tbody><row><entry xmlns="http://www.elsevier.com/xml/common/dtd">Mg<inf>2</inf>Si</entry><entry xmlns="http://www.elsevier.com/xml/common/dtd">6.35</entry></row></tbody></tgroup>
    <ce:table-footnote><ce:note-para>At 300 K.</ce:note-para></ce:table-footnote></ce:table>
</ce:floats>
<ja:head><ce:title>Ignored head title</ce:title>
  <ce:author-group><ce:author><ce:given-name>Thanh</ce:given-name><ce:surname>Nguyen</ce:surname></ce:author></ce:author-group>
  <ce:abstract class="author"><ce:section-title>Abstract</ce:section-title><ce:abstract-sec><ce:simple-para>Mg<ce:inf>2</ce:inf>Si is studied.</ce:simple-para></ce:abstract-sec></ce:abstract>
  <ce:abstract class="author-highlights"><ce:abstract-sec><ce:simple-para>Highlight text.</ce:simple-para></ce:abstract-sec></ce:abstract>
</ja:head>
<ja:body><ce:sections><ce:section><ce:label>1</ce:label><ce:section-title>Introduction</ce:section-title>
  <ce:para>The melting point <ce:italic>T</ce:italic>
     <ce:inf>
        <ce:italic>m</ce:italic>
     </ce:inf> is high <ce:cross-ref refid="b1">[1]</ce:cross-ref> (<ce:cross-ref refid="f1">Fig. 1</ce:cross-ref>).<ce:float-anchor refid="f1"/></ce:para>
  <ce:section><ce:label>1.1</ce:label><ce:section-title>Model</ce:section-title>
    <ce:para>The energy is<ce:display><ce:formula id="e1"><ce:label>(1)</ce:label><mml:math><mml:mi>E</mml:mi>
      <mml:mo>=</mml:mo> <mml:mn>0</mml:mn></mml:math></ce:formula></ce:display>where E is small.<ce:float-anchor refid="t1"/></ce:para>
  </ce:section></ce:section></ce:sections></ja:body>
<ja:tail><ce:acknowledgment><ce:section-title>Acknowledgements</ce:section-title><ce:para>Funded by X.</ce:para></ce:acknowledgment>
  <ce:bibliography><ce:section-title>References</ce:section-title><ce:bib-reference id="b1"><ce:other-ref><ce:textref>Cited work, 1999.</ce:textref></ce:other-ref></ce:bib-reference></ce:bibliography></ja:tail>`;

const EXPECTED_BLOCKS = [
  ['heading', 'Abstract'],
  ['paragraph', 'Mg2Si is studied.'],
  ['heading', '1 Introduction'],
  ['paragraph', 'The melting point Tm is high [1] (Fig. 1).'],
  ['caption', 'Fig. 1 XRD patterns.'],
  ['heading', '1.1 Model'],
  ['paragraph', 'The energy is'],
  ['paragraph', '(1) E=0'],
  ['paragraph', 'where E is small.'],
  ['caption', 'Table 1 Lattice constants.'],
  ['table', 'Phase\ta (Å)\nMg2Si\t6.35'],
  ['caption', 'At 300 K.'],
  ['heading', 'Acknowledgements'],
  ['paragraph', 'Funded by X.'],
];

describe('captureXml: Elsevier', () => {
  it('reads a full-text retrieval response: coredata, anchored floats, CALS table, no bibliography', async () => {
    const xml = `<full-text-retrieval-response xmlns="http://www.elsevier.com/xml/svapi/article/dtd" xmlns:ce="http://www.elsevier.com/xml/common/dtd" xmlns:ja="http://www.elsevier.com/xml/ja/dtd" xmlns:mml="http://www.w3.org/1998/Math/MathML" xmlns:xocs="http://www.elsevier.com/xml/xocs/dtd" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:prism="http://prismstandard.org/namespaces/basic/2.0/">
<coredata><prism:doi>10.1016/j.test.2018.02.024</prism:doi><dc:title>Thermoelectric Mg2Si </dc:title><prism:publicationName>Test Letters</prism:publicationName>
<prism:coverDate>2018-06-01</prism:coverDate><dc:creator>Nguyen, Thanh</dc:creator><dc:description>Abstract Mg2Si is studied.</dc:description></coredata>
<originalText><xocs:doc><xocs:serial-item><ja:article>${ARTICLE_BODY}</ja:article></xocs:serial-item></xocs:doc></originalText></full-text-retrieval-response>`;
    const article = await capture(xml);
    expect(article).toMatchObject({
      doi: '10.1016/j.test.2018.02.024',
      title: 'Thermoelectric Mg2Si',
      authors: ['Thanh Nguyen'],
      journal: 'Test Letters',
      year: 2018,
      adapter: 'elsevier',
      abstractOnly: false,
    });
    expect(kindsAndTexts(article)).toEqual(EXPECTED_BLOCKS);
    expect(article.text).not.toMatch(/Cited work|Highlight text|References/);
  });

  it('reads the abstract-only API view from dc:description', async () => {
    const xml = `<full-text-retrieval-response xmlns="http://www.elsevier.com/xml/svapi/article/dtd" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:prism="http://prismstandard.org/namespaces/basic/2.0/">
<coredata><prism:doi>10.1016/j.test.1</prism:doi><dc:title>Only an abstract</dc:title><dc:description>Abstract We found it.</dc:description></coredata></full-text-retrieval-response>`;
    const article = await capture(xml);
    expect(article.abstractOnly).toBe(true);
    expect(kindsAndTexts(article)).toEqual([
      ['heading', 'Abstract'],
      ['paragraph', 'We found it.'],
    ]);
  });

  it('reads a CONSYN document whose namespace URIs are placeholders', async () => {
    const placeholder = 'Full-text removed for copyright reasons';
    const xml = `<doc:document xmlns:doc="${placeholder}" xmlns:rdf="${placeholder}" xmlns:dct="${placeholder}" xmlns:prism="${placeholder}" xmlns:ja="${placeholder}" xmlns:ce="${placeholder}" xmlns:mml="${placeholder}">
<rdf:RDF><rdf:Description rdf:about="http://dx.doi.org/10.1016/j.geomphys.2020.1"><dct:title>Band crossings
</dct:title><dct:creator>Ralph Kaufmann</dct:creator><prism:publicationName>Journal of Geometry</prism:publicationName>
<prism:coverDisplayDate>December 2020</prism:coverDisplayDate><prism:doi>10.1016/j.geomphys.2020.1</prism:doi></rdf:Description></rdf:RDF>
<ja:article>${ARTICLE_BODY.replace(/ xmlns="[^"]*"/g, '')}</ja:article></doc:document>`;
    const article = await capture(xml);
    expect(article).toMatchObject({
      doi: '10.1016/j.geomphys.2020.1',
      title: 'Band crossings',
      journal: 'Journal of Geometry',
      year: 2020,
      adapter: 'elsevier-consyn',
    });
    expect(article.authors).toEqual(['Thanh Nguyen']);
    expect(kindsAndTexts(article)).toEqual(EXPECTED_BLOCKS);
  });
});

describe('captureXml: IOP legacy', () => {
  it('reads pretty-printed IOP XML inside <html><body>, joining subscripts and citations', async () => {
    const xml = `<?xml version="1.0" encoding="ISO-8859-1"?>
<!DOCTYPE article SYSTEM "http://ej.iop.org/dtd/iopv1_5_2.dtd">
<html>
 <body>
  <article artid="cm1">
   <article-metadata>
    <jnl-data><jnl-fullname>
      Journal of Physics: Condensed Matter
     </jnl-fullname></jnl-data>
    <volume-data><year-publication>
      2010
     </year-publication></volume-data>
    <article-data><doi>
      10.1088/0953-8984/22/14/146006
     </doi></article-data>
   </article-metadata>
   <header>
    <title-group>
     <title>
      Films of La
      <sub>
       2/3
      </sub>
      Ca
     </title>
     <ej-title>
      Films of La2/3Ca
     </ej-title>
    </title-group>
    <author-group>
     <author><first-names>
       S L
      </first-names><second-name>
       Li
      </second-name></author>
    </author-group>
    <abstract-group><abstract><heading>
       Abstract
      </heading><p>
       A La
       <sub>
        2/3
       </sub>
       Ca
       <sub>
        1/3
       </sub>
       MnO
       <sub>
        3
       </sub>
       film, &amp;phis; = 45&amp;deg;.
      </p></abstract></abstract-group>
   </header>
   <sec-level1 id="s1" label="1">
    <heading>
     Introduction
    </heading>
    <p>
     PHE was studied [
     <cite linkend="bib1">
      1–3
     </cite>
     ] in
     <italic>
      giant
     </italic>
     films.
     <figure id="fig1">
      <caption id="fc1" label="Figure 1">
       <p>
        The
        <italic>
         R–T
        </italic>
        curve.
       </p>
      </caption>
     </figure>
    </p>
    <table id="tab1">
     <caption id="tc1" label="Table 1">
      <p>
       Fits.
      </p>
     </caption>
     <tgroup cols="2"><thead><row><entry>
         T (K)
        </entry><entry>
         <italic>
          C
         </italic>
         <sub>
          0
         </sub>
         ′′ (Ω)
        </entry></row></thead></tgroup>
    </table>
   </sec-level1>
   <back>
    <references>
     <heading>
      References
     </heading>
     <reference-list><journal-ref id="bib1"><authors>Someone</authors></journal-ref></reference-list>
    </references>
   </back>
  </article>
 </body>
</html>`;
    const article = await capture(xml);
    expect(article).toMatchObject({
      doi: '10.1088/0953-8984/22/14/146006',
      title: 'Films of La2/3Ca',
      authors: ['S L Li'],
      journal: 'Journal of Physics: Condensed Matter',
      year: 2010,
      adapter: 'iop-legacy',
    });
    expect(kindsAndTexts(article)).toEqual([
      ['heading', 'Abstract'],
      ['paragraph', 'A La2/3Ca1/3MnO3 film, ϕ = 45°.'],
      ['heading', '1 Introduction'],
      ['paragraph', 'PHE was studied [1–3] in giant films.'],
      ['caption', 'Figure 1 The R–T curve.'],
      ['caption', 'Table 1 Fits.'],
      ['table', 'T (K)\tC0′′ (Ω)'],
    ]);
    expect(article.text).not.toContain('Someone');
  });
});
