/**
 * The whole gate on one fact (issue 26): value role, conditions read from the evidence and
 * re-anchored, stated conditions checked, cited values sent to review. General sentences written
 * here; the real-paper traps are in test/unit/cli/verify-command tests.
 */
import { describe, expect, it } from 'vitest';
import type { Triplet } from '../../../src/contracts/triplet';
import { describeQuote } from '../../../src/text/anchoring';
import { judgeFact } from '../../../src/verify/judge-fact';
import { articleFromBlocks, paragraph, table } from '../text/article-from-blocks';

function fact(
  article: ReturnType<typeof articleFromBlocks>,
  quote: string,
  fields: Partial<Triplet> & Pick<Triplet, 'material' | 'value' | 'unit'>,
): Triplet {
  const start = article.text.indexOf(quote);
  if (start === -1) throw new Error(`quote not in the article: ${quote}`);
  return { property: 'band_gap', engine: 'test', evidence: describeQuote(article.text, start, start + quote.length), ...fields };
}

const number = (value: number) => ({ kind: 'number' as const, value });

describe('judgeFact', () => {
  const respectively =
    'In the case of XY2, the band gap is indirect and measures 1.86 and 2.31 eV at the GGA/PBE and HSE06 levels, respectively.';
  const article = articleFromBlocks([paragraph(respectively)]);

  it('verifies each value of a "respectively" sentence with its own method, read from the evidence with its span', () => {
    for (const [value, method] of [
      [1.86, 'GGA-PBE'],
      [2.31, 'HSE06'],
    ] as const) {
      const verdict = judgeFact(fact(article, respectively, { material: 'XY2', value: number(value), unit: 'eV' }), article);
      expect(verdict.status).toBe('verified');
      const read = verdict.conditions.find((condition) => condition.kind === 'method');
      expect(read?.value).toBe(method);
      expect(article.text.slice(read!.position!.start, read!.position!.end)).toBe(read!.text);
      expect(verdict.conditions.map((condition) => condition.value)).toContain('indirect');
    }
  });

  it('sends a fact to review when its stated method contradicts the one the evidence pairs with the value', () => {
    const stated = fact(article, respectively, {
      material: 'XY2',
      value: number(1.86),
      unit: 'eV',
      conditions: [{ kind: 'method', value: 'HSE06' }],
    });
    const verdict = judgeFact(stated, article);
    expect(verdict.status).toBe('needs_review');
    expect(verdict.reasons.join(' ')).toMatch(/HSE06 is stated, but the evidence gives GGA\/PBE/);
  });

  it('drops a stated condition the evidence does not show, with the reason, and keeps the fact', () => {
    const stated = fact(article, respectively, {
      material: 'XY2',
      value: number(2.31),
      unit: 'eV',
      conditions: [{ kind: 'temperature', value: '300 K', text: 'at 300 K' }],
    });
    const verdict = judgeFact(stated, article);
    expect(verdict.status).toBe('verified');
    expect(verdict.conditions.some((condition) => condition.kind === 'temperature')).toBe(false);
    expect(verdict.reasons.join(' ')).toMatch(/at 300 K is not in the evidence: dropped/);
  });

  it('sends another material\'s number in a "respectively" sentence to review, and verifies the material it belongs to', () => {
    const text = 'CdSe and CdTe are semiconductors with a direct band gap of 1.74 eV and 1.5 eV, respectively.';
    const pair = articleFromBlocks([paragraph(text)]);
    const wrong = judgeFact(fact(pair, text, { material: 'CdSe', value: number(1.5), unit: 'eV' }), pair);
    expect(wrong.status).toBe('needs_review');
    expect(wrong.reasons.join(' ')).toMatch(/gives this value to CdTe \("respectively"\), not to CdSe/);
    expect(judgeFact(fact(pair, text, { material: 'CdTe', value: number(1.5), unit: 'eV' }), pair).status).toBe('verified');
  });

  it('rejects a difference taken for a value, with the reason in words', () => {
    const text = 'Its bandgap is narrower than that of C60 by approximately 0.3 eV.';
    const differences = articleFromBlocks([paragraph(text)]);
    const verdict = judgeFact(fact(differences, text, { material: 'C60', value: number(0.3), unit: 'eV' }), differences);
    expect(verdict.status).toBe('rejected');
    expect(verdict.reasons.join(' ')).toMatch(/difference/);
  });

  it('rejects a model parameter that shares the unit', () => {
    const text = 'They determine a U parameter equal to 6.4 eV in order to fix the experimental band gap of GdN.';
    const parameter = articleFromBlocks([paragraph(text)]);
    const verdict = judgeFact(fact(parameter, text, { material: 'GdN', value: number(6.4), unit: 'eV' }), parameter);
    expect(verdict.status).toBe('rejected');
  });

  it('marks a cited value and sends it to review', () => {
    const text = 'Later on, SmN was shown to be a semiconductor with a band gap of 0.7 eV [19].';
    const cited = articleFromBlocks([paragraph(text)]);
    const verdict = judgeFact(fact(cited, text, { material: 'SmN', value: number(0.7), unit: 'eV' }), cited);
    expect(verdict.status).toBe('needs_review');
    expect(verdict.provenance).toMatchObject({ kind: 'cited', reference: '[19]' });
    expect(verdict.reasons.join(' ')).toMatch(/cited \[19\]/);
  });

  it('sends a value to review when the sentence gives two methods and does not pair them, even when the fact states one of them', () => {
    const text = 'Band gaps of 1.1 eV were found for AB with both PBE and HSE06 in our study.';
    const two = articleFromBlocks([paragraph(text)]);
    expect(judgeFact(fact(two, text, { material: 'AB', value: number(1.1), unit: 'eV' }), two).status).toBe('needs_review');
    const claimed = judgeFact(fact(two, text, { material: 'AB (HSE06)', value: number(1.1), unit: 'eV' }), two);
    expect(claimed.status).toBe('needs_review');
    expect(claimed.reasons.join(' ')).toMatch(/method/);
  });

  it("reads a table cell's method from its column header, mapped to the article's offsets", () => {
    const rows = 'Compound\tEg (HSE06) (eV)\tEg (Exp) (eV)\nGaN\t3.37\t3.50';
    const tabled = articleFromBlocks([paragraph('Table 1. Band gaps of nitrides.'), table(rows)]);
    const verdict = judgeFact(fact(tabled, rows, { material: 'GaN', value: number(3.5), unit: 'eV' }), tabled);
    expect(verdict.status).toBe('verified');
    const method = verdict.conditions.find((condition) => condition.kind === 'method')!;
    expect(method.value).toBe('experiment');
    expect(tabled.text.slice(method.position!.start, method.position!.end)).toBe(method.text);
  });
});

