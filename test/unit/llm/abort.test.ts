import { describe, expect, it } from 'vitest';
import { abortedError, throwIfAborted } from '../../../src/llm/abort';
import { LlmError } from '../../../src/llm/llm-port';
import { createScriptedLlm } from '../../../src/llm/scripted-llm';
import { PAPER_MCTS_OPTIONS, runMcts } from '../../../src/matrix/gd/mcts';
import { createSeededRandom } from '../../../src/matrix/random';
import { generatorReply, input } from '../matrix/gd/fixtures';

describe('throwIfAborted', () => {
  it('throws the one aborted LlmError once the signal has fired, and nothing before', () => {
    const controller = new AbortController();
    expect(() => throwIfAborted(undefined)).not.toThrow();
    expect(() => throwIfAborted(controller.signal)).not.toThrow();
    controller.abort();
    expect(() => throwIfAborted(controller.signal)).toThrow(LlmError);
    expect(() => throwIfAborted(controller.signal)).toThrow(abortedError().message);
  });

  it('is the check the SLM-MATRIX search and the scripted engine make: a cancelled search and a cancelled call fail alike', async () => {
    // The search had its own copy (in src/matrix/gd/mcts.ts) that said "the run was cancelled"
    // where every adapter said "the call was cancelled"; now both throw abortedError().
    const controller = new AbortController();
    controller.abort();
    const llm = createScriptedLlm({ respond: (request) => generatorReply(request) });
    const search = runMcts(input, PAPER_MCTS_OPTIONS, { llm, rng: createSeededRandom(3), signal: controller.signal });
    await expect(search).rejects.toMatchObject({ code: 'aborted', message: abortedError().message });
    expect(llm.calls).toHaveLength(0);
    const call = llm.complete({ role: 'generator', messages: [{ role: 'user', content: 'x' }], signal: controller.signal });
    await expect(call).rejects.toMatchObject({ code: 'aborted', message: abortedError().message });
  });
});
