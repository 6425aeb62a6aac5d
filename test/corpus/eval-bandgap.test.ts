/**
 * Replay scoring on the real bandgap-200 data: the recorded ChatExtract, LangChain,
 * ChemDataExtractor and BERT-PSIE outputs against the manual ground truth, with the real unit table and material comparison. The floors
 * are the scores measured when the scorer was written (rounded down), so a regression in the
 * readers, the unit conversion or the material comparison makes this fail.
 */
import { describe, expect, it } from 'vitest';
import { evaluateBandgap } from '../../src/eval/bandgap/bandgap-evaluation';
import { REPLAY_NAMES } from '../../src/eval/bandgap/bandgap-dataset';
import { loadScorerDependencies } from '../../src/eval/scorer-dependencies';
import { sharedDataSkipReason, sharedRoot } from '../support/shared-data';

const skipReason = sharedDataSkipReason();

// [replay, version, strict precision, recall, f1, lenient f1] floors at 0.1%, measured with
// `assay eval bandgap-200 --all-replays --version both --json` (2026-11-24, strict scorer).
const FLOORS: Array<[string, 'pub' | 'arxiv', number, number, number, number]> = [
  ['chatextract-qwen2.5-14b', 'pub', 0.26, 0.22, 0.24, 0.48], // measured strict 0.264, 0.221, 0.241; lenient F1 0.481
  ['chatextract-qwen2.5-14b-verified', 'pub', 0.4, 0.18, 0.25, 0.35], // measured 0.410, 0.186, 0.256; 0.352
  ['langchain-22', 'pub', 0.39, 0.19, 0.26, 0.34], // measured 0.395, 0.198, 0.264; 0.341
  ['langchain-12', 'arxiv', 0.71, 0.22, 0.34, 0.41], // measured 0.714, 0.225, 0.342; 0.410
  // Issue 30 (2026-11-29): the two baselines' upstream "1-raw" sheets.
  ['chemdataextractor', 'pub', 0.2, 0.04, 0.07, 0.22], // measured 0.200, 0.047, 0.075; 0.226
  ['bert-psie', 'pub', 0.15, 0.03, 0.05, 0.11], // measured 0.158, 0.035, 0.057; 0.114
];

describe.skipIf(skipReason !== undefined)(`bandgap-200 replays${skipReason ? ` (${skipReason})` : ''}`, () => {
  it.each(FLOORS)(
    '%s on %s scores at least strict P %f, R %f, F1 %f, lenient F1 %f',
    async (name, version, precision, recall, f1, lenientF1) => {
      const result = await evaluateBandgap({
        dataRoot: sharedRoot,
        version,
        source: { kind: 'replay', name },
        dependencies: await loadScorerDependencies(sharedRoot),
      });
      expect(result.n).toBe(100);
      expect(result.precision).toBeGreaterThanOrEqual(precision);
      expect(result.recall).toBeGreaterThanOrEqual(recall);
      expect(result.f1).toBeGreaterThanOrEqual(f1);
      expect(result.strict.f1).toBe(result.f1);
      expect(result.lenient.f1).toBeGreaterThanOrEqual(lenientF1);
      // Lenient matching and the looser tolerances can only match more.
      expect(result.lenient.matched).toBeGreaterThanOrEqual(result.strict.matched);
      expect(result.f1At['1%']).toBeGreaterThanOrEqual(result.f1At['0.1%']);
      expect(result.f1At['10%']).toBeGreaterThanOrEqual(result.f1At['1%']);
    },
  );

  it('reads every replay on both versions, with truths from the manual files', async () => {
    const dependencies = await loadScorerDependencies(sharedRoot);
    for (const version of ['pub', 'arxiv'] as const) {
      for (const name of REPLAY_NAMES) {
        const result = await evaluateBandgap({ dataRoot: sharedRoot, version, source: { kind: 'replay', name }, dependencies });
        expect(result.strict.truths, `${version} ${name}`).toBe(version === 'pub' ? 86 : 89);
        expect(result.strict.predictions, `${version} ${name}`).toBeGreaterThan(0);
        expect(result.truths, `${version} ${name}`).toHaveLength(result.strict.truths);
      }
    }
  });

  it('--limit N keeps the first N papers of the truth file', async () => {
    const result = await evaluateBandgap({
      dataRoot: sharedRoot,
      version: 'pub',
      source: { kind: 'replay', name: 'langchain-23' },
      limit: 14,
      dependencies: await loadScorerDependencies(sharedRoot),
    });
    expect(result.n).toBe(14);
    expect(result.papers.map((paper) => paper.paper.split('/')[0])).toEqual(Array.from({ length: 14 }, (_, index) => String(index + 1)));
    // Papers 5, 7, 8, 11, 12 and 14 carry truths in manual_pub__manual.csv (4 + 2 + 1 + 3 + 1 + 20 rows).
    expect(result.strict.truths).toBe(31);
  });
});
