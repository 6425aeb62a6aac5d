/**
 * Strict scoring that sees conditions (issue 26): a truth's condition qualifiers must be carried
 * by the prediction (its name's qualifiers or `conditions`) and never contradicted; each scored
 * prediction says what it matched, or the nearest truth and why not; the `conditions` figure.
 *
 * The condition reader here is a small double with the shape of src/text/conditions (a few
 * methods, SOC in words, an electric field, a magnetic phase), so these tests are about the
 * scorer's rule, not the lexicon; test/corpus/qualified-truth-names.test.ts runs the real reader
 * on every bandgap-200 truth name.
 */
import { describe, expect, it } from 'vitest';
import type { ReportedValue } from '../../../src/contracts/triplet';
import { splitQualifiedName, type ConditionMentionLike, type ConditionReader } from '../../../src/eval/qualified-name';
import { scoreTriplets, type RecordedCase } from '../../../src/eval/scored-triplets';
import { tripletsMatch } from '../../../src/eval/triplet-scorer';
import { testDependencies } from './scorer-doubles';
import type { PredictedTriplet, ScorerDependencies, TruthTriplet } from '../../../src/eval/triplet-scorer-types';

const LEXICON: ReadonlyArray<{ pattern: RegExp; kind: ConditionMentionLike['kind']; value: (match: RegExpExecArray) => string }> = [
  { pattern: /GGA\/PBE|GGA-PBE/g, kind: 'method', value: () => 'GGA-PBE' },
  { pattern: /HSE06/g, kind: 'method', value: () => 'HSE06' },
  { pattern: /GGA(?![/-])/g, kind: 'method', value: () => 'GGA' },
  { pattern: /(?:without SOC|no SOC)/g, kind: 'method', value: () => 'no SOC' },
  { pattern: /(?:with|including) SOC/g, kind: 'method', value: () => 'SOC' },
  { pattern: /(\d+(?:\.\d+)?) eV\/Å/g, kind: 'field', value: (match) => `${match[1]} eV/Å` },
  { pattern: /\bFM\b/g, kind: 'phase', value: () => 'ferromagnetic' },
  { pattern: /\bAFM\b/g, kind: 'phase', value: () => 'antiferromagnetic' },
];

/** The reader double: every lexicon match, in text order. */
const reader: ConditionReader = {
  findConditionMentions(text) {
    const mentions: ConditionMentionLike[] = [];
    for (const { pattern, kind, value } of LEXICON) {
      for (const match of text.matchAll(pattern)) {
        const start = match.index;
        if (mentions.some((other) => other.start <= start && start < other.end)) continue;
        mentions.push({ kind, value: value(match as RegExpExecArray), text: match[0], start, end: start + match[0].length });
      }
    }
    return mentions.sort((a, b) => a.start - b.start);
  },
  // GGA-PBE refines GGA; SOC and no SOC are apart; otherwise equal text.
  methodsCompatible(a, b) {
    const family = (method: string) => (method === 'GGA-PBE' ? 'GGA' : method);
    return a === b || family(a) === family(b);
  },
};

const dependencies: ScorerDependencies = { ...testDependencies, conditions: reader };
const eV = (value: number): ReportedValue => ({ kind: 'number', value });
const truth = (aliases: string[], value: number): TruthTriplet => ({ aliases, property: 'band_gap', value: eV(value), unit: 'eV' });
const predicted = (material: string, value: number, conditions: PredictedTriplet['conditions'] = []): PredictedTriplet => ({
  material,
  property: 'band_gap',
  value: eV(value),
  unit: 'eV',
  conditions,
});
const matches = (prediction: PredictedTriplet, target: TruthTriplet) => tripletsMatch(prediction, target, 0.001, dependencies);

describe('splitQualifiedName', () => {
  it.each([
    ['BPN-GaN (HSE06)', 'BPN-GaN', ['method=HSE06']],
    ['BPN-GaN(GGA/PBE)', 'BPN-GaN', ['method=GGA-PBE']],
    ['VCCl2 at 0.04 eV/Å electric field GGA', 'VCCl2', ['field=0.04 eV/Å', 'method=GGA']],
    ['VCClBr including SOC', 'VCClBr', ['method=SOC']],
    ['SmN (no SOC FM majority channel)', 'SmN (majority channel)', ['method=no SOC', 'phase=ferromagnetic']],
    ['Silicene on Ar(111) (with vdW interaction, without SOC)', 'Silicene on Ar(111) (with vdW interaction)', ['method=no SOC']],
    ['ZnO (due to oxygen vacancy)', 'ZnO (due to oxygen vacancy)', []],
    ['α-P (black phosphorene)', 'α-P (black phosphorene)', []],
    ['\uFEFFZnO', 'ZnO', []],
    ['BPN-GaN (HSE06-corrected)', 'BPN-GaN (corrected)', ['method=HSE06']],
    ['SmN (FM to AFM)', 'SmN (FM to AFM)', []],
  ])('%s → %s + %j', (name, base, qualifiers) => {
    const split = splitQualifiedName(name, reader);
    expect(split.base).toBe(base);
    expect(split.qualifiers.map((qualifier) => `${qualifier.kind}=${qualifier.value}`)).toEqual(qualifiers);
  });

  it('never splits the first word off, nor a group at the start', () => {
    expect(splitQualifiedName('GGA', reader)).toEqual({ base: 'GGA', qualifiers: [] });
    expect(splitQualifiedName('(HSE06)', reader).base).toBe('(HSE06)');
  });
});

