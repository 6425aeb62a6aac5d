import { describe, expect, it } from 'vitest';
import { LlmError, type LlmPort, type LlmRequest } from '../../../../src/llm/llm-port';
import { createScriptedLlm } from '../../../../src/llm/scripted-llm';
import { runGeneratorDiscriminator } from '../../../../src/matrix/gd/gd-path';
import { PAPER_MCTS_OPTIONS, runMcts } from '../../../../src/matrix/gd/mcts';
import { createSeededRandom } from '../../../../src/matrix/random';
import { ceria, generatorReply, input, invented, praseodymia, requestedAction, sequenceRandom } from './fixtures';

const smallSearch = { rollouts: 3, depth: 2, paths: 2, c: 1.5 };
// Draws, in order: round 1 expands index ⌊0.9·5⌋ = 4 of [A1..A5] → A5 (final, so no simulation);
// round 2 expands ⌊0.5·4⌋ = 2 of [A1,A2,A3,A4] → A3, simulates ⌊0·5⌋ = 0 → A1 (last step);
// round 3 expands ⌊0·3⌋ = 0 of [A1,A2,A4] → A1, simulates ⌊0.3·5⌋ = 1 → A2 (last step).
const scriptedDraws = [0.9, 0.5, 0, 0, 0.3];

describe('runMcts with a scripted generator', () => {
  it('builds the hand-traced tree and returns the top-N trajectories by reward', async () => {
    const llm = createScriptedLlm({ respond: (request) => generatorReply(request) });
    const result = await runMcts(input, smallSearch, { llm, rng: sequenceRandom(scriptedDraws) });

    expect(llm.calls.map((call) => requestedAction(call.request))).toEqual(['A5', 'A3', 'A1', 'A1', 'A2']);
    expect(
      llm.calls.every((call) => call.request.role === 'generator' && call.request.temperature === 0.7 && call.request.maxTokens === 2048),
    ).toBe(true);
    expect(result.generatorSteps).toBe(5);

    // R_L: [A5] = 0.25·1 + 0.25·1 + 0.5·(1/2) = 0.75 (999 GPa is not grounded); the other two are 1.
    const { root } = result;
    expect(root.children.map((child) => child.action)).toEqual(['A5', 'A3', 'A1']);
    expect(root.children.map((child) => [child.visits, child.totalReward])).toEqual([
      [1, 0.75],
      [1, 1],
      [1, 1],
    ]);
    expect([root.visits, root.totalReward]).toEqual([3, 2.75]);
    expect(root.untriedActions).toEqual(['A2', 'A4']);
    expect(root.children[0]!.terminal).toBe(true);

    expect(result.trajectories.map((trajectory) => trajectory.steps.map((step) => step.action))).toEqual([
      ['A3', 'A1'],
      ['A1', 'A2'],
    ]);
    expect(result.trajectories.map((trajectory) => trajectory.reward)).toEqual([1, 1]);
    expect(result.trajectories[0]!.triplets).toEqual([ceria, praseodymia]);
    expect(result.usage.promptTokens).toBeGreaterThan(0);
  });

  it('ends a branch whose step stays malformed after the repair with reward 0 and keeps searching', async () => {
    // Documented choice: a malformed step (generateObject's one repair failed) is a dead end —
    // a terminal node with R_L = 0, excluded from the top-N — not a failure of the whole search.
    const llm = createScriptedLlm({ respond: (request) => generatorReply(request, ['A5']) });
    const result = await runMcts(input, smallSearch, { llm, rng: sequenceRandom(scriptedDraws) });

    expect(llm.calls).toHaveLength(6); // A5 + its repair, then 4 good calls
    const malformed = result.root.children[0]!;
    expect(malformed.action).toBe('A5');
    expect(malformed.malformedReply).toBe('not json');
    expect([malformed.visits, malformed.totalReward, malformed.terminal]).toEqual([1, 0, true]);
    expect(result.root.totalReward).toBe(2);
    expect(result.trajectories).toHaveLength(2);
  });

  it('gives the same tree and calls for the same seed, and different searches for different seeds', async () => {
    async function search(seed: number): Promise<{ result: string; actions: string[] }> {
      const llm = createScriptedLlm({ respond: (request) => generatorReply(request) });
      const { trajectories, generatorSteps } = await runMcts(input, PAPER_MCTS_OPTIONS, { llm, rng: createSeededRandom(seed) });
      return { result: JSON.stringify({ trajectories, generatorSteps }), actions: llm.calls.map((call) => requestedAction(call.request)) };
    }
    const first = await search(7);
    const again = await search(7);
    expect(again).toEqual(first);

    const others = await Promise.all([1, 2, 3, 4, 5].map((seed) => search(seed)));
    expect(new Set([first, ...others].map((run) => run.actions.join(','))).size).toBeGreaterThan(1);
    const parsed = JSON.parse(first.result) as { trajectories: { steps: unknown[]; reward: number }[] };
    expect(parsed.trajectories).toHaveLength(3);
    expect(parsed.trajectories.every((trajectory) => trajectory.steps.length <= 5)).toBe(true);
  });

  it('rejects with LlmError("aborted") when cancelled mid-search and makes no further call', async () => {
    const controller = new AbortController();
    const requests: LlmRequest[] = [];
    const llm: LlmPort = {
      complete: async (request) => {
        requests.push(request);
        if (requests.length === 2) controller.abort(); // the user cancels while call 2 is answered
        return { text: generatorReply(request), model: 'fake', usage: { promptTokens: 1, completionTokens: 1 } };
      },
    };
    const run = runMcts(input, PAPER_MCTS_OPTIONS, { llm, rng: createSeededRandom(3), signal: controller.signal });
    await expect(run).rejects.toBeInstanceOf(LlmError);
    await expect(run).rejects.toMatchObject({ code: 'aborted' });
    expect(requests).toHaveLength(2);
    expect(requests[0]!.signal).toBe(controller.signal);
  });

  it('lets other model failures (device lost) propagate', async () => {
    const llm = createScriptedLlm({
      respond: (request) => generatorReply(request),
      failAt: { 1: new LlmError('device-lost', 'GPU device lost') },
    });
    await expect(runMcts(input, smallSearch, { llm, rng: sequenceRandom(scriptedDraws) })).rejects.toMatchObject({ code: 'device-lost' });
  });
});

describe('runGeneratorDiscriminator', () => {
  it('selects by Eq. 13 and never picks the trajectory with the invented value', async () => {
    const llm = createScriptedLlm({
      respond: (request) =>
        request.role === 'discriminator' ? JSON.stringify({ triplets: [ceria, praseodymia] }) : generatorReply(request),
    });
    const result = await runGeneratorDiscriminator(input, { ...smallSearch, paths: 3 }, { llm, rng: sequenceRandom(scriptedDraws) });

    // Scores: [A3,A1] and [A1,A2]: 0.7·1 + 0.3·1 = 1; [A5]: 0.7·0.75 + 0.3·(1/2) = 0.675.
    expect(result.scored.map((entry) => entry.consistency)).toEqual([1, 1, 0.5]);
    expect(result.scored.map((entry) => entry.score)).toEqual([1, 1, expect.closeTo(0.675, 12)]);
    expect(result.best?.trajectory.steps.map((step) => step.action)).toEqual(['A3', 'A1']);
    expect(result.triplets).toEqual([ceria, praseodymia]);
    expect(result.triplets).not.toContainEqual(invented);
    expect(llm.calls.filter((call) => call.request.role === 'discriminator')).toHaveLength(3);
    expect(result.usage.completionTokens).toBeGreaterThan(result.mcts.usage.completionTokens);
  });
});
