import { describe, expect, it } from 'vitest';
import { worstCaseScript } from '../../../src/bench/bench-presets';
import { createScriptedLlm } from '../../../src/llm/scripted-llm';
import { runMatrix } from '../../../src/matrix/pipeline';
import { BROWSER_PRESET } from '../../../src/matrix/presets';
import { createSeededRandom } from '../../../src/matrix/random';
import { articleFromBlocks, paragraph } from '../text/article-from-blocks';
import { bandGap, realDependencies } from './pipeline-fixtures';

/** A long paper: 200 paragraphs, each stating another compound's band gap, far more than 7 calls of 1,200 tokens hold. */
const sentences = Array.from(
  { length: 200 },
  (_, index) =>
    `Sample ${index + 1} of the Ga${index + 1}N alloy series was grown by molecular beam epitaxy on sapphire at 800 °C, ` +
    `and its optical band gap, measured by spectroscopic ellipsometry at room temperature, is ${(2 + index / 100).toFixed(2)} eV.`,
);
const article = articleFromBlocks(sentences.map(paragraph));

describe('the browser preset on a long paper, worst case', () => {
  it('reads with at most 7 calls and stays within 30 model calls per property', async () => {
    const fact = { material: 'Ga1N', property: 'band_gap', value: 2, unit: 'eV', quote: sentences[0]! };
    const llm = createScriptedLlm(worstCaseScript(fact, BROWSER_PRESET.K));
    const { run } = await runMatrix(
      article,
      { properties: [bandGap], preset: BROWSER_PRESET },
      { llm, rng: createSeededRandom(1), ...realDependencies },
    );
    const [property] = run.properties;
    // The cap bit: more relevant chunks than 7 calls hold, the rest named in the run record.
    expect(property!.retrieval).toMatchObject({ readingCalls: 7, groups: 7 });
    expect(property!.retrieval!.leftOut.length).toBeGreaterThan(0);
    // Reading 7 + MoA 4 + MCTS 12 + discriminator 2 + one refinement round 4 + Chain-of-Verification 1.
    expect(run.usage.byStage['verification-questions']?.calls).toBe(1);
    expect(run.calls).toBe(30);
  });
});
