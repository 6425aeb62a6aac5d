import { describe, expect, it } from 'vitest';
import { selectBodyBlocks } from '../../../../src/capture/pdf/body-blocks';
import { collectHyphenatedWords, joinLineTexts } from '../../../../src/capture/pdf/join-lines';
import { buildPageBlocks, classifyBlock, type LayoutBlock } from '../../../../src/capture/pdf/page-blocks';
import { groupLines } from '../../../../src/capture/pdf/text-lines';
import { fragment } from './synthetic-text';

describe('joining lines', () => {
  it('removes a hyphen that breaks a lower-case word', () => {
    expect(joinLineTexts(['the elec-', 'tron gas'])).toBe('the electron gas');
  });

  it('keeps the hyphen of formulas and compounds, joining without a space', () => {
    expect(joinLineTexts(['single crystals of Ba1-', 'xKxBiO3 were'])).toBe('single crystals of Ba1-xKxBiO3 were');
    expect(joinLineTexts(['overdoped La2-', 'xSrxCuO4'])).toBe('overdoped La2-xSrxCuO4');
    expect(joinLineTexts(['a type-', 'II superconductor'])).toBe('a type-II superconductor');
    expect(joinLineTexts(['the Cu-', '2 site'])).toBe('the Cu-2 site');
  });

  it('keeps the hyphen of a compound the document prints whole elsewhere', () => {
    const hyphenated = collectHyphenatedWords(['a two-dimensional electron gas in the plane']);
    expect(joinLineTexts(['this two-', 'dimensional system'], hyphenated)).toBe('this two-dimensional system');
    expect(joinLineTexts(['this two-', 'dimensional system'])).toBe('this twodimensional system');
  });

  it('joins ordinary lines with one space and keeps a spaced minus', () => {
    expect(joinLineTexts(['first line', 'second line'])).toBe('first line second line');
    expect(joinLineTexts(['x = 5 -', '3'])).toBe('x = 5 - 3');
  });
});

describe('block kinds', () => {
  it('recognises numbered and named section titles', () => {
    for (const title of [
      'I. INTRODUCTION',
      '2. Experimental',
      '2.1. Sample preparation',
      'References',
      'Acknowledgments',
      'III. RESULTS AND DISCUSSION',
    ]) {
      expect(classifyBlock(title, 1, 10, 10), title).toBe('heading');
    }
  });

  it('does not take numbers, axis labels or sentences for titles', () => {
    for (const text of [
      '2.6 K is seen in the susceptibility versus temperature data',
      '3.43 1.35 GPa',
      '0.6 T = 310 mK',
      'A. Smith, B. Jones and C. Brown',
    ]) {
      expect(classifyBlock(text, 1, 10, 10), text).toBe('paragraph');
    }
  });

  it('takes a short line in a larger font for a heading', () => {
    expect(classifyBlock('Crystal growth and structure', 1, 12, 10)).toBe('heading');
    expect(classifyBlock('Crystal growth and structure', 1, 10, 10)).toBe('paragraph');
  });

  it('recognises captions but not sentences about figures', () => {
    expect(classifyBlock('FIG. 1. Resistivity versus temperature.', 2, 9, 10)).toBe('caption');
    expect(classifyBlock('Figure 3: Phase diagram', 1, 9, 10)).toBe('caption');
    expect(classifyBlock('TABLE I. Lattice parameters', 1, 9, 10)).toBe('caption');
    expect(classifyBlock('Figure 2 shows the resistivity of all samples, which drops at Tc.', 2, 10, 10)).toBe('paragraph');
  });
});

describe('blocks of a page', () => {
  it('splits paragraphs at indents, gaps and headings, and joins their lines', () => {
    const runs = [
      fragment('I. INTRODUCTION', 120, 700),
      fragment('Superconductivity in the cuprates was discovered in', 54, 680),
      fragment('1986 and has been studied ever since by many groups.', 54, 668),
      fragment('A second paragraph starts with an indented line of', 64, 656),
      fragment('text that continues at the margin of the column.', 54, 644),
      fragment('After a blank gap a third paragraph begins here at the', 54, 614),
      fragment('margin without any indentation at all in this layout.', 54, 602),
    ];
    const blocks = buildPageBlocks(groupLines(runs, null), 1, 10, new Set());
    expect(blocks.map((block) => [block.kind, block.text.slice(0, 20)])).toEqual([
      ['heading', 'I. INTRODUCTION'],
      ['paragraph', 'Superconductivity in'],
      ['paragraph', 'A second paragraph s'],
      ['paragraph', 'After a blank gap a '],
    ]);
    expect(blocks.every((block) => block.page === 1)).toBe(true);
  });
});

describe('sections and the reference list', () => {
  const block = (kind: LayoutBlock['kind'], text: string, page = 1): LayoutBlock => ({ kind, text, page, fontSize: 10, lines: [] });
  const paragraph = 'Body text that is long enough to count as a real paragraph of the article. '.repeat(4);

  it('sets section from the last heading and cuts the reference list, keeping later captions', () => {
    const { blocks, referencesCut } = selectBodyBlocks([
      block('heading', 'I. INTRODUCTION'),
      block('paragraph', paragraph),
      block('heading', 'II. RESULTS', 2),
      block('paragraph', paragraph, 2),
      block('heading', 'References', 3),
      block('paragraph', '[1] A. Author, Phys. Rev. B 94, 161104 (2016).', 3),
      block('caption', 'FIG. 1. Resistivity of the samples.', 4),
    ]);
    expect(referencesCut).toBe(true);
    expect(blocks.map((kept) => kept.text.slice(0, 12))).toEqual([
      'I. INTRODUCT',
      paragraph.slice(0, 12),
      'II. RESULTS',
      paragraph.slice(0, 12),
      'FIG. 1. Resi',
    ]);
    expect(blocks[3]!.section).toBe('II. RESULTS');
  });

  it('resumes on a later page that starts with figure text, and reports reference-only pages', () => {
    const { blocks, referenceOnlyPages } = selectBodyBlocks([
      block('paragraph', paragraph, 1),
      block('paragraph', paragraph, 1),
      block('heading', 'References', 2),
      block('paragraph', '[1] J. G. Bednorz and K. A. Müller, Z. Phys. B 64, 189 (1986).', 2),
      block('paragraph', '[2] M. K. Wu et al., Phys. Rev. Lett. 58, 908 (1987).', 3),
      block('paragraph', 'Resistivity (mΩ cm) Temperature (K)', 4),
      block('caption', 'Figure 1. Resistivity of the films.', 4),
    ]);
    expect(blocks.map((kept) => kept.page)).toEqual([1, 1, 4, 4]);
    expect(referenceOnlyPages).toEqual([2, 3]);
  });

  it('cuts an unheaded REVTeX reference list that starts with [1]', () => {
    const { blocks } = selectBodyBlocks([
      block('paragraph', paragraph),
      block('paragraph', paragraph),
      block('paragraph', '[1] J. G. Bednorz and K. A. Müller, Z. Phys. B 64, 189 (1986).'),
    ]);
    expect(blocks).toHaveLength(2);
  });

  it('does not cut at a References heading in the first part of the document', () => {
    const { blocks, referencesCut } = selectBodyBlocks([
      block('heading', 'References'),
      block('paragraph', paragraph),
      block('paragraph', paragraph),
    ]);
    expect(referencesCut).toBe(false);
    expect(blocks).toHaveLength(3);
  });
});
