import { describe, expect, it } from 'vitest';
import { ArticleSchema, type Article } from '../../../../src/contracts/article';
import { captureDocument } from '../../../../src/capture/capture-document';
import { CaptureError } from '../../../../src/capture/errors';
import { nodeDomParser } from '../../../../src/capture/node/node-dom';

/** Capture an XML string through the real entry point (type detection, repair, parsing). */
function capture(xml: string): Promise<Article> {
  return captureDocument(new TextEncoder().encode(xml), { domParser: nodeDomParser() });
}

function blockTexts(article: Article, kind: string): string[] {
  return article.blocks.filter((block) => block.kind === kind).map((block) => block.text);
}

const JATS = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE article PUBLIC "-//NLM//DTD JATS (Z39.96) Journal Publishing DTD v1.1 20151215//EN" "JATS-journalpublishing1.dtd">
<article xmlns:mml="http://www.w3.org/1998/Math/MathML" xmlns:xlink="http://www.w3.org/1999/xlink">
<front><journal-meta><journal-title-group><journal-title>Journal of Test Materials</journal-title></journal-title-group></journal-meta>
<article-meta><article-id pub-id-type="pmc">123</article-id><article-id pub-id-type="doi">10.1234/JTM.2020.42</article-id>
<title-group><article-title>Band gap of <italic>Cs</italic>PbBr<sub>3</sub>
  nanocrystals<xref ref-type="fn" rid="fn1">*</xref></article-title></title-group>
<contrib-group><contrib contrib-type="author"><name><surname>Sun</surname><given-names>Li</given-names></name></contrib>
<contrib contrib-type="author"><string-name>Ada Lovelace</string-name></contrib><contrib contrib-type="editor"><name><surname>Ed</surname><given-names>Itor</given-names></name></contrib></contrib-group>
<pub-date pub-type="ppub"><year>2021</year></pub-date><pub-date pub-type="epub"><day>3</day><year>2020</year></pub-date>
<abstract><p>We measure the band gap.</p></abstract><abstract abstract-type="graphical"><p>Graphical abstract text.</p></abstract>
</article-meta></front>
<body><sec><label>1.</label><title>Results</title><p>The band gap is 2.3 eV [<xref ref-type="bibr" rid="r1">12</xref>].</p>
<sec><title>Optical data</title><p>Before the table.<table-wrap id="t1"><label>Table 1</label><caption><title>Band gaps</title></caption>
<table><thead><tr><th>Material</th><th>Gap (eV)</th></tr></thead><tbody><tr><td>CsPbBr<sub>3</sub></td><td>2.3</td></tr></tbody></table>
<table-wrap-foot><p>Measured at 300 K.</p></table-wrap-foot></table-wrap>After the table.</p>
<fig id="f1"><label>Figure 1</label><caption><p>Absorption spectra.</p></caption><graphic xlink:href="f1.tif"/></fig>
<p>Energy <inline-formula><mml:math><mml:mi>E</mml:mi><mml:mo>=</mml:mo><mml:mi>h</mml:mi><mml:mi>ν</mml:mi></mml:math></inline-formula> follows.</p>
<disp-formula id="e1"><alternatives><tex-math>\\documentclass{minimal}\\begin{document}$$E_g$$\\end{document}</tex-math><mml:math><mml:msub><mml:mi>E</mml:mi><mml:mi>g</mml:mi></mml:msub></mml:math></alternatives></disp-formula>
</sec></sec></body>
<back><ack><p>We thank the beamline staff.</p></ack><ref-list><title>References</title><ref id="r1"><mixed-citation>A. Author, Some cited paper, 2001.</mixed-citation></ref></ref-list></back>
</article>`;

describe('captureXml: JATS', () => {
  it('reads metadata, sections, split paragraphs, tables and figures, and leaves out the references', async () => {
    const article = await capture(JATS);
    expect(ArticleSchema.safeParse(article).success).toBe(true);
    expect(article).toMatchObject({
      doi: '10.1234/jtm.2020.42',
      doiOrigin: 'xml',
      title: 'Band gap of CsPbBr3 nanocrystals',
      authors: ['Li Sun', 'Ada Lovelace'],
      journal: 'Journal of Test Materials',
      year: 2020,
      source: 'xml',
      adapter: 'jats',
      abstractOnly: false,
    });
    expect(article.blocks.map((block) => [block.kind, block.text])).toEqual([
      ['heading', 'Abstract'],
      ['paragraph', 'We measure the band gap.'],
      ['heading', '1. Results'],
      ['paragraph', 'The band gap is 2.3 eV [12].'],
      ['heading', 'Optical data'],
      ['paragraph', 'Before the table.'],
      ['caption', 'Table 1 Band gaps'],
      ['table', 'Material\tGap (eV)\nCsPbBr3\t2.3'],
      ['caption', 'Measured at 300 K.'],
      ['paragraph', 'After the table.'],
      ['caption', 'Figure 1 Absorption spectra.'],
      ['paragraph', 'Energy E=hν follows.'],
      ['paragraph', 'Eg'],
      ['heading', 'Acknowledgments'],
      ['paragraph', 'We thank the beamline staff.'],
    ]);
    expect(article.blocks[1]?.section).toBe('Abstract');
    expect(article.blocks[7]?.section).toBe('Optical data');
    expect(article.text).not.toContain('Some cited paper');
    expect(article.text).not.toContain('Graphical abstract');
  });

  it('marks an article without a body as abstract-only', async () => {
    const article = await capture(JATS.replace(/<body>[\s\S]*<\/body>/, ''));
    expect(article.abstractOnly).toBe(true);
    expect(blockTexts(article, 'paragraph')).toEqual(['We measure the band gap.', 'We thank the beamline staff.']);
  });

  it('builds ACS names from their parts, reads undeclared xlink and HTML entities, and respects <x> separators', async () => {
    const acs = `<?xml version="1.0" encoding="US-ASCII"?>
