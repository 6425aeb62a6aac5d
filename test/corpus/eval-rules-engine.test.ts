/**
 * The rules engine end to end, as `assay eval … --engine rules` runs it: capture each paper,
 * extract with rules, score against the truth, and check every emitted triplet with the
 * grounding gate. The floors are the figures in the README's evaluation section (measured
 * 2026-11-22, rounded down); the grounding rate must be exactly 1.
 */
import { describe, expect, it } from 'vitest';
import { captureFile } from '../../src/cli/capture-command';
import { evaluateBandgap } from '../../src/eval/bandgap/bandgap-evaluation';
import { rulesEngine } from '../../src/eval/rules-engine';
import { loadScorerDependencies } from '../../src/eval/scorer-dependencies';
import { evaluateSupermat } from '../../src/eval/supermat/supermat-evaluation';
import { sharedDataSkipReason, sharedRoot } from '../support/shared-data';

const skipReason = sharedDataSkipReason();

describe.skipIf(skipReason !== undefined)(`rules engine on the shared ground truth${skipReason ? ` (${skipReason})` : ''}`, () => {
  it.each([
    // version, precision, recall, f1 at 0.1% — README: pub 82.6 / 22.1 / 34.9, arxiv 73.1 / 21.3 / 33.0
    // Strict P, R, F1 and lenient F1 measured 2026-11-28 after issue 26 (triplets carry the
    // conditions the scan reads, so strict scoring matches 'BPN-GaN (HSE06)'; differences and
    // parameters are no candidates): pub 0.591, 0.151, 0.241, 0.333; arxiv 0.565, 0.146, 0.232,
    // 0.321. With conditions matched: 6 of the 38 qualified truths in each version.
    // 2026-11-29, after a negative band gap became plausible (a band overlap: the range is −2 to
    // 15 eV): SmN's FM-phase −0.15 eV is predicted too, a truth of the dataset matched leniently
    // but not strictly (its method, LSDA+U+SO, is stated sentences earlier): pub 0.565, 0.151,
    // 0.239, 0.349; arxiv 0.542, 0.146, 0.230, 0.336.
    ['pub', 0.56, 0.15, 0.23, 0.34],
    ['arxiv', 0.54, 0.14, 0.22, 0.33],
  ] as const)(
    'bandgap-200 %s: strict P ≥ %f, R ≥ %f, F1 ≥ %f, lenient F1 ≥ %f, every triplet grounded',
    async (version, precision, recall, f1, lenientF1) => {
      const engine = rulesEngine();
      const result = await evaluateBandgap({
        dataRoot: sharedRoot,
        version,
        source: {
          kind: 'engine',
          name: 'rules',
          extractor: engine.extractor,
          capture: (path) => captureFile(path),
          isGrounded: engine.isGrounded,
        },
        dependencies: await loadScorerDependencies(sharedRoot),
      });
      expect(result.precision).toBeGreaterThanOrEqual(precision);
      expect(result.recall).toBeGreaterThanOrEqual(recall);
      expect(result.f1).toBeGreaterThanOrEqual(f1);
      expect(result.lenient.f1).toBeGreaterThanOrEqual(lenientF1);
      expect(result.groundingRate).toBe(1);
    },
  );

  it('supermat (material–Tc from the PDFs): strict F1 ≥ 0.25, lenient F1 ≥ 0.32, every triplet grounded', async () => {
    // Measured 2026-11-28 (issue 26): 29 papers, strict P 51.8 / R 17.1 / F1 25.7; lenient P 65.9 / R 21.7 / F1 32.7.
    // 2026-11-29 (issue 30): the one value reader no longer drops the truth "from 1.4 to 3.5 K", so 259 truths
    // instead of 258 and the same 44 matched: strict R 17.0 / F1 25.6, lenient R 21.6 / F1 32.6.
    const result = await evaluateSupermat({
      dataRoot: sharedRoot,
      engine: { name: 'rules', ...rulesEngine() },
      capture: (path) => captureFile(path),
      dependencies: await loadScorerDependencies(sharedRoot),
    });
    expect(result.n).toBe(29);
    expect(result.precision).toBeGreaterThanOrEqual(0.51);
    expect(result.strict.truths).toBe(259);
    expect(result.strict.matched).toBeGreaterThanOrEqual(44);
    expect(result.recall).toBeGreaterThanOrEqual(0.169);
    expect(result.f1).toBeGreaterThanOrEqual(0.25);
    expect(result.lenient.precision).toBeGreaterThanOrEqual(0.65);
    expect(result.lenient.f1).toBeGreaterThanOrEqual(0.32);
    expect(result.groundingRate).toBe(1);
  });
});