describe('strict matching with condition qualifiers', () => {
  const hse = truth(['BPN-GaN (HSE06)'], 2.31);

  it('a prediction carrying the truth qualifier as a condition matches', () => {
    expect(matches(predicted('BPN-GaN', 2.31, [{ kind: 'method', value: 'HSE06' }]), hse)).toBe(true);
  });

  it('or in its own name', () => {
    expect(matches(predicted('BPN-GaN(HSE06)', 2.31), hse)).toBe(true);
  });

  it('without the condition it does not match (it did, leniently, and still does)', () => {
    expect(matches(predicted('BPN-GaN', 2.31), hse)).toBe(false);
    expect(tripletsMatch(predicted('BPN-GaN', 2.31), truth(['BPN-GaN'], 2.31), 0.001, dependencies)).toBe(true);
  });

  it('a condition of the same kind that is not compatible contradicts', () => {
    expect(matches(predicted('BPN-GaN', 2.31, [{ kind: 'method', value: 'GGA-PBE' }]), hse)).toBe(false);
    // Even beside the truth's own method.
    expect(
      matches(
        predicted('BPN-GaN', 2.31, [
          { kind: 'method', value: 'HSE06' },
          { kind: 'method', value: 'GGA-PBE' },
        ]),
        hse,
      ),
    ).toBe(false);
    // A refinement is compatible: GGA-PBE carries a truth's GGA.
    expect(matches(predicted('VCClBr', 0.057, [{ kind: 'method', value: 'GGA-PBE' }]), truth(['VCClBr (GGA)'], 0.057))).toBe(true);
  });

  it('SOC contradicts no SOC', () => {
    const noSoc = truth(['VCClBr (without SOC)'], 0.087);
    expect(matches(predicted('VCClBr', 0.087, [{ kind: 'method', value: 'SOC' }]), noSoc)).toBe(false);
    expect(matches(predicted('VCClBr', 0.087, [{ kind: 'method', value: 'no SOC' }]), noSoc)).toBe(true);
  });

  it('`VCCl2 at 0.04 eV/Å electric field GGA` needs both the field and the method', () => {
    const fieldTruth = truth(['VCCl2 at 0.04 eV/Å electric field GGA'], 0.073);
    const field = { kind: 'field' as const, value: '0.04 eV/Å' };
    const gga = { kind: 'method' as const, value: 'GGA' };
    expect(matches(predicted('VCCl2', 0.073, [field, gga]), fieldTruth)).toBe(true);
    expect(matches(predicted('VCCl2', 0.073, [gga]), fieldTruth)).toBe(false);
    expect(matches(predicted('VCCl2', 0.073, [field]), fieldTruth)).toBe(false);
    expect(matches(predicted('VCCl2', 0.073, [{ kind: 'field', value: '0.08 eV/Å' }, gga]), fieldTruth)).toBe(false);
    // The same quantity written with more digits is the same field.
    expect(matches(predicted('VCCl2', 0.073, [{ kind: 'field', value: '0.040 eV/Å' }, gga]), fieldTruth)).toBe(true);
  });

  it('a plain truth still matches a prediction with extra conditions', () => {
    const zincOxide = truth(['ZnO'], 3.37);
    expect(
      matches(
        predicted('ZnO', 3.37, [
          { kind: 'method', value: 'HSE06' },
          { kind: 'temperature', value: '300 K' },
        ]),
        zincOxide,
      ),
    ).toBe(true);
    expect(matches(predicted('ZnO', 3.37), zincOxide)).toBe(true);
  });

  it('aliases are alternatives: a plain alias needs no condition', () => {
    expect(matches(predicted('VCClBr', 0.076), truth(['VCClBr (GGA)', 'VCClBr'], 0.076))).toBe(true);
  });

  it('qualifier words that are not conditions stay in the base name', () => {
    expect(matches(predicted('ZnO', 2.1), truth(['ZnO (due to oxygen vacancy)'], 2.1))).toBe(false);
    expect(matches(predicted('ZnO (due to oxygen vacancy)', 2.1), truth(['ZnO (due to oxygen vacancy)'], 2.1))).toBe(true);
  });

  it('lenient scoring is unchanged: the qualifier is not required', () => {
    expect(tripletsMatch(predicted('BPN-GaN (HSE06)', 2.31), truth(['BPN-GaN (HSE06)'], 2.31), 0.001, dependencies, 'lenient')).toBe(true);
    expect(tripletsMatch(predicted('BPN-GaN', 2.31), hse, 0.001, dependencies, 'lenient')).toBe(false);
  });

  it('without a condition reader, names are compared whole (as before issue 26)', () => {
    expect(tripletsMatch(predicted('BPN-GaN', 2.31, [{ kind: 'method', value: 'HSE06' }]), hse, 0.001, testDependencies)).toBe(false);
    expect(tripletsMatch(predicted('BPN-GaN (HSE06)', 2.31), hse, 0.001, testDependencies)).toBe(true);
  });
});