describe('judgeFact on a table flattened into prose', () => {
  const text = 'Compound Eg (HSE06) [eV] Eg (Exp) [eV] AlX 6.14 6.28 GaX 3.37 3.50 Band gaps of the nitrides.';
  const flattened = articleFromBlocks([paragraph(text)]);

  it("reads the method of the value's column, and the row's material", () => {
    const verdict = judgeFact(fact(flattened, text, { material: 'GaX', value: number(3.5), unit: 'eV' }), flattened);
    expect(verdict.status).toBe('verified');
    expect(verdict.conditions.map((condition) => condition.value)).toEqual(['experiment']);
  });

  it('reads headers set without a space and with mathematical italic letters, as PDF text has them', () => {
    const glued = 'Compound E\u{1D454}(HSE06) [eV] E\u{1D454}(Exp) [eV] AlX 6.14 6.28 GaX 3.37 3.50 Band gaps of the nitrides.';
    const article = articleFromBlocks([paragraph(glued)]);
    const verdict = judgeFact(fact(article, glued, { material: 'AlX (Exp)', value: number(6.14), unit: 'eV' }), article);
    expect(verdict.status).toBe('needs_review');
    expect(
      judgeFact(fact(article, glued, { material: 'AlX', value: number(6.14), unit: 'eV' }), article).conditions.map((c) => c.value),
    ).toEqual(['HSE06']);
  });

  it("does not let a fact claim the other column's method, nor another row's value", () => {
    const swapped = judgeFact(fact(flattened, text, { material: 'GaX (HSE06)', value: number(3.5), unit: 'eV' }), flattened);
    expect(swapped.status).toBe('needs_review');
    const otherRow = judgeFact(fact(flattened, text, { material: 'AlX', value: number(3.37), unit: 'eV' }), flattened);
    expect(otherRow.status).toBe('needs_review');
    expect(otherRow.reasons.join(' ')).toMatch(/row of GaX, not of AlX/);
  });
});
