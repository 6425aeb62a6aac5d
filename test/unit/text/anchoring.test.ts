import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Evidence } from '../../../src/contracts/evidence';
import type { Article } from '../../../src/contracts/article';
import { anchorEvidence, anchorQuoteInArticle, blockAt, completeEvidence, describeQuote } from '../../../src/text/anchoring';
import { articleFromBlocks } from './article-from-blocks';

// Real text: ../shared/datasets/bandgap-200/text-pub/11_10.1038_s41467-021-21203-6.txt, lines 413–418
// (line-end hyphens and the "ﬁ" ligature are as printed there).
const ZNO_PASSAGE = [
  'shows that downward BB is still induced by photoexcitation with',
  'hνpump = 3.2 eV (full width half maximum: 0.1 eV). This unam-',
  'biguously conﬁrms that, downward BB, and hence the PIPT, is not',
  'driven by excitations across the ZnO band gap (3.4 eV). Com-',
  'plementarily, Fig. 3e demonstrates that photoexcitation with',
  'hνpump = 3.0 eV does not induce downward surface BB, i.e., this',
].join('\n');
// The evidence sentence the curators wrote for that paper:
// ../shared/datasets/bandgap-200/manual_pub__manual.csv, line 17 (`source` column).
const CURATED_SENTENCE =
  'This unambiguously confirms that, downward BB, and hence the PIPT, is not driven  by excitations across the ZnO band gap (3.4 eV).';

function quoteOnly(exact: string, prefix = '', suffix = ''): Evidence {
  return { quote: { type: 'TextQuoteSelector', exact, prefix, suffix } };
}

function spanOf(text: string, needle: string): [number, number] {
  const start = text.indexOf(needle);
  if (start < 0) throw new Error(`test setup: ${needle} not in text`);
  return [start, start + needle.length];
}

describe('describeQuote', () => {
  it('gives the quote, 32 characters of context each side and the position', () => {
    const [start, end] = spanOf(ZNO_PASSAGE, 'ZnO band gap (3.4 eV)');
    const evidence = describeQuote(ZNO_PASSAGE, start, end);
    expect(evidence.quote.exact).toBe('ZnO band gap (3.4 eV)');
    expect(evidence.quote.prefix).toBe(ZNO_PASSAGE.slice(start - 32, start));
    expect(evidence.quote.suffix).toBe(ZNO_PASSAGE.slice(end, end + 32));
    expect(evidence.position).toEqual({ type: 'TextPositionSelector', start, end });
  });

  it('rejects an empty or out-of-range span', () => {
    expect(() => describeQuote('abc', 1, 1)).toThrow(RangeError);
    expect(() => describeQuote('abc', 2, 4)).toThrow(RangeError);
  });
});