describe('scoreTriplets: matched, nearest and why', () => {
  const cases: RecordedCase[] = [
    {
      paper: 'p1',
      truths: [truth(['BPN-GaN (GGA/PBE)'], 1.86), truth(['BPN-GaN (HSE06)'], 2.31), truth(['BPN-AlN'], 2.3)],
      predictions: [
        predicted('BPN-GaN', 1.86, [{ kind: 'method', value: 'GGA-PBE', text: 'GGA/PBE' }]),
        predicted('BPN-GaN', 2.31),
        predicted('BPN-GaN', 2.31, [{ kind: 'method', value: 'GGA-PBE' }]),
        predicted('BPN-GaN', 2.3),
        { ...predicted('BPN-AlN', 2.35), quote: 'q', status: 'verified', provenance: { kind: 'computed' } },
      ],
    },
    { paper: 'p2', truths: [], predictions: [predicted('ZnO', 3.37)] },
  ];
  const result = scoreTriplets(cases, dependencies, 'recorded');
  const [gga, plain, contradicting, materialDiffers, valueDiffers, noTruth] = result.predictions;

  it('a matched prediction names its truth, with its index in `truths`', () => {
    expect(gga!.matched).toMatchObject({ paper: 'p1', aliases: ['BPN-GaN (GGA/PBE)'], value: eV(1.86), unit: 'eV', index: 0 });
    expect(gga!.nearest).toBeUndefined();
    expect(gga!.why).toBeUndefined();
    expect(gga!.conditions).toEqual([{ kind: 'method', value: 'GGA-PBE', text: 'GGA/PBE' }]);
    expect(result.truths[gga!.matched!.index]!.aliases).toEqual(['BPN-GaN (GGA/PBE)']);
  });

  it('a missing qualifier: nearest is the same value and material, and why says which qualifier', () => {
    expect(plain!.matched).toBeNull();
    expect(plain!.nearest).toMatchObject({ aliases: ['BPN-GaN (HSE06)'], index: 1 });
    expect(plain!.why).toBe("truth qualifier HSE06 not in the prediction's conditions");
  });

  it('a contradicting condition', () => {
    expect(contradicting!.matched).toBeNull();
    expect(contradicting!.why).toContain('condition GGA-PBE contradicts truth qualifier HSE06');
  });

  it('the same value of another material: material differs', () => {
    expect(materialDiffers!.nearest).toMatchObject({ aliases: ['BPN-AlN'], index: 2 });
    expect(materialDiffers!.why).toBe('material differs: BPN-GaN vs BPN-AlN');
  });

  it('the same material with another value: value differs; provenance is carried', () => {
    expect(valueDiffers!.matched).toBeNull();
    expect(valueDiffers!.nearest).toMatchObject({ aliases: ['BPN-AlN'], index: 2 });
    expect(valueDiffers!.why).toBe('value 2.35 eV vs 2.3 eV');
    expect(valueDiffers!.provenance).toEqual({ kind: 'computed' });
    expect(valueDiffers!.status).toBe('verified');
  });

  it('no truth in the paper', () => {
    expect(noTruth).toMatchObject({ matched: null, nearest: null, why: 'no truth in this paper' });
  });

  it('the conditions figure counts truths named with a condition and those matched', () => {
    expect(result.conditions).toEqual({ truths: 2, matched: 1, share: 0.5 });
    expect(result.strict).toMatchObject({ predictions: 6, truths: 3, matched: 1 });
  });
});
