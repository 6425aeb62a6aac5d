import { describe, expect, it } from 'vitest';
import { findGutter, orderLines } from '../../../../src/capture/pdf/columns';
import { dropRunningLines } from '../../../../src/capture/pdf/running-lines';
import { groupLines, joinFragments, toTextFragment } from '../../../../src/capture/pdf/text-lines';
import { arxivIdFromStamp } from '../../../../src/capture/pdf/pdf-metadata';
import { column, fragment } from './synthetic-text';

describe('two-column reading order', () => {
  // Letter page: columns at x = 54 and x = 318 (each ~216 pt wide), a title across both.
  const title = fragment('A full width title that spans both of the columns on page one', 100, 740, 14);
  const left = column('left', 54, 700, 30);
  const right = column('right', 318, 700, 30);

  it('finds the gutter between the columns', () => {
    const gutter = findGutter([title, ...left, ...right], 612);
    expect(gutter).not.toBeNull();
    const leftEdge = Math.max(...left.map((run) => run.x + run.width));
    expect(gutter!.left).toBeGreaterThanOrEqual(leftEdge - 1);
    expect(gutter!.right).toBeLessThanOrEqual(318);
    expect(gutter!.right).toBeGreaterThan(gutter!.left);
  });

  it('reads the title, then the whole left column, then the right column', () => {
    const fragments = [...right, title, ...left];
    const lines = orderLines(groupLines(fragments, findGutter(fragments, 612)));
    const texts = lines.map((line) => line.text);
    expect(texts[0]).toBe(title.text);
    expect(texts.slice(1, 31).every((text) => text.startsWith('left'))).toBe(true);
    expect(texts.slice(31).every((text) => text.startsWith('right'))).toBe(true);
    expect(texts.at(-1)).toBe('right line 30 of running body text here');
  });

  it('reads a single-column page top to bottom', () => {
    const single = Array.from({ length: 30 }, (_, index) =>
      fragment(`single column line ${index + 1} ${'word '.repeat(12)}`, 72, 700 - index * 12),
    );
    expect(findGutter(single, 612)).toBeNull();
    const lines = orderLines(groupLines(single, null));
    expect(lines.map((line) => line.text.split(' ')[3])).toEqual(Array.from({ length: 30 }, (_, index) => String(index + 1)));
  });

  it('keeps a full-width paragraph whole when its last line is short (abstract ending)', () => {
    const abstract = [
      fragment('The abstract runs across the whole page width and is read before both body columns.', 100, 740),
      fragment('It ends with a short line.', 100, 728),
    ];
    const fragments = [...abstract, ...left, ...right];
    const lines = orderLines(groupLines(fragments, findGutter(fragments, 612)));
    expect(lines[1]!.text).toBe('It ends with a short line.');
    expect(lines[1]!.region).toBe('full');
  });
});

