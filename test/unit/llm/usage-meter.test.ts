import { describe, expect, it } from 'vitest';
import { UsageSnapshotSchema } from '../../../src/contracts/llm';
import { LlmError, type LlmReply, type LlmRequest } from '../../../src/llm/llm-port';
import { createScriptedLlm } from '../../../src/llm/scripted-llm';
import { UsageMeter } from '../../../src/llm/usage-meter';

describe('UsageMeter', () => {
  it('sums calls, tokens and time per stage, per model and in total', async () => {
    const llm = createScriptedLlm({
      respond: (request) => 'x'.repeat(request.role === 'proposer' ? 8 : 4),
      failAt: { 3: new LlmError('malformed-output', 'bad', { usage: { promptTokens: 10, completionTokens: 20 } }) },
    });
    let clock = 0;
    const meter = new UsageMeter(llm, () => (clock += 5)); // every reading advances 5 ms: each call lasts 5 ms
    const moa = meter.stage('moa');
    const mcts = meter.stage('mcts');
    const prompt = [{ role: 'user' as const, content: 'abcdefgh' }]; // 8 chars → 2 prompt tokens

    await moa.complete({ role: 'proposer', model: 'qwen', messages: prompt }); // 2 + 2, clock 5→10
    await moa.complete({ role: 'proposer', model: 'llama', messages: prompt }); // 2 + 2, 15→20
    await mcts.complete({ role: 'generator', model: 'qwen', messages: prompt }); // 2 + 1, 25→30
    await expect(mcts.complete({ role: 'discriminator', model: 'qwen', messages: prompt })).rejects.toMatchObject({
      code: 'malformed-output',
    }); // 10 + 20, 35→40
    await meter.complete({ role: 'judge', model: 'llama', messages: prompt }); // 2 + 1, 45→50

    const snapshot = meter.snapshot();
    expect(snapshot.total).toEqual({ calls: 5, failedCalls: 1, promptTokens: 18, completionTokens: 26, callTimeMs: 25, wallTimeMs: 45 });
    expect(snapshot.byStage.moa).toEqual({
      calls: 2,
      failedCalls: 0,
      promptTokens: 4,
      completionTokens: 4,
      callTimeMs: 10,
      wallTimeMs: 15,
    });
    expect(snapshot.byStage.mcts).toEqual({
      calls: 2,
      failedCalls: 1,
      promptTokens: 12,
      completionTokens: 21,
      callTimeMs: 10,
      wallTimeMs: 15,
    });
    expect(snapshot.byStage.unstaged).toEqual({
      calls: 1,
      failedCalls: 0,
      promptTokens: 2,
      completionTokens: 1,
      callTimeMs: 5,
      wallTimeMs: 5,
    });
    expect(snapshot.byModel.qwen).toMatchObject({ calls: 3, promptTokens: 14, completionTokens: 23 });
    expect(snapshot.byModel.llama).toMatchObject({ calls: 2, promptTokens: 4, completionTokens: 3 });
    expect(JSON.parse(JSON.stringify(snapshot))).toEqual(snapshot);
  });

  it('keeps separate counters per meter and snapshots that do not change', async () => {
    const llm = createScriptedLlm({ respond: () => 'ok' });
    const first = new UsageMeter(llm);
    const second = new UsageMeter(llm);
    await first.complete({ role: 'judge', messages: [] });
    const before = first.snapshot();
    await first.complete({ role: 'judge', messages: [] });
    expect(before.total.calls).toBe(1);
    expect(first.snapshot().total.calls).toBe(2);
    expect(second.snapshot().total).toEqual({
      calls: 0,
      failedCalls: 0,
      promptTokens: 0,
      completionTokens: 0,
      callTimeMs: 0,
      wallTimeMs: 0,
    });
  });

  it('counts per server and logs which server answered each call when replies name one', async () => {
    const servers = ['http://a/v1', 'http://b/v1', 'http://a/v1'];
    let index = 0;
    const llm = {
      async complete(request: LlmRequest): Promise<LlmReply> {
        const server = servers[index++]!;
        if (index === 3) throw new LlmError('http', 'HTTP 404', { status: 404, server });
        return { text: 'ok', model: request.model!, usage: { promptTokens: 10, completionTokens: 2 }, server };
      },
    };
    let clock = 0;
    const meter = new UsageMeter(llm, () => (clock += 5));
    const prompt = [{ role: 'user' as const, content: 'hi' }];
    await meter.stage('moa').complete({ role: 'proposer', model: 'qwen', messages: prompt });
    await meter.stage('mcts').complete({ role: 'generator', model: 'llama', messages: prompt });
    await expect(meter.stage('mcts').complete({ role: 'discriminator', model: 'qwen', messages: prompt })).rejects.toThrow('404');

    const snapshot = meter.snapshot();
    expect(snapshot.byServer).toEqual({
      'http://a/v1': { calls: 2, failedCalls: 1, promptTokens: 10, completionTokens: 2, callTimeMs: 10, wallTimeMs: 25 },
      'http://b/v1': { calls: 1, failedCalls: 0, promptTokens: 10, completionTokens: 2, callTimeMs: 5, wallTimeMs: 5 },
    });
    expect(snapshot.callLog).toEqual([
      { stage: 'moa', model: 'qwen', server: 'http://a/v1', ms: 5, failed: false },
      { stage: 'mcts', model: 'llama', server: 'http://b/v1', ms: 5, failed: false },
      { stage: 'mcts', model: 'qwen', server: 'http://a/v1', ms: 5, failed: true },
    ]);
    expect(UsageSnapshotSchema.parse(snapshot)).toEqual(snapshot);
  });

  it('leaves the server fields out when no reply names a server, as records stored before them read', async () => {
    const meter = new UsageMeter(createScriptedLlm({ respond: () => 'ok' }));
    await meter.complete({ role: 'judge', messages: [] });
    const snapshot = meter.snapshot();
    expect(Object.keys(snapshot)).toEqual(['total', 'byStage', 'byModel']);
    expect(UsageSnapshotSchema.parse(snapshot)).toEqual(snapshot);
  });
});
