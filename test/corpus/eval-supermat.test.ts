/**
 * SuperMat on the real data: the truth file joins to the PDF fixtures, and the evaluation runs
 * end to end on captured PDFs with an injected engine (one that echoes a truth record whose
 * material it finds in the captured text, so the scorer must credit at least one of them).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { evaluateSupermat } from '../../src/eval/supermat/supermat-evaluation';
import { parseSupermatTruth } from '../../src/eval/supermat/supermat-truth';
import { loadScorerDependencies } from '../../src/eval/scorer-dependencies';
import { captureFile } from '../../src/cli/capture-command';
import { sharedDataSkipReason, sharedPath, sharedRoot } from '../support/shared-data';

const skipReason = sharedDataSkipReason();

describe.skipIf(skipReason !== undefined)(`supermat${skipReason ? ` (${skipReason})` : ''}`, () => {
  it('reads the linked records', () => {
    const papers = parseSupermatTruth(readFileSync(sharedPath('datasets', 'supermat', 'SuperMat-2.0.csv'), 'utf8'));
    expect(papers.length).toBeGreaterThanOrEqual(130);
    expect(papers.reduce((total, paper) => total + paper.truths.length, 0)).toBeGreaterThanOrEqual(1000);
  });

  it('scores an injected engine on the first 3 PDFs (--limit 3)', async () => {
    const papers = parseSupermatTruth(readFileSync(sharedPath('datasets', 'supermat', 'SuperMat-2.0.csv'), 'utf8'));
    const echo = {
      name: 'echo-first-record',
      extractor: async (article: { text: string }, _options: unknown) => {
        // Find the paper by one of its truth materials in the captured text; echo that record.
        for (const paper of papers) {
          const first = paper.truths.find((truth) => truth.aliases.some((alias) => alias.length > 4 && article.text.includes(alias)));
          if (first && first.value.kind === 'number') {
            return [{ material: first.aliases[0]!, property: 'tc', value: first.value, unit: first.unit, engine: 'echo' }];
          }
        }
        return [];
      },
    };
    const result = await evaluateSupermat({
      dataRoot: sharedRoot,
      engine: echo,
      capture: (path) => captureFile(path),
      limit: 3,
      dependencies: await loadScorerDependencies(sharedRoot),
    });
    expect(result.n).toBe(3);
    expect(result.strict.truths).toBeGreaterThan(0);
    expect(result.truths).toHaveLength(result.strict.truths);
    expect(result.matched).toBeLessThanOrEqual(result.strict.predictions);
    expect(result.lenient.matched).toBeGreaterThanOrEqual(result.strict.matched);
    expect(result.precision).toBeGreaterThan(0);
  });
});
