/**
 * The material a verified fact keeps is the paper's own name for it (`paperNameOf`, through
 * `judgeFact`). Sentences are copied from the bandgap-200 dev texts (paper index and version
 * given with each), and the claims are what the recorded ChatExtract runs wrote for them.
 */
import { describe, expect, it } from 'vitest';
import type { Triplet } from '../../../src/contracts/triplet';
import { describeQuote } from '../../../src/text/anchoring';
import { judgeFact } from '../../../src/verify/judge-fact';
import { tokenAround } from '../../../src/verify/paper-name';
import { articleFromBlocks, paragraph } from '../text/article-from-blocks';

const number = (value: number) => ({ kind: 'number' as const, value });

/** Judge `material` claiming `value` `unit` of `property` with `sentence` as the quote, in an article of that one paragraph. */
function judge(sentence: string, material: string, value: number, unit = 'eV', property = 'band_gap') {
  const article = articleFromBlocks([paragraph(sentence)]);
  const triplet: Triplet = {
    material,
    property,
    value: number(value),
    unit,
    engine: 'test',
    evidence: describeQuote(article.text, 0, sentence.length),
  };
  return judgeFact(triplet, article);
}

// Paper 73 (10.1016/j.mtcomm.2023.107183), pub and arXiv.
const BPN = 'Our findings reveal that the band gap values for BPN-GaN and BPN-AlN are 2.3 eV and 3.2 eV, respectively, at the HSE06 level.';
// Paper 98 (10.1039/D2CP02724K), pub.
const VCCLBR =
  'The calculated results show that the gap of VCClBr increases to 87 meV from 76 meV with GGA + SOC, and the nontrivial topological properties are still kept with topological helical edge states.';
// Paper 14 (10.1039/C7CP03960C), arXiv.
const HETEROSTRUCTURES =
  'We found that α-P/H-MoSe2 and β-P/H-MoSe2 are semiconductors with a band gap of 0.7 eV and  1.1 eV, respectively, former exhibit an indirect gap while the later has a direct band gap.';
// Paper 14, pub (the PDF text lost the Greek letters).
const PHOSPHORENES =
  '3.1 Electronic structure a-P displays a direct band gap of 1.12 eV while b-P has an indirect band gap of 2.05 eV (Table 1).';
const MONOLAYERS =
  'H-MoSe2 is a semiconductor with a direct band gap of about 1.13 eV while T-MoSe2, ZT-MoSe2 and  SO-MoSe2 are zero band gap materials.';
// Paper 7 (10.1021/ic4018135), arXiv.
const SRFBIS2 =
  'First principle calculations (Fig. 4) conﬁrm that SrFBiS2 is a semiconductor with a direct band gap of 0.8 eV located at X point.';
// Paper 32 (10.1103/PhysRevMaterials.1.024802), arXiv.
const WHITE_P =
  'While black-P and red-P achieve metalization within a few GPa (estimating the exact value would require calculating corrections to the band-gap beyond DFT), white-P is still insulating at 7 GPa with a band gap of about 1.4 eV.';
// Paper 8 (10.1038/nature09720), pub.
const SRTIO3 =
  'Our discoveries demonstrate that a highly mobile 2DEG can be readily obtained without any elaborate interface preparation at the surface of SrTiO3, even in the case of the non-doped 3 eV bandgap insulator.';