<!DOCTYPE article PUBLIC "-//Atypon//DTD Archiving and Interchange DTD Suite with ACHS extensions v2.2 20080601//EN" "archivearticle.dtd">
<article xmlns:mml="http://www.w3.org/1998/Math/MathML"><front><journal-meta><journal-title>ACS Nano</journal-title></journal-meta>
<article-meta><article-id pub-id-type="doi">10.1021/acsnano.0b00001</article-id><title-group><article-title>Vapor&ndash;Solid
Growth</article-title></title-group>
<contrib-group><contrib contrib-type="author"><name><given-names>Zai-xing</given-names><x> </x><surname>Yang</surname></name><x>, </x></contrib>
<contrib contrib-type="author"><name><given-names>Li</given-names><surname>Sun</surname></name><x> and </x></contrib></contrib-group>
<pub-date pub-type="ppub"><year>2017</year></pub-date></article-meta></front>
<body><sec><title/><p>See <ext-link xlink:href="http://pubs.acs.org">the site</ext-link> for pages 1<x>&ndash;</x>5.</p></sec></body></article>`;
    const article = await capture(acs);
    expect(article.adapter).toBe('jats-acs');
    expect(article.title).toBe('Vapor–Solid Growth');
    expect(article.authors).toEqual(['Zai-xing Yang', 'Li Sun']);
    expect(blockTexts(article, 'paragraph')).toEqual(['See the site for pages 1–5.']);
    expect(blockTexts(article, 'heading')).toEqual([]);
  });
});

describe('captureXml: failures', () => {
  it('rejects an unknown root as not-article, naming the root', async () => {
    const rss = '<?xml version="1.0"?><rss version="2.0"><channel><title>News</title></channel></rss>';
    await expect(capture(rss)).rejects.toMatchObject({ code: 'not-article', message: expect.stringContaining('<rss>') });
    const svg = '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><circle r="1"/></svg>';
    await expect(capture(svg)).rejects.toMatchObject({ code: 'not-article', message: expect.stringContaining('<svg>') });
  });

  it('rejects a JATS article without a title as not-article', async () => {
    const untitled = JATS.replace(/<title-group>[\s\S]*?<\/title-group>/, '');
    await expect(capture(untitled)).rejects.toBeInstanceOf(CaptureError);
    await expect(capture(untitled)).rejects.toMatchObject({ code: 'not-article' });
  });

  it('rejects a JATS file cut in half as truncated', async () => {
    await expect(capture(JATS.slice(0, Math.floor(JATS.length / 2)))).rejects.toMatchObject({ code: 'truncated' });
  });
});
