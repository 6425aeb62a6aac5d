import { describe, expect, it } from 'vitest';
import { ArticleBuilder } from '../../../../src/capture/article-builder';
import { isDataTable } from '../../../../src/capture/html/block-rules';
import { BodyWalker, type WalkRules } from '../../../../src/capture/html/body-walker';
import { parseHtml } from './html-test-helpers';

const NO_RULES: WalkRules = { exclude: '', caption: '', sectionHeading: '', figure: '', title: null };

/** Walk `body` markup with the given rules; returns the built blocks. */
function walk(body: string, rules: Partial<WalkRules> = {}) {
  const document = parseHtml(`<!DOCTYPE html><html><body>${body}</body></html>`);
  const builder = new ArticleBuilder();
  new BodyWalker(builder, { ...NO_RULES, ...rules }, new Set(), document).walk(document.body);
  return builder.build();
}

describe('BodyWalker: headings and sections', () => {
  it('turns h1–h6 into heading blocks that set the section of what follows', () => {
    const { blocks } = walk(`
      <h2>2. Experimental</h2><p>Films were grown by PLD.</p>
      <h3>2.1 Characterization</h3><p>XRD used Cu Kα radiation.</p>`);
    expect(blocks.map((block) => [block.kind, block.section, block.text])).toEqual([
      ['heading', '2. Experimental', '2. Experimental'],
      ['paragraph', '2. Experimental', 'Films were grown by PLD.'],
      ['heading', '2.1 Characterization', '2.1 Characterization'],
      ['paragraph', '2.1 Characterization', 'XRD used Cu Kα radiation.'],
    ]);
  });

  it('recognizes publisher section-title elements given as a selector', () => {
    const { blocks } = walk(`<div class="sectionHeading">Results</div><p>The band gap is 3.4 eV.</p>`, {
      sectionHeading: '.sectionHeading',
    });
    expect(blocks[0]).toMatchObject({ kind: 'heading', text: 'Results' });
    expect(blocks[1]).toMatchObject({ kind: 'paragraph', section: 'Results' });
  });

  it('does not repeat the article title as a section heading', () => {
    const { blocks } = walk(`<h1>Strain in GaN</h1><p>Intro text.</p>`, { title: 'Strain in GaN' });
    expect(blocks.map((block) => block.kind)).toEqual(['paragraph']);
  });

  it('reads a "Figure 2: …" heading as a caption', () => {
    const { blocks } = walk(`<h3>Figure 2: TEM images of InP wires.</h3>`);
    expect(blocks[0]).toMatchObject({ kind: 'caption', text: 'Figure 2: TEM images of InP wires.' });
  });

  it('drops a bare "Figure 1" label heading when the caption below repeats it (ACS 2023 pages)', () => {
    const { blocks } = walk(`<h3>Figure 1</h3><figure><figcaption>Figure 1. Flowchart of the workflow.</figcaption></figure>`);
    expect(blocks.map((block) => [block.kind, block.text])).toEqual([['caption', 'Figure 1. Flowchart of the workflow.']]);
  });
});

describe('BodyWalker: paragraphs and inline runs', () => {
  it('makes one paragraph per text run between block children and keeps inline markup text', () => {
    const { blocks } = walk(`<div>Lead text with <i>italic</i> and H<sub>2</sub>O.<p>Inner paragraph.</p>Tail text.</div>`);
    expect(blocks.map((block) => block.text)).toEqual(['Lead text with italic and H2O.', 'Inner paragraph.', 'Tail text.']);
  });

  it('joins a short label or a <dt> term with the paragraph that follows it and drops bare bullets', () => {
    const { blocks } = walk(`<ul><li><span>•</span><div>Tests at 600 °C.</div></li></ul><dl><dt>LP</dt><dd>loading path</dd></dl>`);
    expect(blocks.map((block) => block.text)).toEqual(['Tests at 600 °C.', 'LP loading path']);
  });

  it('turns a character drawn as an image into the character', () => {
    const { blocks } = walk(`<p>4.49 <img src="/__chars/plus/special/plusmn/black/med/base/glyph.gif" alt="plusminus"> 0.75 nm</p>`);
    expect(blocks[0]?.text).toBe('4.49 ± 0.75 nm');
  });
});

