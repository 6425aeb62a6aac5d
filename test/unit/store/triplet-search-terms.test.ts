import { describe, expect, it } from 'vitest';
import { indexTerms, MAX_WORD_LENGTH, MAX_WORD_PARTS, searchWords, textFingerprint } from '../../../src/store/triplet-search-terms';

describe('searchWords', () => {
  it('splits at white space only, drops end punctuation, lower-cases and applies NFKC', () => {
    expect(searchWords('  (TiO₂), Ba0.5Sr0.5TiO3;\tﬁlm "UV–Vis" ')).toEqual(['tio2', 'ba0.5sr0.5tio3', 'film', 'uv–vis']);
    expect(searchWords(' ... — ')).toEqual([]);
  });

  it('cuts a word to its first MAX_WORD_LENGTH characters', () => {
    expect(searchWords('x'.repeat(MAX_WORD_LENGTH + 50))).toEqual(['x'.repeat(MAX_WORD_LENGTH)]);
  });
});

describe('indexTerms', () => {
  it('keeps a DOI and a formula whole, with each tail after an inner punctuation mark', () => {
    expect(indexTerms('doi 10.1021/acs.nanolett.5b01234.')).toEqual([
      'doi',
      '10.1021/acs.nanolett.5b01234',
      '1021/acs.nanolett.5b01234',
      'acs.nanolett.5b01234',
      'nanolett.5b01234',
      '5b01234',
    ]);
    expect(indexTerms('Ca(OH)2 photo-luminescence')).toEqual(['ca(oh)2', 'oh)2', '2', 'photo-luminescence', 'luminescence']);
  });

  it('indexes at most MAX_WORD_PARTS tails of one word', () => {
    expect(indexTerms('a.b.c.d.e.f.g.h.i.j.k.l')).toHaveLength(1 + MAX_WORD_PARTS);
  });
});

describe('textFingerprint', () => {
  it('is FNV-1a 32 (published test vectors) and tells texts apart', () => {
    // From the FNV reference test suite: FNV-1a 32 of "" and of "a".
    expect(textFingerprint('')).toBe(0x811c9dc5);
    expect(textFingerprint('a')).toBe(0xe40c292c);
    expect(textFingerprint('TiO2 anatase')).not.toBe(textFingerprint('TiO2 rutile'));
  });
});
