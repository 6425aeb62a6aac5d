/**
 * The default WebLLM rosters against the installed @mlc-ai/web-llm model list (the package loads
 * in Node: its model list is plain data), and the GPU-memory load plan worked by hand.
 */
import { prebuiltAppConfig } from '@mlc-ai/web-llm';
import { describe, expect, it } from 'vitest';
import { LlmError } from '../../../src/llm/llm-port';
import { DEFAULT_GPU_BUDGET_MB, defaultWebLlmRoster, planModelLoads, rosterModelIds, rosterToPresetModels } from '../../../src/llm/roster';

const modelList = prebuiltAppConfig.model_list;
const record = (id: string) => modelList.find((model) => model.model_id === id);

describe('defaultWebLlmRoster', () => {
  it.each([true, false])('shaderF16 = %s: every model is in the installed WebLLM model list, with a VRAM figure', (shaderF16) => {
    const roster = defaultWebLlmRoster(shaderF16);
    for (const id of rosterModelIds(roster)) {
      expect(record(id), id).toBeDefined();
      expect(record(id)!.vram_required_MB, id).toBeGreaterThan(0);
    }
    // Three different proposer models; the other roles reuse them (no extra load).
    expect(new Set(roster.proposers).size).toBe(3);
    expect(rosterModelIds(roster)).toEqual(roster.proposers);
  });

  it('without shader-f16 no model requires it; with it, the roster uses q4f16_1 builds', () => {
    for (const id of rosterModelIds(defaultWebLlmRoster(false))) {
      expect(record(id)!.required_features ?? [], id).not.toContain('shader-f16');
      expect(id).toMatch(/q4f32_1/);
    }
    expect(rosterModelIds(defaultWebLlmRoster(true)).every((id) => id.includes('q4f16_1'))).toBe(true);
  });

  it('the default budget holds the shader-f16 roster together (4 404.09 MB in WebLLM 0.2.86)', () => {
    const plan = planModelLoads(rosterModelIds(defaultWebLlmRoster(true)), modelList, DEFAULT_GPU_BUDGET_MB);
    // 1 629.75 (Qwen2.5-1.5B) + 879.04 (Llama-3.2-1B) + 1 895.3 (gemma-2-2b) = 4 404.09 ≤ 6 144.
    expect(plan).toEqual({ together: true, groups: [rosterModelIds(defaultWebLlmRoster(true))], totalMB: 4404.09, budgetMB: 6144 });
  });

  it('maps to the pipeline models and lists distinct ids in first-use order', () => {
    const roster = { proposers: ['a', 'b', 'a'], aggregator: 'c', generator: 'b', discriminator: 'd' };
    expect(rosterModelIds(roster)).toEqual(['a', 'b', 'c', 'd']);
    expect(rosterToPresetModels(roster)).toEqual({ proposers: ['a', 'b', 'a'], aggregator: 'c', generator: 'b', discriminator: 'd' });
  });
});

describe('planModelLoads', () => {
  const records = [
    { model_id: 'A', vram_required_MB: 3000 },
    { model_id: 'B', vram_required_MB: 2500 },
    { model_id: 'C', vram_required_MB: 2000 },
    { model_id: 'D', vram_required_MB: 1500 },
    { model_id: 'E', vram_required_MB: 1000 },
    { model_id: 'no-size' },
  ];

  it('one group when everything fits, in the given order, duplicates dropped', () => {
    expect(planModelLoads(['C', 'E', 'C'], records, 3000)).toEqual({ together: true, groups: [['C', 'E']], totalMB: 3000, budgetMB: 3000 });
  });

  it('packs by first-fit decreasing otherwise', () => {
    // Budget 4 000, largest first: A → group 1 (3 000); B fits nowhere → group 2 (2 500); C → group 3
    // (2 000); D → group 1 would be 4 500, group 2 is 4 000 → group 2; E → group 1 (4 000).
    expect(planModelLoads(['E', 'D', 'C', 'B', 'A'], records, 4000)).toEqual({
      together: false,
      groups: [['A', 'E'], ['B', 'D'], ['C']],
      totalMB: 10000,
      budgetMB: 4000,
    });
  });

  it('a model alone above the budget is out-of-gpu-memory, naming it, its size, the budget and the remedy', () => {
    const error = (() => {
      try {
        planModelLoads(['E', 'A'], records, 2999);
      } catch (caught) {
        return caught as LlmError;
      }
      throw new Error('expected an error');
    })();
    expect(error).toBeInstanceOf(LlmError);
    expect(error.code).toBe('out-of-gpu-memory');
    expect(error.message).toContain('A alone needs 3000 MB');
    expect(error.message).toContain('budget of 2999 MB');
    expect(error.message).toMatch(/smaller model.*raise the GPU memory budget/);
  });

  it('an unknown model or one without vram_required_MB is unavailable, naming it', () => {
    expect(() => planModelLoads(['A', 'Z'], records, 9000)).toThrow(
      expect.objectContaining({ code: 'unavailable', message: expect.stringContaining('Z is not in') }),
    );
    expect(() => planModelLoads(['no-size'], records, 9000)).toThrow(
      expect.objectContaining({ code: 'unavailable', message: expect.stringContaining('vram_required_MB) for no-size') }),
    );
    expect(() => planModelLoads(['A'], records, 0)).toThrow(expect.objectContaining({ code: 'unavailable' }));
  });
});