describe('anchorEvidence', () => {
  it('anchors by position when the text at the position is the quote', () => {
    const [start, end] = spanOf(ZNO_PASSAGE, '(3.4 eV)');
    expect(anchorEvidence(ZNO_PASSAGE, describeQuote(ZNO_PASSAGE, start, end))).toEqual({ start, end, score: 1, method: 'position' });
  });

  it('falls back to an exact search when text was inserted before the quote', () => {
    const [start, end] = spanOf(ZNO_PASSAGE, 'ZnO band gap (3.4 eV)');
    const evidence = describeQuote(ZNO_PASSAGE, start, end);
    const edited = 'An inserted sentence. ' + ZNO_PASSAGE;
    const anchor = anchorEvidence(edited, evidence);
    expect(anchor).toMatchObject({ start: start + 22, end: end + 22, method: 'exact' });
    expect(anchor!.score).toBeGreaterThan(0.9);
  });

  it('tells repeated quotes apart by prefix and suffix', () => {
    // "hνpump = " occurs three times; the context picks the second one (3.2 eV).
    const text = ZNO_PASSAGE;
    const first = text.indexOf('hνpump = ');
    const second = text.indexOf('hνpump = ', first + 1);
    const evidence = describeQuote(text, second, second + 'hνpump = '.length);
    const withoutPosition: Evidence = { quote: evidence.quote };
    expect(anchorEvidence(text, withoutPosition)).toMatchObject({ start: second, method: 'exact' });
    // Without context, the first occurrence wins the tie.
    expect(anchorEvidence(text, quoteOnly('hνpump = '))).toMatchObject({ start: first });
  });

  it('ignores line breaks, line-end hyphens, double spaces and ligatures', () => {
    const anchor = anchorEvidence(ZNO_PASSAGE, quoteOnly(CURATED_SENTENCE));
    expect(anchor).not.toBeNull();
    expect(anchor!.method).toBe('exact');
    const found = ZNO_PASSAGE.slice(anchor!.start, anchor!.end);
    expect(found.startsWith('This unam-\nbiguously')).toBe(true);
    expect(found.endsWith('(3.4 eV).')).toBe(true);
  });

  it('finds a quote with a few typos by fuzzy matching', () => {
    const typed =
      'This unambigously confirms that downward BB, and hence the PIPT, is not driven by excitation across the ZnO band gap (3.4 eV).';
    const anchor = anchorEvidence(ZNO_PASSAGE, quoteOnly(typed));
    expect(anchor).toMatchObject({ method: 'fuzzy' });
    expect(ZNO_PASSAGE.slice(anchor!.start, anchor!.end)).toContain('ZnO band gap (3.4 eV)');
  });

  it('returns null for a quote that is not in the text', () => {
    expect(anchorEvidence(ZNO_PASSAGE, quoteOnly('The band gap of SrTiO3 was measured to be 3.25 eV by optical absorption.'))).toBeNull();
    expect(anchorEvidence(ZNO_PASSAGE, quoteOnly('3.5 eV'))).toBeNull();
  });

  it('matches a model copy that kept a line-end hyphen with a space ("unam- biguously")', () => {
    const copied = 'This unam- biguously conﬁrms that, downward BB, and hence the PIPT, is not driven by excitations';
    expect(anchorEvidence(ZNO_PASSAGE, quoteOnly(copied))).toMatchObject({ method: 'exact' });
  });

  it('anchors the pieces of an elided quote in order, and only in order', () => {
    const elided = 'shows that downward BB is still induced ... across the ZnO band gap (3.4 eV).';
    const anchor = anchorEvidence(ZNO_PASSAGE, quoteOnly(elided));
    expect(anchor).not.toBeNull();
    expect(ZNO_PASSAGE.slice(anchor!.start, anchor!.end)).toMatch(/^shows that downward BB[\s\S]*\(3\.4 eV\)\.$/);
    expect(
      anchorEvidence(ZNO_PASSAGE, quoteOnly('across the ZnO band gap (3.4 eV). … shows that downward BB is still induced')),
    ).toBeNull();
  });

  it('rejects a paraphrase of a real sentence (fuzzy similarity about 0.65–0.69)', () => {
    expect(
      anchorEvidence(
        ZNO_PASSAGE,
        quoteOnly('It is therefore clear that the PIPT is not driven by excitation across the band gap of ZnO (3.4 eV).'),
      ),
    ).toBeNull();
    expect(
      anchorEvidence(ZNO_PASSAGE, quoteOnly('This confirms that the PIPT is not driven by excitations across the ZnO gap of 3.4 eV.')),
    ).toBeNull();
  });

  it('ignores a position outside the text', () => {
    const evidence: Evidence = { ...quoteOnly('(3.4 eV)'), position: { type: 'TextPositionSelector', start: 9000, end: 9008 } };
    expect(anchorEvidence(ZNO_PASSAGE, evidence)).toMatchObject({ method: 'exact' });
  });

  it('re-anchors any span it described to exactly that span', () => {
    fc.assert(
      fc.property(
        fc
          .string({ minLength: 1, maxLength: 200 })
          .chain((text) =>
            fc.tuple(fc.constant(text), fc.integer({ min: 0, max: text.length - 1 }), fc.integer({ min: 1, max: text.length })),
          ),
        ([text, a, b]) => {
          const start = Math.min(a, b - 1);
          const end = Math.max(a + 1, b);
          fc.pre(start >= 0 && end <= text.length && start < end);
          const anchor = anchorEvidence(text, describeQuote(text, start, end));
          expect(anchor).toMatchObject({ start, end });
        },
      ),
    );
  });

  it('finds a described span again after text is prepended (no position hit)', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 120 }),
        fc.string({ minLength: 8, maxLength: 60 }),
        fc.string({ maxLength: 120 }),
        (before, quote, after) => {
          const text = before + quote + after;
          const evidence = describeQuote(text, before.length, before.length + quote.length);
          const anchor = anchorEvidence('#' + text, evidence);
          expect(anchor).not.toBeNull();
        },
      ),
    );
  });

  it('never throws on arbitrary text and evidence', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 300 }),
        fc.string({ minLength: 1, maxLength: 80 }),
        fc.string({ maxLength: 40 }),
        fc.string({ maxLength: 40 }),
        fc.option(fc.tuple(fc.nat(400), fc.nat(400))),
        (text, exact, prefix, suffix, position) => {
          const evidence: Evidence = {
            quote: { type: 'TextQuoteSelector', exact, prefix, suffix },
            ...(position ? { position: { type: 'TextPositionSelector', start: position[0], end: position[1] } } : {}),
          };
          const anchor = anchorEvidence(text, evidence);
          if (anchor) {
            expect(anchor.start).toBeGreaterThanOrEqual(0);
            expect(anchor.end).toBeLessThanOrEqual(text.length);
            expect(anchor.start).toBeLessThan(anchor.end);
          }
        },
      ),
    );
  });
});

