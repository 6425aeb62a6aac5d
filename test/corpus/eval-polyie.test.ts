/**
 * `assay eval polyie` with the rules engine on the real PolyIE dev files
 * (../shared/datasets/polyie). Hand-checked against the documents: in train_split/59 the rules
 * engine reads "their optical gaps were estimated to be 1.33 eV for PBPD1, 1.39 eV for PBPD2,
 * 1.41 eV for PBPD3 and 1.31 eV for PDPP3T" and finds the first three (the fourth, after
 * "and", it misses), all three annotated relations: 3 strict matches of the document's 7
 * band-gap relations (the others are the solution gaps 1.53, 1.56, 1.61 eV and PDPP3T's 1.31 eV).
 * In train_split/60 it reads P3HS 1.6 eV, which PolyIE does not annotate as a relation.
 */
import { describe, expect, it } from 'vitest';
import { evaluatePolyie } from '../../src/eval/polyie/polyie-evaluation';
import { rulesEngine } from '../../src/eval/rules-engine';
import { loadScorerDependencies } from '../../src/eval/scorer-dependencies';
import { sharedDataSkipReason, sharedRoot } from '../support/shared-data';

const skipReason = sharedDataSkipReason();

describe.skipIf(skipReason !== undefined)(`polyie evaluation${skipReason ? ` (${skipReason})` : ''}`, () => {
  it('scores rules-engine band gaps against the compound–property–value relations, strict and lenient', async () => {
    const result = await evaluatePolyie({
      dataRoot: sharedRoot,
      engine: { name: 'rules', ...rulesEngine() },
      dependencies: await loadScorerDependencies(sharedRoot),
    });
    expect(result.properties).toEqual(['band_gap']);
    expect(result.n).toBe(76);
    expect(result.strict.truths).toBe(102);
    expect(result.truths).toHaveLength(102);
    const paper59 = result.papers.find((paper) => paper.paper === 'train_split/59');
    expect(paper59).toEqual({ paper: 'train_split/59', predictions: 3, truths: 7, matched: 3, lenientMatched: 3 });
    expect(result.papers.find((paper) => paper.paper === 'train_split/60')).toMatchObject({ predictions: 1, matched: 0 });
    expect(
      result.predictions.filter((prediction) => prediction.paper === 'train_split/59').map((prediction) => prediction.material),
    ).toEqual(['PBPD1', 'PBPD2', 'PBPD3']);
    expect(result.lenient.matched).toBeGreaterThanOrEqual(result.strict.matched);
    expect(result.groundingRate).toBe(1);
  });
});
