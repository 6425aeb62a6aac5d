import { describe, expect, it } from 'vitest';
import { LlmError } from '../../../../src/llm/llm-port';
import { createScriptedLlm } from '../../../../src/llm/scripted-llm';
import { consistency, discriminate, scoreTrajectory, selectBest, type ScoredTrajectory } from '../../../../src/matrix/gd/discriminator';
import type { Trajectory } from '../../../../src/matrix/gd/mcts';
import { MASK_TOKEN, type ExtractedTriplet } from '../../../../src/matrix/gd/prompts';

const sameIgnoringCase = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

function triplet(material: string, value: number, unit = 'GPa'): ExtractedTriplet {
  return { material, property: 'bulk_modulus', value, unit, quote: `${material} ${value} ${unit}` };
}

const ceria = triplet('CeO2', 230);
const praseodymia = triplet('PrO2', 176.9);
const thoria = triplet('ThO2', 175);

describe('consistency (Eq. 12 of SLM-MATRIX)', () => {
  it('is 1 when every triplet is reconstructed (material equivalent, value and unit exact)', () => {
    expect(consistency([ceria, praseodymia], [triplet('ceo2', 230), praseodymia], sameIgnoringCase)).toBe(1);
  });

  it('counts only exact value and unit matches: 1 of 3 → 1/3', () => {
    const reconstructed = [ceria, triplet('PrO2', 177), triplet('ThO2', 175, 'Gpa')];
    expect(consistency([ceria, praseodymia, thoria], reconstructed, sameIgnoringCase)).toBe(1 / 3);
  });

  it('is 0 when nothing matches, or when the reconstruction is empty', () => {
    expect(consistency([ceria], [triplet('PrO2', 230)], sameIgnoringCase)).toBe(0);
    expect(consistency([ceria, thoria], [], sameIgnoringCase)).toBe(0);
  });

  it('matches one-to-one: a repeated reconstruction counts once (1 of 2 → 0.5)', () => {
    expect(consistency([ceria, triplet('CeO2', 230)], [ceria], sameIgnoringCase)).toBe(0.5);
  });

  it('follows the paper for empty originals: 0, or Not Applicable (null) when both are empty', () => {
    expect(consistency([], [ceria], sameIgnoringCase)).toBe(0);
    expect(consistency([], [], sameIgnoringCase)).toBeNull();
  });
});

function trajectoryWith(reward: number, triplets: ExtractedTriplet[]): Trajectory {
  return {
    steps: [
      { action: 'A1', step: { text: 'materials: CeO2, PrO2', materials: ['CeO2', 'PrO2'], triplets: [], final: false } },
      { action: 'A2', step: { text: 'extracted', materials: [], triplets, final: true } },
    ],
    triplets,
    reward,
    rewardBreakdown: { reward, completeness: 1, format: 1, grounding: 1 },
  };
}

describe('scoreTrajectory and selectBest (Eq. 13, α = 0.7, β = 0.3)', () => {
  it('computes α·reward + β·consistency', () => {
    expect(scoreTrajectory(0.9, 1 / 3)).toBeCloseTo(0.73, 12); // 0.63 + 0.1
    expect(scoreTrajectory(0.8, 1)).toBeCloseTo(0.86, 12); // 0.56 + 0.3
    expect(scoreTrajectory(0.95, 0)).toBeCloseTo(0.665, 12); // 0.665 + 0
    expect(scoreTrajectory(0, null)).toBe(0); // Not Applicable adds nothing
    expect(scoreTrajectory(0.5, 0.5, { alpha: 0.5, beta: 0.5 })).toBe(0.5);
  });

  it('selects the trajectory with the highest final score, not the highest reward', () => {
    const make = (reward: number, consistencyScore: number): ScoredTrajectory => ({
      trajectory: trajectoryWith(reward, [ceria]),
      reconstructed: [],
      consistency: consistencyScore,
      score: scoreTrajectory(reward, consistencyScore),
    });
    const first = make(0.9, 1 / 3); // 0.73
    const second = make(0.8, 1); // 0.86
    const third = make(0.95, 0); // 0.665
    expect(selectBest([first, second, third])).toBe(second);
    expect(selectBest([first, third])).toBe(first);
    expect(selectBest([])).toBeUndefined();
  });
});

describe('discriminate (mask and reconstruct)', () => {
  it('masks the final step, asks the discriminator, and scores each trajectory', async () => {
    const llm = createScriptedLlm({
      replies: {
        discriminator: [JSON.stringify({ triplets: [ceria, praseodymia] }), JSON.stringify({ triplets: [{ ...ceria, value: 231 }] })],
      },
    });
    const full = trajectoryWith(0.9, [ceria, praseodymia]);
    const partial = trajectoryWith(0.8, [ceria, thoria]);
    const result = await discriminate({ passage: 'CeO2 230 GPa. PrO2 176.9 GPa.', property: 'bulk_modulus' }, [full, partial], {
      llm,
      rng: () => 0,
      sameMaterial: sameIgnoringCase,
    });

    expect(result.scored.map((entry) => entry.consistency)).toEqual([1, 0]);
    expect(result.scored[0]!.score).toBeCloseTo(0.7 * 0.9 + 0.3 * 1, 12);
    expect(result.scored[1]!.score).toBeCloseTo(0.7 * 0.8, 12);
    expect(llm.calls).toHaveLength(2);
    const prompt = llm.calls[0]!.request.messages.map((message) => message.content).join('\n');
    expect(llm.calls[0]!.request.role).toBe('discriminator');
    expect(prompt).toContain(MASK_TOKEN);
    expect(prompt).toContain('materials: CeO2, PrO2'); // S_1 is kept
    expect(prompt).not.toContain('"final":true'); // S_d is not shown
  });

  it('scores a reconstruction that stays malformed after the repair as consistency 0', async () => {
    const llm = createScriptedLlm({ replies: { discriminator: ['not json', 'still not json'] } });
    const result = await discriminate({ passage: 'CeO2 230 GPa.', property: 'bulk_modulus' }, [trajectoryWith(1, [ceria])], {
      llm,
      rng: () => 0,
    });
    expect(result.scored[0]!.consistency).toBe(0);
    expect(result.scored[0]!.score).toBeCloseTo(0.7, 12);
    expect(result.scored[0]!.malformedReconstruction).toBe('still not json');
    expect(llm.calls).toHaveLength(2);
  });

  it('rejects with LlmError("aborted") before calling when the signal has fired', async () => {
    const llm = createScriptedLlm({ respond: () => JSON.stringify({ triplets: [] }) });
    const controller = new AbortController();
    controller.abort();
    const run = discriminate({ passage: 'x', property: 'bulk_modulus' }, [trajectoryWith(1, [ceria])], {
      llm,
      rng: () => 0,
      signal: controller.signal,
    });
    await expect(run).rejects.toBeInstanceOf(LlmError);
    await expect(run).rejects.toMatchObject({ code: 'aborted' });
    expect(llm.calls).toHaveLength(0);
  });
});