describe('anchorQuoteInArticle and blockAt', () => {
  const paragraphs = ['Among them is the wide band gap (3.4 eV), of ZnO.', ZNO_PASSAGE];
  const text = paragraphs.join('\n\n');
  const article: Article = {
    doi: '10.1038/s41467-021-21203-6',
    doiOrigin: 'meta',
    title: 'Ultrafast generation and decay of a surface metal',
    authors: [],
    journal: null,
    year: 2021,
    url: null,
    source: 'pdf',
    adapter: 'generic',
    pageCount: 2,
    blocks: [
      { id: 'b0', kind: 'paragraph', page: 1, text: paragraphs[0]!, start: 0, end: paragraphs[0]!.length },
      { id: 'b1', kind: 'paragraph', page: 2, text: paragraphs[1]!, start: paragraphs[0]!.length + 2, end: text.length },
    ],
    text,
    abstractOnly: false,
    warnings: [],
  };

  it('anchors a bare quote from a model and finds its block and page', () => {
    const anchor = anchorQuoteInArticle(article, CURATED_SENTENCE);
    expect(anchor).not.toBeNull();
    expect(blockAt(article, anchor!.start)).toMatchObject({ id: 'b1', page: 2 });
    expect(blockAt(article, 3)).toMatchObject({ id: 'b0', page: 1 });
    expect(blockAt(article, paragraphs[0]!.length)).toBeNull();
    expect(anchorQuoteInArticle(article, '')).toBeNull();
  });
});

describe('completeEvidence (selectors for a bare model quote)', () => {
  const article = articleFromBlocks([
    { kind: 'heading', text: 'Results' },
    { kind: 'paragraph', text: 'Films were annealed at 450 °C. The band gap of GaN is 3.4 eV at room temperature.', page: 3 },
  ]);
  const bare = (exact: string): Evidence => ({ quote: { type: 'TextQuoteSelector', exact, prefix: '', suffix: '' } });

  it('adds position, prefix, suffix, block and page for a quote the article contains', () => {
    const start = article.text.indexOf('The band gap');
    // "Results" (7) + "\n\n" (2) = 9; the sentence starts 31 characters into the paragraph: 9 + 31 = 40.
    expect(start).toBe(40);
    expect(completeEvidence(article, bare('The band gap of GaN is 3.4 eV at room temperature.'))).toEqual({
      quote: {
        type: 'TextQuoteSelector',
        exact: 'The band gap of GaN is 3.4 eV at room temperature.',
        prefix: 'Results\n\nFilms were annealed at 450 °C. '.slice(-32),
        suffix: '',
      },
      position: { type: 'TextPositionSelector', start: 40, end: 90 },
      blockId: 'b1',
      page: 3,
    });
  });

  it('stores the article’s own text when the model changed the white space', () => {
    const completed = completeEvidence(article, bare('The band  gap of GaN\nis 3.4 eV'));
    expect(completed.quote.exact).toBe('The band gap of GaN is 3.4 eV');
    expect(completed.position).toEqual({ type: 'TextPositionSelector', start: 40, end: 69 });
  });

  it('leaves a quote the article does not contain without a position, so it never looks anchored', () => {
    const invented = bare('The band gap of GaN is 9.9 eV according to our model.');
    expect(completeEvidence(article, invented)).toEqual(invented);
  });
});
