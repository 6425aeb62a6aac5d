import { describe, expect, it } from 'vitest';
import type { Triplet } from '../../../src/contracts/triplet';
import type { CrossVerifyEntry } from '../../../src/matrix/cross-verify';
import {
  groundCandidates,
  MAX_REFINEMENT_ROUNDS,
  pairedAlternatives,
  refineUntilAgreement,
  verifyPaths,
} from '../../../src/matrix/cross-verify-refine';
import { sameMaterial } from '../../../src/text/materials';
import { toSI } from '../../../src/text/units';
import { ground } from '../../../src/verify/ground';
import { gateFact, groundAndAttribute } from '../../../src/verify/grounding-gate';
import { articleFromBlocks, paragraph } from '../text/article-from-blocks';

const dependencies = { sameMaterial: (a: string, b: string) => sameMaterial(a, b), toSI };

function triplet(material: string, value: number, quote?: string, engine = 'moa'): Triplet {
  return {
    material,
    property: 'band_gap',
    value: { kind: 'number', value },
    unit: 'eV',
    engine,
    ...(quote ? { evidence: { quote: { type: 'TextQuoteSelector' as const, exact: quote, prefix: '', suffix: '' } } } : {}),
  };
}

const SENTENCE = 'The ZnO film shows a direct band gap of 3.4 eV at room temperature.';
const article = articleFromBlocks([paragraph(SENTENCE), paragraph('GaN was grown on sapphire by MOCVD.')]);

describe('refineUntilAgreement', () => {
  it('uses K = 3 by default', () => {
    expect(MAX_REFINEMENT_ROUNDS).toBe(3);
  });

  it('stops without re-running when the paths agree at once', async () => {
    let moaRuns = 0;
    const result = await refineUntilAgreement(
      {
        moaTriplets: [triplet('ZnO', 3.4)],
        gdTriplets: [triplet('ZnO', 3.4, undefined, 'gd')],
        runMoa: async () => {
          moaRuns += 1;
          return [];
        },
      },
      dependencies,
    );
    expect([result.converged, result.rounds, moaRuns, result.candidates.length, result.needsReview.length]).toEqual([true, 0, 0, 1, 0]);
    expect(result.candidates[0]!.votes).toEqual(['moa', 'gd']);
  });

  it('converges on the second re-run: exactly two MoA calls, the rounds passed in order', async () => {
    const rounds: number[] = [];
    const seen: CrossVerifyEntry[][] = [];
    const answers = [[triplet('ZnO', 3.3)], [triplet('ZnO', 3.4)]];
    const result = await refineUntilAgreement(
      {
        moaTriplets: [triplet('ZnO', 3.2)],
        gdTriplets: [triplet('ZnO', 3.4, undefined, 'gd')],
        runMoa: async (round, previous) => {
          rounds.push(round);
          seen.push(previous);
          return answers[round - 1]!;
        },
      },
      dependencies,
    );
    expect(rounds).toEqual([1, 2]);
    expect(seen[0]!.map((entry) => entry.outcome)).toEqual(['conflict']);
    expect(result.converged).toBe(true);
    expect(result.rounds).toBe(2);
    expect(result.candidates.map((record) => record.triplet.value)).toEqual([{ kind: 'number', value: 3.4 }]);
    expect(result.needsReview).toEqual([]);
  });

  it('never converging → needs_review after exactly K = 3 re-runs, both answers kept', async () => {
    let moaRuns = 0;
    const gd = triplet('ZnO', 3.4, undefined, 'gd');
    const result = await refineUntilAgreement(
      {
        moaTriplets: [triplet('ZnO', 3.2)],
        gdTriplets: [gd],
        runMoa: async () => {
          moaRuns += 1;
          return [triplet('ZnO', 3.0 + moaRuns / 100)];
        },
      },
      dependencies,
    );
    expect(moaRuns).toBe(3);
    expect(result.rounds).toBe(3);
    expect(result.converged).toBe(false);
    expect(result.candidates).toEqual([]);
    expect(result.needsReview).toHaveLength(1);
    const record = result.needsReview[0]!;
    expect(record.status).toBe('needs_review');
    expect(record.adjudication?.outcome).toBe('conflict');
    expect(record.adjudication?.moa?.value).toEqual({ kind: 'number', value: 3.03 });
    expect(record.adjudication?.gd).toBe(gd);
    expect(record.reasons).toEqual(['values differ (3.03 eV vs 3.4 eV)']);
  });

  it('honours a smaller K and keeps agreed triplets beside the unresolved ones', async () => {
    let moaRuns = 0;
    const result = await refineUntilAgreement(
      {
        moaTriplets: [triplet('ZnO', 3.4), triplet('Si', 1.1)],
        gdTriplets: [triplet('ZnO', 3.4, undefined, 'gd')],
        runMoa: async () => {
          moaRuns += 1;
          return [triplet('ZnO', 3.4), triplet('Si', 1.1)];
        },
        K: 1,
      },
      dependencies,
    );
    expect(moaRuns).toBe(1);
    expect(result.candidates.map((record) => record.triplet.material)).toEqual(['ZnO']);
    expect(result.needsReview.map((record) => [record.triplet.material, record.adjudication?.outcome])).toEqual([['Si', 'moa-only']]);
  });
});