describe('the material a verified fact keeps', () => {
  it("is the mention the claim anchored: words of the descriptor the evidence does not write are dropped, with the tool's name in the reason", () => {
    const verdict = judge(BPN, 'Gallium nitride (BPN-GaN)', 2.3);
    expect(verdict.status).toBe('verified');
    expect(verdict.material).toBe('BPN-GaN');
    expect(verdict.conditions.map((condition) => condition.value)).toContain('HSE06');
    expect(verdict.reasons.join(' ')).toMatch(
      /named "Gallium nitride \(BPN-GaN\)" by the tool; the paper calls it BPN-GaN; "Gallium nitride" dropped/,
    );
  });

  it('turns a qualifier the condition reader knows into a condition read from the evidence, and drops a comment', () => {
    const verdict = judge(VCCLBR, 'VCClBr (GGA + SOC, increased)', 87, 'meV');
    expect(verdict.status).toBe('verified');
    expect(verdict.material).toBe('VCClBr');
    const method = verdict.conditions.find((condition) => condition.kind === 'method')!;
    expect(method.value).toBe('GGA+SOC');
    expect(method.position).toBeDefined();
    expect(verdict.reasons.join(' ')).toMatch(/"increased" dropped/);
  });

  it("keeps a claim that is already the paper's name as it is, without a note", () => {
    const verdict = judge(BPN, 'BPN-GaN', 2.3);
    expect(verdict.status).toBe('verified');
    expect(verdict.material).toBe('BPN-GaN');
    expect(verdict.reasons.join(' ')).not.toMatch(/named/);
  });

  it('drops a method written in the name that the evidence does not show (it does not change the material), but not a phase', () => {
    const method = judge(SRFBIS2, 'SrFBiS2 (HSE06)', 0.8);
    expect(method.status).toBe('verified');
    expect(method.material).toBe('SrFBiS2');
    expect(method.conditions.some((condition) => condition.kind === 'method')).toBe(false);
    expect(method.reasons.join(' ')).toMatch(/states HSE06, which the evidence does not show: dropped/);
    const phase = judge(SRFBIS2, 'SrFBiS2 (monolayer)', 0.8);
    expect(phase.status).toBe('needs_review');
    expect(phase.reasons.join(' ')).toMatch(/states monolayer, which the evidence does not show/);
  });

  it('keeps the gap character of "(indirect)" as a condition and the paper\'s name', () => {
    const verdict = judge(PHOSPHORENES, 'b-P (indirect)', 2.05);
    expect(verdict.status).toBe('verified');
    expect(verdict.material).toBe('b-P');
    expect(verdict.conditions.map((condition) => condition.value)).toContain('indirect');
  });

  it('sends a claim to review when its name says more than the evidence writes, and keeps a word the evidence writes apart', () => {
    const reduced = judge(SRTIO3, 'reduced SrTiO3', 3);
    expect(reduced.status).toBe('needs_review');
    expect(reduced.material).toBeUndefined();
    expect(reduced.reasons.join(' ')).toMatch(/named "reduced SrTiO3", but the evidence names it SrTiO3, without "reduced"/);
    const nonDoped = judge(SRTIO3, 'non-doped SrTiO3', 3);
    expect(nonDoped.status).toBe('verified');
    expect(nonDoped.material).toBe('non-doped SrTiO3');
  });
});

describe('a name spaced out as PDF text has it', () => {
  // SuperMat (SuperMat-2.0.csv) truths, with the sentences of their PDFs (EPL0490086, P068180505).
  const BI2212 =
    'Abstract. - We present electron-tunneling spectroscopy of slightly overdoped Bi2Sr2CaCu2O8-x (Bi2212) single crystals with Tc = 87 - 90 K in a temperature range between 14 K and 290 K using a break-junction technique.';
  const COBALTATE = 'The observation of superconductivity at 4.3 K in a new crystalline form of Na0.3CoO2·1.3H2O is reported.';

  it('keeps a descriptor the evidence writes, spaces aside, and notes no rename for a spaced formula', () => {
    const verdict = judge(BI2212, 'slightly overdoped Bi 2 Sr 2 CaCu 2 O 8-x (Bi2212) single crystals', 87, 'K', 'tc');
    expect(verdict.material).toBe('slightly overdoped Bi 2 Sr 2 CaCu 2 O 8-x (Bi2212) single crystals');
    expect(verdict.reasons.join(' ')).not.toMatch(/named|without/);
  });

  it('sends a claim to review when its descriptor holds a word the evidence does not write ("three-layer")', () => {
    const verdict = judge(COBALTATE, 'three-layer Na 0.3 CoO 2 •1.3H 2 O', 4.3, 'K', 'tc');
    expect(verdict.status).toBe('needs_review');
    expect(verdict.material).toBeUndefined();
    expect(verdict.reasons.join(' ')).toMatch(/evidence names it Na0\.3CoO2·1\.3H2O, without "three-layer"/);
    expect(judge(COBALTATE, 'Na 0.3 CoO 2 •1.3H 2 O', 4.3, 'K', 'tc').status).toBe('verified');
  });
});

