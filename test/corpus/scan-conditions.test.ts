/**
 * The quick scan on real captured papers of ../shared (issue 26): candidates carry the conditions
 * and provenance the gate reads, and a number that is a model parameter or a measurement
 * temperature is not offered.
 */
import { describe, expect, it } from 'vitest';
import { captureFile } from '../../src/cli/capture-command';
import { loadPropertySchemas, selectPropertySchemas } from '../../src/properties';
import { scanFor } from '../support/scan-for';
import type { Candidate } from '../../src/text/scan-types';
import { sharedDataSkipReason, sharedPath } from '../support/shared-data';

const skipReason = sharedDataSkipReason();
const schemas = loadPropertySchemas();

async function candidatesOf(path: string, property: string): Promise<{ text: string; candidates: Candidate[] }> {
  const article = await captureFile(sharedPath(path));
  return { text: article.text, candidates: scanFor(article, selectPropertySchemas(schemas, [property])).candidates };
}

const valueOf = (candidate: Candidate) => (candidate.quantity.value.kind === 'number' ? candidate.quantity.value.value : NaN);

describe.skipIf(skipReason !== undefined)(`the scan's conditions on real papers${skipReason ? ` (${skipReason})` : ''}`, () => {
  it('pairs the GGA/PBE and HSE06 gaps of a "respectively" sentence with their methods (bandgap-200 paper 73)', async () => {
    const { text, candidates } = await candidatesOf('datasets/bandgap-200/text-pub/73_10.1016_j.mtcomm.2023.107183.txt', 'band_gap');
    const methods = (value: number) =>
      candidates
        .filter((candidate) => candidate.material?.text === 'BPN-GaN' && valueOf(candidate) === value)
        .map((candidate) => candidate.conditions.filter((condition) => condition.kind === 'method').map((condition) => condition.value));
    expect(methods(1.86).length).toBeGreaterThan(0);
    expect(new Set(methods(1.86).flat())).toEqual(new Set(['GGA-PBE']));
    expect(new Set(methods(2.31).flat())).toEqual(new Set(['HSE06']));
    for (const condition of candidates.flatMap((candidate) => candidate.conditions))
      expect(text.slice(condition.position!.start, condition.position!.end)).toBe(condition.text);
  });

  it('offers no Hubbard U as a band gap and marks a cited gap cited (bandgap-200 paper 18)', async () => {
    const { candidates } = await candidatesOf('datasets/bandgap-200/text-pub/18_10.1088_0953-8984_27_11_115503.txt', 'band_gap');
    // "They determine a U parameter equal to 6.4 eV in order to fix the experimental band gap of GdN"
    expect(candidates.filter((candidate) => valueOf(candidate) === 6.4)).toEqual([]);
    // "Later on, SmN was shown to be a semiconductor with a band gap of 0.7 eV [19]."
    const cited = candidates.find((candidate) => candidate.material?.text === 'SmN' && valueOf(candidate) === 0.7);
    expect(cited?.provenance).toMatchObject({ kind: 'cited', reference: '[19]' });
    expect(cited?.doubts.some((doubt) => doubt.startsWith('cited [19]'))).toBe(true);
  });

  it('offers no measurement temperature as a Tc (SuperMat JPS081033701: "we measured … at 20 K (> Tc∗)")', async () => {
    const { text, candidates } = await candidatesOf('fixtures/pdf/supercon/supermat__JPS081033701-CC.pdf', 'tc');
    const measured = candidates.filter((candidate) =>
      text.slice(candidate.segment.start, candidate.segment.end).includes('we measured (T1T)'),
    );
    // "at 20 K" is the measurement's temperature. The coordinated "and 5 K (< Tc∗)" is still
    // offered: the role reader reads the words right before a number, and "and" is not "at".
    expect(measured.map((candidate) => candidate.quantity.text)).not.toContain('20 K');
    expect(measured.map((candidate) => candidate.quantity.text)).toEqual(['5 K']);
    expect(candidates.length).toBeGreaterThan(0);
  });
});