describe('groundCandidates (the grounding gate)', () => {
  const gate = (candidate: Triplet, alternatives: Triplet[] = []) =>
    groundCandidates(
      [{ status: 'needs_review', triplet: candidate, votes: ['moa', 'gd'], reasons: [] }],
      article,
      (t, a) => ground(t, a),
      () => alternatives,
    )[0]!;

  it('verifies an agreed triplet whose quote anchors and shows value and unit', () => {
    const record = gate(triplet('ZnO', 3.4, SENTENCE));
    expect(record.status).toBe('verified');
    expect(record.votes).toEqual(['moa', 'gd']);
  });

  it('never verifies an agreed value absent from the text', () => {
    const invented = gate(triplet('GaN', 3.5, 'GaN was grown on sapphire by MOCVD.'), [
      triplet('GaN', 3.5, 'GaN was grown on sapphire by MOCVD.', 'gd'),
    ]);
    expect(invented.status).toBe('rejected');
    expect(invented.reasons).toEqual(['value 3.5 not in the quote (no quantity found there)', 'unit eV not in the quote']);
    const quoteless = gate(triplet('ZnO', 3.4));
    expect(quoteless.status).toBe('rejected');
    expect(quoteless.reasons).toEqual(['no evidence quote given']);
    const madeUpQuote = gate(triplet('ZnO', 3.4, 'ZnO has a band gap of 3.4 eV.'));
    expect(madeUpQuote.status).toBe('rejected');
  });

  it('falls back to the other path’s quote when the kept one does not ground', () => {
    const record = gate(triplet('ZnO', 3.4, 'GaN was grown on sapphire by MOCVD.'), [triplet('ZnO', 3.4, SENTENCE, 'gd')]);
    expect(record.status).toBe('verified');
    expect(record.triplet.evidence?.quote.exact).toBe(SENTENCE);
  });

  it('sends a grounded quote that does not name the material or property to review, with the reason in words', () => {
    const attributed = (candidate: Triplet, alternatives: Triplet[] = []) =>
      groundCandidates(
        [{ status: 'needs_review', triplet: candidate, votes: ['moa', 'gd'], reasons: [] }],
        article,
        (t, a) => groundAndAttribute(t, a),
        () => alternatives,
      )[0]!;
    const wrongMaterial = attributed(triplet('GaN', 3.4, SENTENCE));
    expect([wrongMaterial.status, wrongMaterial.reasons]).toEqual(['needs_review', ['material not in the evidence']]);
    expect(wrongMaterial.triplet.evidence?.quote.exact).toBe(SENTENCE);
    const wrongProperty = attributed({ ...triplet('ZnO', 3.4, SENTENCE), property: 'work_function' });
    expect(wrongProperty.status).toBe('needs_review');
    expect(wrongProperty.reasons).toContain('property not in the evidence');
    // Another voter's quote that names both still verifies it; a quote without the value is still rejected.
    const other = 'Our ZnO has a band gap of 3.4 eV.';
    const twin = groundCandidates(
      [{ status: 'needs_review', triplet: triplet('ZnO', 3.4, 'direct band gap of 3.4 eV'), votes: ['moa', 'gd'], reasons: [] }],
      articleFromBlocks([paragraph(`We grew films. A direct band gap of 3.4 eV was seen. ${other}`)]),
      (t, a) => groundAndAttribute(t, a),
      () => [triplet('ZnO', 3.4, other, 'gd')],
    )[0]!;
    expect([twin.status, twin.triplet.evidence?.quote.exact]).toEqual(['verified', other]);
    expect(attributed(triplet('ZnO', 3.5, SENTENCE)).status).toBe('rejected');
  });

  it('stores the paper’s name for the material of a verified triplet, with the tool’s name in the reasons', () => {
    const record = groundCandidates(
      [{ status: 'needs_review', triplet: triplet('ZnO (direct, n-type)', 3.4, SENTENCE), votes: ['moa', 'gd'], reasons: [] }],
      article,
      (t, a) => gateFact(t, a),
    )[0]!;
    expect(record.status).toBe('verified');
    expect(record.triplet.material).toBe('ZnO');
    expect(record.reasons.join(' ')).toMatch(/named "ZnO \(direct, n-type\)" by the tool; the paper calls it ZnO; "n-type" dropped/);
    expect(record.triplet.conditions?.map((condition) => condition.value)).toContain('direct');
  });

  it('pairedAlternatives gives the G–D twin of an agreed MoA triplet', () => {
    const moa = triplet('ZnO', 3.4);
    const gd = triplet('ZnO', 3.4, SENTENCE, 'gd');
    const alternatives = pairedAlternatives([{ outcome: 'agreed', moa, gd }]);
    expect(alternatives({ status: 'needs_review', triplet: moa, votes: [], reasons: [] })).toEqual([gd]);
  });
});

describe('verifyPaths', () => {
  it('a value both paths invent is agreed but never verified; the grounded one is; the disputed one awaits review', async () => {
    const result = await verifyPaths(
      {
        article,
        moaTriplets: [triplet('ZnO', 3.4, SENTENCE), triplet('GaN', 3.5, 'GaN was grown on sapphire by MOCVD.'), triplet('Si', 1.1)],
        gdTriplets: [
          triplet('ZnO', 3.4, SENTENCE, 'gd'),
          triplet('GaN', 3.5, 'GaN was grown on sapphire by MOCVD.', 'gd'),
          triplet('Si', 1.2, undefined, 'gd'),
        ],
        runMoa: async () => [triplet('ZnO', 3.4, SENTENCE), triplet('GaN', 3.5, 'GaN was grown on sapphire by MOCVD.'), triplet('Si', 1.1)],
      },
      { ...dependencies, ground: (t, a) => ground(t, a) },
    );
    expect(result.rounds).toBe(3);
    expect(result.records.map((record) => [record.triplet.material, record.status])).toEqual([
      ['ZnO', 'verified'],
      ['GaN', 'rejected'],
      ['Si', 'needs_review'],
    ]);
    expect(result.records[2]!.adjudication?.gd?.value).toEqual({ kind: 'number', value: 1.2 });
  });
});