describe('BodyWalker: captions and tables', () => {
  it('reads figcaption as a caption and leaves out the image and its links', () => {
    const { blocks } = walk(
      `<figure><img src="f1.png" alt="Figure 1 image"><a href="#">Download slide</a><figcaption>Figure 1. XRD patterns.</figcaption></figure>`,
    );
    expect(blocks.map((block) => [block.kind, block.text])).toEqual([['caption', 'Figure 1. XRD patterns.']]);
  });

  it('reads the text of a figure without a marked caption as caption (old publisher pages)', () => {
    const { blocks } = walk(`<div class="figure"><img src="f.gif"><p>Fig. 3. Cycling at 1 C.</p></div>`, { figure: '.figure' });
    expect(blocks[0]).toMatchObject({ kind: 'caption', text: 'Fig. 3. Cycling at 1 C.' });
  });

  it('emits a data table as one block: rows on lines, cells split by tabs, its caption before it', () => {
    const { blocks, text } = walk(`
      <table><caption>Table 1. Lattice parameters.</caption>
        <thead><tr><th>Sample</th><th>a (Å)</th></tr></thead>
        <tbody><tr><td>LLZO</td><td>12.97</td></tr><tr><td>Al-LLZO</td><td>12.96</td></tr></tbody>
      </table>`);
    expect(blocks.map((block) => block.kind)).toEqual(['caption', 'table']);
    expect(blocks[1]?.text).toBe('Sample\ta (Å)\nLLZO\t12.97\nAl-LLZO\t12.96');
    expect(text).toContain('LLZO\t12.97');
  });

  it('reads a layout table (paragraphs, headings inside) as ordinary content, not as a table', () => {
    const { blocks } = walk(`<table><tr><td><h2>Results</h2><p>Capacity was 600 mAh/g.</p></td><td>side</td></tr></table>`);
    expect(blocks.map((block) => block.kind)).toEqual(['heading', 'paragraph', 'paragraph']);
  });

  it('reads a one-row equation table as one paragraph with its number', () => {
    const { blocks } = walk(`<table class="formula"><tr><td>E = mc²</td><td>(1)</td></tr></table>`);
    expect(blocks.map((block) => block.text)).toEqual(['E = mc² (1)']);
  });

  it('tells data tables from image tables', () => {
    const document = parseHtml(
      '<table id="a"><tr><td><img src="x"></td></tr><tr><td>Fig. 1 caption</td></tr></table><table id="b"><tr><td>x</td><td>1</td></tr><tr><td>y</td><td>2</td></tr></table>',
    );
    expect(isDataTable(document.getElementById('a')!)).toBe(false);
    expect(isDataTable(document.getElementById('b')!)).toBe(true);
  });
});

describe('BodyWalker: what is left out', () => {
  it('leaves out a flat reference list from its heading to the next heading of the same level', () => {
    const { text } = walk(`
      <h2>Conclusions</h2><p>Doping raised Tc to 39 K.</p>
      <h2>References</h2><p>1. A. Author, Phys. Rev. B 1, 1 (1990).</p><ol><li>2. B. Author, Nature 2, 2 (1991).</li></ol>
      <h2>Appendix</h2><p>Extra data.</p>`);
    expect(text).toContain('Doping raised Tc to 39 K.');
    expect(text).not.toMatch(/Phys\. Rev\. B|Nature 2/);
    expect(text).toContain('Extra data.');
  });

  it('leaves out a back-matter container opened by its heading, even when the heading is wrapped', () => {
    const { text } = walk(`
      <div class="body"><p>Main text.</p>
        <div class="refs"><div class="sectionInfo"><h4>REFERENCES</h4></div><ol><li>Cited work 1.</li></ol></div>
        <p>After references.</p></div>`);
    expect(text).toContain('Main text.');
    expect(text).not.toContain('Cited work 1.');
    expect(text).toContain('After references.');
  });

  it('leaves out page controls and publisher counters written as text (ACS 2023 pages)', () => {
    const { text } = walk(
      `<p>The authors declare no competing financial interest.</p><div>This article references 52 other publications.</div><a href="x.pdf">Download PDF</a>`,
    );
    expect(text).toBe('The authors declare no competing financial interest.');
  });

  it('leaves out "Cited by", metrics and keywords sections', () => {
    const { text } = walk(
      `<h2>Cited By</h2><p>This article is cited by 12 publications.</p><h2>Metrics</h2><p>1234 views</p><h2>Discussion</h2><p>Kept.</p>`,
    );
    expect(text).toBe('Discussion\n\nKept.');
  });

  it('leaves out hidden elements: hidden attribute, aria-hidden, inline display:none', () => {
    const { text } = walk(`
      <p>Visible.</p><p hidden>Hidden attribute.</p><div aria-hidden="true">Aria hidden.</div>
      <p style="color:red; display: none">Inline none.</p><p>Also <span style="display:none">not </span>visible.</p>`);
    expect(text).toBe('Visible.\n\nAlso visible.');
  });

  it('leaves out scripts, styles, svg, buttons, forms, navigation and excluded selectors', () => {
    const { text } = walk(
      `
      <nav>Menu</nav><script>var x = 1;</script><style>p{}</style><svg><text>Axis</text></svg>
      <button>Download PDF</button><form><label>Search</label></form>
      <div class="authors">J. Doe, MIT</div><p>Body text.</p>`,
      { exclude: '.authors' },
    );
    expect(text).toBe('Body text.');
  });

  it('leaves out duplicate MathJax renderings', () => {
    const { text } = walk(`<p>Gap <span class="MathJax">E<sub>g</sub></span><span class="MJX_Assistive_MathML">Eg</span> is 1.1 eV.</p>`);
    expect(text).toBe('Gap Eg is 1.1 eV.');
  });

  it('never changes the document it reads', () => {
    const document = parseHtml(
      `<body><h2>A</h2><p hidden>x</p><table><tr><td>1</td><td>2</td></tr><tr><td>3</td><td>4</td></tr></table><h2>References</h2><p>r</p></body>`,
    );
    const before = document.documentElement.outerHTML;
    new BodyWalker(new ArticleBuilder(), NO_RULES, new Set(), document).walk(document.body);
    expect(document.documentElement.outerHTML).toBe(before);
  });
});
