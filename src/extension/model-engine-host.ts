/**
 * The offscreen document's side of the engine requests (see offscreen-engine.ts for why the
 * engine lives there): one WebLLM `LlmPort` per document, answering `webgpu-check` and
 * `load-model` envelopes from the background with `{ capability, summary, error? }`.
 */
import { OffscreenEnvelopeSchema, type ResponseOf } from '../contracts/messages';
import { LlmError } from '../llm/llm-port';
import { describeWebGpu, detectWebGpu, type NavigatorLike, type WebGpuCapability } from '../llm/webgpu-capability';
import type { WebLlm, WebLlmProgress } from '../llm/webllm-adapter';

type EngineResponse = ResponseOf<'webgpu-check'>;

export interface ModelEngineHostOptions {
  navigator: NavigatorLike | undefined;
  /** Build the WebLLM port (given the capability check and a progress sink). */
  createLlm(options: { capability: () => Promise<WebGpuCapability>; onProgress: (progress: WebLlmProgress) => void }): Promise<WebLlm>;
}

/**
 * Build the offscreen `runtime.onMessage` listener. It answers only envelopes addressed to the
 * offscreen document (returning `true` to keep the channel open) and ignores every other
 * runtime message (returns `false`), which the background answers.
 */
export function createModelEngineListener(options: ModelEngineHostOptions) {
  const capability = () => detectWebGpu(options.navigator);
  const progress: WebLlmProgress[] = [];
  let llm: Promise<WebLlm> | undefined;
  const getLlm = () =>
    (llm ??= options.createLlm({
      capability,
      onProgress: (report) => {
        progress.push(report);
        if (progress.length > 5) progress.shift();
      },
    }));

  async function answer(message: unknown): Promise<EngineResponse> {
    const envelope = OffscreenEnvelopeSchema.parse(message);
    const found = await capability();
    const summary = describeWebGpu(found);
    if (envelope.request.type === 'webgpu-check') return { ok: true, capability: found, summary };
    progress.length = 0;
    try {
      await (await getLlm()).load([envelope.request.modelId]);
      return { ok: true, capability: found, summary, progress: progress.map(({ text, progress: fraction }) => ({ text, progress: fraction })) };
    } catch (error) {
      const llmError = error instanceof LlmError ? error : new LlmError('unavailable', error instanceof Error ? error.message : String(error));
      return {
        ok: true,
        capability: found,
        summary,
        error: { code: llmError.code, message: llmError.message },
        progress: progress.map(({ text, progress: fraction }) => ({ text, progress: fraction })),
      };
    }
  }

  return (message: unknown, _sender: unknown, sendResponse: (response: unknown) => void): boolean => {
    if (!OffscreenEnvelopeSchema.safeParse(message).success) return false;
    void answer(message).then(sendResponse, (error: unknown) =>
      sendResponse({ ok: false, failure: { code: 'internal', message: `The model engine failed: ${error instanceof Error ? error.message : String(error)}` } }),
    );
    return true;
  };
}
