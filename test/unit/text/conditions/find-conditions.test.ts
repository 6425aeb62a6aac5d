/**
 * `findConditionMentions` and `methodsCompatible` on sentences written for the test: each
 * condition kind, composites as one mention, word boundaries, and the sources of the lexicons.
 */
import { describe, expect, it } from 'vitest';
import { findConditionMentions, methodsCompatible } from '../../../../src/text/conditions';
import { EXPERIMENT_TERMS, METHOD_MODIFIERS, METHOD_TERMS, SPIN_ORBIT_PHRASES } from '../../../../src/text/conditions/method-lexicon';
import { CRYSTAL_DIRECTION_SOURCE, GAP_CHARACTER_SOURCE, K_POINT_SOURCE, STATE_TERMS } from '../../../../src/text/conditions/state-lexicon';

/** "kind=value" of every mention, in order. */
function read(text: string): string[] {
  return findConditionMentions(text).map((mention) => `${mention.kind}=${mention.value}`);
}

describe('findConditionMentions: methods', () => {
  it('reads a composite as one mention with a canonical value', () => {
    expect(read('computed with LSDA+U+SO, with HSE06 + G0W0 and with GGA/PBE')).toEqual([
      'method=LSDA+U+SO',
      'method=HSE06+G0W0',
      'method=GGA-PBE',
    ]);
    expect(read('the GGA+SOC gap, the PBE-GGA level, DFT+U, PBEsol, r2SCAN, TB-mBJ')).toEqual([
      'method=GGA+SOC',
      'method=GGA-PBE',
      'method=DFT+U',
      'method=PBEsol',
      'method=r2SCAN',
      'method=mBJ',
    ]);
  });

  it('reads spin–orbit coupling with and without, in words', () => {
    expect(read('73 meV without considering SOC; in the absence of spin–orbit coupling; when including SOC; no SOC; with SOC')).toEqual([
      'method=no SOC',
      'method=no SOC',
      'method=SOC',
      'method=no SOC',
      'method=SOC',
    ]);
    expect(read('gaps with and without SOC are compared')).toEqual([]);
  });

  it('reads experimental techniques and respects case and word boundaries', () => {
    expect(read('UV–vis absorption with a Tauc plot; PL spectra; ARPES; the experimental gap; Exp')).toEqual([
      'method=UV–vis',
      'method=Tauc plot',
      'method=photoluminescence',
      'method=ARPES',
      'method=experiment',
      'method=experiment',
    ]);
    expect(read('PLOT, APPLE, 5 GWh, a scan of U values, the lda')).toEqual([]);
  });
});

describe('findConditionMentions: quantities, directions, phases, composition, environment', () => {
  it('reads quantities introduced as conditions, and not a property value', () => {
    expect(read('Under 10 GPa the Tc of 39 K rises; measured at 300 K in 9 T at 1 kHz')).toEqual([
      'pressure=10 GPa',
      'temperature=300 K',
      'field=9 T',
      'frequency=1 kHz',
    ]);
    expect(read('an electric field of 0.04 eV/Å; forces below 0.01 eV/Å; a 2% tensile strain')).toEqual([
      'field=0.04 eV/Å',
      'strain=2% tensile',
    ]);
  });

  it('reads gap character, k-points and crystal directions', () => {
    expect(read('a direct band gap at the Γ point; the gap is indirect, from the X-point to the G-point along the c axis')).toEqual([
      'direction=direct',
      'direction=Γ',
      'direction=indirect',
      'direction=X–Γ',
      'direction=c axis',
    ]);
    expect(read('a direct comparison; the M–X bond; directly')).toEqual([]);
  });

  it('reads phases, polymorphs, magnetic order, composition and environment', () => {
    expect(read('monolayer and bulk 2H-MoS2, wz-GaN, α-Fe2O3 in the FM phase, x = 0.3, in air, under argon')).toEqual([
      'phase=monolayer',
      'phase=bulk',
      'phase=2H',
      'phase=wurtzite',
      'phase=α',
      'phase=ferromagnetic',
      'composition=x = 0.3',
      'environment=air',
      'environment=argon',
    ]);
    expect(read('the bulk modulus; AFM images of the surface')).toEqual([]);
  });

  it('gives spans that slice back to the text', () => {
    const text = 'At the HSE06 level, monolayer MoS2 has a direct gap at 300 K.';
    for (const mention of findConditionMentions(text)) expect(text.slice(mention.start, mention.end)).toBe(mention.text);
  });
});