describe('lines from text runs', () => {
  it('joins subscripts and superscripts to their base without spaces', () => {
    const runs = [
      fragment('the T', 54, 500),
      fragment('c', 54 + 25, 498, 7),
      fragment('of MgB', 54 + 25 + 3.5 + 2.5, 500),
      fragment('2', 54 + 25 + 3.5 + 2.5 + 30, 498, 7),
      fragment('is 10', 54 + 25 + 3.5 + 2.5 + 30 + 3.5 + 2.5, 500),
      fragment('-3', 54 + 25 + 3.5 + 2.5 + 30 + 3.5 + 2.5 + 25, 504, 7),
    ];
    const lines = groupLines(runs, null);
    expect(lines).toHaveLength(1);
    expect(lines[0]!.text).toBe('the Tc of MgB2 is 10-3');
    expect(lines[0]!.y).toBe(500);
  });

  it('inserts a space where runs are a word space apart', () => {
    expect(joinFragments([fragment('word', 0, 0), fragment('next', 20 + 3, 0)])).toBe('word next');
    expect(joinFragments([fragment('word', 0, 0), fragment('s', 20, 0)])).toBe('words');
  });

  it('marks the rotated arXiv side stamp, whose identifier is metadata', () => {
    const stamp = toTextFragment(
      {
        str: 'arXiv:1903.04321v1 [cond-mat.supr-con] 11 Mar 2019',
        transform: [0, 20, -20, 0, 32, 172],
        width: 453,
        height: 20,
        fontName: 'F9',
        hasEOL: false,
      },
      [0, 0, 612, 792],
    );
    expect(stamp?.rotated).toBe(true);
    expect(arxivIdFromStamp(stamp!.text)).toBe('1903.04321v1');
    expect(arxivIdFromStamp('arXiv:cond-mat/0202251v2 [cond-mat.str-el] 7 Oct 2002')).toBe('cond-mat/0202251v2');
    const upright = toTextFragment(
      { str: 'Body text', transform: [10, 0, 0, 10, 72, 700], width: 45, height: 10, fontName: 'F1', hasEOL: false },
      [0, 0, 612, 792],
    );
    expect(upright).toMatchObject({ rotated: false, fontSize: 10, x: 72, y: 700 });
  });

  it('replaces ligatures and the Unicode minus in runs', () => {
    const run = toTextFragment(
      { str: '\uFB01eld of \u22125 K', transform: [10, 0, 0, 10, 0, 0], width: 50, height: 10, fontName: 'F1', hasEOL: false },
      [0, 0, 612, 792],
    );
    expect(run?.text).toBe('field of -5 K');
  });
});

describe('running headers and footers', () => {
  const page = (number: number) => {
    const fragments = [
      fragment(`PHYSICAL REVIEW B 94, 16110${number} (2016)`, 54, 750),
      ...column(`page ${number}`, 54, 700, 20),
      fragment(String(number), 300, 40),
    ];
    return { lines: groupLines(fragments, null), height: 792 };
  };

  it('drops headers repeated with changing digits and bare page numbers, keeping the body', () => {
    const kept = dropRunningLines([page(1), page(2), page(3), page(4)]);
    for (const lines of kept) {
      expect(lines).toHaveLength(20);
      expect(lines.some((line) => line.text.includes('PHYSICAL REVIEW'))).toBe(false);
    }
  });

  it('keeps a margin line that appears on one page only', () => {
    const pages = [page(1), page(2), page(3)];
    pages[0]!.lines.push(...groupLines([fragment('Received 2 July 2015; published 12 February 2016', 54, 60)], null));
    const kept = dropRunningLines(pages);
    expect(kept[0]!.some((line) => line.text.startsWith('Received'))).toBe(true);
  });
});

describe('a sentence repeated on every page (issue 27, item 12)', () => {
  const withFooter = (number: number, footer: string) => {
    const fragments = [
      fragment(`PHYSICAL REVIEW B 94, 16110${number} (2016)`, 54, 750),
      ...column(`page ${number}`, 54, 700, 20),
      fragment(footer, 54, 50),
    ];
    return { lines: groupLines(fragments, null), height: 792 };
  };

  it('keeps the first occurrence of a repeated sentence, its only statement, and drops the rest', () => {
    const kept = dropRunningLines([1, 2, 3, 4].map((number) => withFooter(number, 'The band gap of GaN is 3.4 eV at 300 K.')));
    const copies = kept.map((lines) => lines.filter((line) => line.text === 'The band gap of GaN is 3.4 eV at 300 K.').length);
    expect(copies).toEqual([1, 0, 0, 0]);
    expect(kept.flat().some((line) => line.text.includes('PHYSICAL REVIEW'))).toBe(false);
  });

  it.each([
    'Journal of Physics: Condensed Matter',
    'L-H Liu et al',
    'YONGKANG LUO et al.',
    'doi:10.1088/0953-8984/28/9/094014',
    'SUPERCONDUCTIVITY IN THIN FILMS OF FESE.',
  ])('still drops the running line "%s" everywhere', (footer) => {
    const kept = dropRunningLines([1, 2, 3].map((number) => withFooter(number, footer)));
    expect(kept.flat().some((line) => line.text === footer)).toBe(false);
  });
});
