/**
 * SOFC-Exp as the `--context` stand-in for unseen papers (src/eval/sofc-exp/sofc-exp-evidence.ts)
 * on the real corpus (../shared/datasets/sofc-exp): the reader-defined properties take the
 * thickness and working-temperature slots, each truth's unit is the one the paper prints at the
 * value, and retrieval reads a PMC plain-text "600 oC" as a temperature. Hand-checked in the texts:
 * PMC4770875 reports "0.131 Ωcm2 at 350, 375, and 400 °C, respectively" (slot value "375", no
 * unit in the annotation), PMC4772004 "the 2-μm-thick YSZ film" (annotated "2-μm-thick"), and
 * PMC4495617 "0.12 S cm−1 at 600 oC".
 */
import { describe, expect, it } from 'vitest';
import { propertyCandidates } from '../../src/eval/context/context-calls';
import { loadSofcExpEvidence, SOFC_EXP_READER_PROPERTIES } from '../../src/eval/sofc-exp/sofc-exp-evidence';
import { loadPropertySchemas } from '../../src/properties';
import { chunkArticle, rankChunks } from '../../src/text/retrieval';
import { sharedDataSkipReason, sharedRoot } from '../support/shared-data';

const skipReason = sharedDataSkipReason();

describe.skipIf(skipReason !== undefined)(`sofc-exp as context-recall papers${skipReason ? ` (${skipReason})` : ''}`, () => {
  it('gives every set its truths of the reader properties, with the unit printed at the value', async () => {
    const cases = await loadSofcExpEvidence(sharedRoot, loadPropertySchemas());
    const truths = cases.flatMap((entry) => entry.truths.map((truth) => ({ paper: entry.paper, ...truth })));
    expect(new Set(truths.map((truth) => truth.property))).toEqual(new Set(['thickness', 'working_temperature']));
    expect(cases.length).toBeGreaterThan(30);
    const listed = truths.find((truth) => truth.paper === 'PMC4770875' && truth.valueText === '375');
    expect(listed).toMatchObject({ property: 'working_temperature', value: { kind: 'number', value: 375 }, unit: '°C' });
    const hyphenated = truths.find((truth) => truth.paper === 'PMC4772004' && truth.valueText === '2-μm-thick');
    expect(hyphenated).toMatchObject({ property: 'thickness', value: { kind: 'number', value: 2 }, unit: 'μm' });
  }, 60_000);

  it('ranks a sentence whose only temperature is written "600 oC" for the working temperature', async () => {
    const [entry] = (await loadSofcExpEvidence(sharedRoot, loadPropertySchemas())).filter((each) => each.paper === 'PMC4495617');
    const property = SOFC_EXP_READER_PROPERTIES.find((each) => each.name === 'working_temperature')!;
    const ranked = rankChunks(chunkArticle(entry!.article), property, {
      candidates: propertyCandidates(entry!.article, property),
      k: Infinity,
    });
    const sentence = ranked.find((each) => each.chunk.quote.includes('0.12 S cm−1 at 600 oC'));
    expect(sentence).toMatchObject({ unit: true });
  }, 60_000);
});