describe('methodsCompatible', () => {
  it('accepts equal values and refinements, rejects different levels and opposite SOC', () => {
    expect(methodsCompatible('PBE', 'GGA-PBE')).toBe(true);
    expect(methodsCompatible('GGA', 'PBE')).toBe(true);
    expect(methodsCompatible('GGA/PBE', 'GGA-PBE')).toBe(true);
    expect(methodsCompatible('GGA+SOC', 'SOC')).toBe(true);
    expect(methodsCompatible('HSE06+G0W0', 'GW')).toBe(true);
    expect(methodsCompatible('experiment', 'UV–vis')).toBe(true);
    expect(methodsCompatible('HSE06', 'GGA-PBE')).toBe(false);
    expect(methodsCompatible('SOC', 'no SOC')).toBe(false);
    expect(methodsCompatible('HSE06+G0W0', 'HSE06')).toBe(false);
    expect(methodsCompatible('experiment', 'GGA')).toBe(false);
    expect(methodsCompatible('LSDA+U+SO', 'no SOC')).toBe(false);
    expect(methodsCompatible('Raman fit', 'raman FIT')).toBe(true);
  });
});

/** Same rule as test/unit/text/lexicon-sources.test.ts: a general reference, never the dev data. */
const DEV_REFERENCE =
  /bandgap-200|supermat|polyie|text-pub|text-arxiv|manual_(?:pub|arxiv)|dev[ -](?:set|paper|data)|\bpaper \d+|\brecord \d+/i;

describe('condition lexicon sources', () => {
  it('gives every entry a general source', () => {
    const entries = [...METHOD_TERMS, ...METHOD_MODIFIERS, ...EXPERIMENT_TERMS, ...SPIN_ORBIT_PHRASES, ...STATE_TERMS];
    expect(entries.length).toBeGreaterThan(60);
    for (const source of [...entries.map((entry) => entry.source), GAP_CHARACTER_SOURCE, K_POINT_SOURCE, CRYSTAL_DIRECTION_SOURCE]) {
      expect(source.trim().length).toBeGreaterThan(10);
      expect(source).not.toMatch(DEV_REFERENCE);
    }
  });
});

describe('findConditionMentions: text as PDFs write it', () => {
  const read = (text: string) =>
    findConditionMentions(text).map((mention) => [mention.kind, mention.value, text.slice(mention.start, mention.end)]);

  it("reads ligatures, the TeX ångström, a converter's minus sign and line breaks, with spans in the original text", () => {
    expect(read('grown as a thin ﬁlm')).toEqual([['phase', 'thin film', 'thin ﬁlm']]);
    expect(read('at a 0.04 eV/˚A electric ﬁeld')).toEqual([['field', '0.04 eV/Å', '0.04 eV/˚A']]);
    expect(read('a 0.5 V nm\u00021 electric field')).toEqual([['field', '0.5 V/nm', '0.5 V nm\u00021']]);
    expect(read('is 73 meV without\nconsidering SOC')).toEqual([['method', 'no SOC', 'without\nconsidering SOC']]);
    expect(read('In the absence of spin orbital coupling')).toEqual([['method', 'no SOC', 'In the absence of spin orbital coupling']]);
  });

  it('leaves U+0002 before a letter alone (the same code is another glyph there)', () => {
    expect(read('annealed at 900 \u0002C')).not.toContainEqual(expect.arrayContaining(['temperature']));
  });
});
