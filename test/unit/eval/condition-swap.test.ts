/**
 * The condition swap of `assay eval --attribution` (issue 26): a located truth's value claimed
 * under another condition its paper states must not pass the fact check. Self-written articles
 * in the field's usual phrasing; the converter is SI by a small table.
 */
import { describe, expect, it } from 'vitest';
import { ArticleBuilder } from '../../../src/capture/article-builder';
import type { Article } from '../../../src/contracts/article';
import type { Triplet } from '../../../src/contracts/triplet';
import { evaluateAttribution } from '../../../src/eval/attribution/attribution-evaluation';
import { conditionSwaps } from '../../../src/eval/attribution/condition-swap';
import type { SiConverter } from '../../../src/eval/si-conversion';
import { findConditionMentions } from '../../../src/text/conditions';
import { defaultAttributionDependencies } from '../../../src/verify/attribution';
import { checkFact, defaultFactCheckDependencies } from '../../../src/verify/fact-check';
import type { TruthTriplet } from '../../../src/eval/triplet-scorer-types';

const toJoule: Record<string, number> = { eV: 1.602176634e-19, meV: 1.602176634e-22 };
const convert: SiConverter = (value, unit) => (toJoule[unit] === undefined ? null : { value: value * toJoule[unit], unit: 'J' });
const dependencies = defaultAttributionDependencies();

function article(...paragraphs: string[]): Article {
  const builder = new ArticleBuilder();
  for (const text of paragraphs) builder.add('paragraph', text);
  const { text, blocks } = builder.build();
  return {
    doi: null,
    doiOrigin: null,
    title: 'A test paper',
    authors: [],
    journal: null,
    year: null,
    url: null,
    source: 'text',
    adapter: 'test',
    blocks,
    text,
    abstractOnly: false,
    warnings: [],
  };
}

const truth = (material: string, value: number, unit = 'eV'): TruthTriplet => ({
  aliases: [material],
  property: 'band_gap',
  value: { kind: 'number', value },
  unit,
});

const measure = (paper: Article, ...truths: TruthTriplet[]) =>
  evaluateAttribution([{ paper: 'test', article: paper, truths }], convert, dependencies);

describe('condition swap', () => {
  it('rejects the other method of a "respectively" sentence claimed for the value', () => {
    const paper = article(
      'We computed the electronic structure with two functionals.',
      'The band gaps of CdTe are 1.21 eV and 1.58 eV at the GGA/PBE and HSE06 levels, respectively.',
    );
    const figures = measure(paper, truth('CdTe', 1.58));
    expect(figures.factCheck).toMatchObject({ truths: 1, ok: 1, needsReview: 0, rejected: 0 });
    expect(figures.byKind.condition).toEqual({ swaps: 1, rejected: 1 });
    expect(figures.conditionSwapsRejected).toBe(1);
    // The kinds measured before stay apart, so their figure stays comparable.
    expect(figures.swaps).toBe(figures.byKind.material.swaps + figures.byKind.property.swaps);
    expect(figures.allKinds.swaps).toBe(figures.swaps + 1);
  });

  it('rejects a method stated elsewhere in the paper: not in the evidence, so dropped', () => {
    const paper = article(
      'Hybrid functional (HSE06) calculations were used for the heterostructures only.',
      'The PBE band gap of monolayer ZnS is 2.1 eV.',
    );
    const figures = measure(paper, truth('ZnS', 2.1));
    expect(figures.factCheck.ok).toBe(1);
    // PBE → HSE06 is swapped and rejected; "monolayer" has no other sample form in the paper.
    expect(figures.byKind.condition).toEqual({ swaps: 1, rejected: 1 });
    expect(figures.skippedSwaps.condition).toBe(1);
  });

  it('counts a condition with no other of its group in the paper as a skipped swap', () => {
    const paper = article('The HSE06 band gap of ZnS is 3.6 eV.');
    const figures = measure(paper, truth('ZnS', 3.6));
    expect(figures.byKind.condition).toEqual({ swaps: 0, rejected: 0 });
    expect(figures.skippedSwaps.condition).toBe(1);
  });

  it('reads the value where the paper prints it (73 meV for a truth of 0.073 eV) and pairs its clause’s condition', () => {
    const paper = article('The gap of VCCl2 is 73 meV without considering SOC, and the GGA + SOC gap is reduced to 67 meV.');
    const figures = measure(paper, truth('VCCl2', 0.073));
    expect(figures.factCheck.ok).toBe(1);
    expect(figures.byKind.condition).toEqual({ swaps: 1, rejected: 1 });
  });

  it('swaps in the nearest incompatible condition of the same group, never a compatible refinement', () => {
    const text = 'GGA results are listed in Table 2. The GGA-PBE gap is 1.1 eV, while HSE06 gives 1.9 eV.';
    const mentions = findConditionMentions(text);
    const pbe = mentions.find((mention) => mention.value === 'GGA-PBE')!;
    const { swaps } = conditionSwaps([{ kind: 'method', value: pbe.value, text: pbe.text }], mentions, { start: 35, end: 60 });
    expect(swaps.map((swap) => swap.swapped.value)).toEqual(['HSE06']);
  });
});

describe('checkFact: stated conditions that exclude one another', () => {
  it('sends to review a fact whose name says wurtzite and whose conditions say zinc blende, though the evidence shows both', () => {
    const paper = article('The gap of wz-AlN is 6.14 eV, while zb-AlN has a gap of 5.16 eV in the same calculation.');
    const start = 0;
    const end = paper.text.length;
    const triplet: Triplet = {
      material: 'wz-AlN',
      property: 'band_gap',
      value: { kind: 'number', value: 6.14 },
      unit: 'eV',
      conditions: [{ kind: 'phase', value: 'zinc blende', text: 'zb' }],
      engine: 'test',
    };
    const check = checkFact(triplet, paper, { start, end, score: 1, method: 'position' }, defaultFactCheckDependencies());
    expect(check.verdict).toBe('needs_review');
    expect(check.reasons.join(' ')).toMatch(/exclude one another/);
    const alone = checkFact(
      { ...triplet, conditions: [] },
      paper,
      { start, end, score: 1, method: 'position' },
      defaultFactCheckDependencies(),
    );
    expect(alone.reasons.join(' ')).not.toMatch(/exclude one another/);
  });
});