describe('a claimed material written only as part of a larger token', () => {
  it('becomes the token the "respectively" sentence pairs with the value: "GaN" is BPN-GaN there', () => {
    const verdict = judge(BPN, 'GaN', 2.3);
    expect(verdict.status).toBe('verified');
    expect(verdict.material).toBe('BPN-GaN');
    expect(verdict.reasons.join(' ')).toMatch(/named "GaN" by the tool, which the evidence writes only with the label BPN-/);
  });

  it('becomes the heterostructure the sentence pairs with the value, and the other value goes to the other one', () => {
    expect(judge(HETEROSTRUCTURES, 'MoSe2', 0.7).material).toBe('α-P/H-MoSe2');
    expect(judge(HETEROSTRUCTURES, 'MoSe2', 1.1).material).toBe('β-P/H-MoSe2');
  });

  it('goes to review when several larger tokens hold it and nothing pairs the value with one', () => {
    const unpaired = 'We found that α-P/H-MoSe2 and β-P/H-MoSe2 are semiconductors with a band gap of about 0.7 eV.';
    const verdict = judge(unpaired, 'MoSe2', 0.7);
    expect(verdict.status).toBe('needs_review');
    expect(verdict.material).toBeUndefined();
    expect(verdict.reasons.join(' ')).toMatch(/writes MoSe2 only as part of α-P\/H-MoSe2, β-P\/H-MoSe2/);
  });

  it('goes to review when the sentence writes the claim itself and gives the value to the larger token', () => {
    const both = 'The band gaps of GaN and BPN-GaN are 3.4 eV and 2.3 eV, respectively.';
    const verdict = judge(both, 'GaN', 2.3);
    expect(verdict.status).toBe('needs_review');
    expect(verdict.reasons.join(' ')).toMatch(/gives this value to BPN-GaN \("respectively"\), not to GaN/);
    expect(judge(both, 'GaN', 3.4).status).toBe('verified');
  });

  it('takes the phase the paper writes when one token holds it, and leaves the choice among several to a person', () => {
    const phase = judge('The band gap of 2H-MoS2 is 1.8 eV in our calculation.', 'MoS2', 1.8);
    expect(phase.status).toBe('verified');
    expect(phase.material).toBe('2H-MoS2');
    expect(phase.reasons.join(' ')).toMatch(/named "MoS2" by the tool, which the evidence writes with its phase/);
    // The value is H-MoSe2's by syntax, but the sentence names four phases of MoSe2 and pairs none.
    const four = judge(MONOLAYERS, 'MoSe2', 1.13);
    expect(four.status).toBe('needs_review');
    expect(four.reasons.join(' ')).toMatch(/only as part of H-MoSe2, T-MoSe2, ZT-MoSe2, SO-MoSe2/);
    expect(judge(MONOLAYERS, 'H-MoSe2', 1.13).material).toBe('H-MoSe2');
  });
});

describe("a name written with an element's symbol", () => {
  // Paper 32 (10.1103/PhysRevMaterials.1.024802), arXiv; the truth is "white phosphorus; white-P".
  it('is stored as the paper writes it: "white phosphorus" is kept as white-P', () => {
    const verdict = judge(WHITE_P, 'white phosphorus', 1.4);
    expect(verdict.status).toBe('verified');
    expect(verdict.material).toBe('white-P');
  });
});

describe('tokenAround', () => {
  it('widens a mention over hyphens, glued slashes and a line break after a hyphen, not over a following word', () => {
    const text = 'values of 2.30 eV for BPN- AlN and of α-P/H-MoSe2, unlike GaN-based devices';
    const at = (word: string) => {
      const start = text.indexOf(word);
      const span = tokenAround(text, start, start + word.length);
      return text.slice(span.start, span.end);
    };
    expect(at('AlN')).toBe('BPN- AlN');
    expect(at('MoSe2')).toBe('α-P/H-MoSe2');
    expect(at('GaN')).toBe('GaN');
  });
});
