/**
 * The engines an extension run can use, built from the user's `EngineSettings` by the engine
 * kind they name (src/llm/engines/registry.ts): WebLLM on the user's GPU, an OpenAI-compatible
 * server the user runs (Ollama, LM Studio, llama.cpp, vLLM), or any other kind the browser offers.
 */
import { z } from 'zod';
import type { EngineSettings } from '../contracts/matrix-run';
import type { BrowserEngineSources } from '../llm/engines/engine-kind';
import { engineRegistry, type EngineRegistry } from '../llm/engines/registry';
import { LlmError } from '../llm/llm-port';
import type { RunEngine } from './matrix-run-host';

/** What the offscreen document injects: the WebLLM engine and its model list, `fetch`, a clock (see `BrowserEngineSources`). */
export type RunEngineSources = BrowserEngineSources;

/**
 * Make `createEngine` for `createMatrixRunHost`: `settings` are parsed with the registry's
 * browser schema (bad ones → `LlmError('unavailable')` naming the problem), then built by their
 * kind's `browser.create` (e.g. `webllm`: `no-webgpu` before anything loads, `out-of-gpu-memory`
 * for a model that cannot fit the budget; `openai`: the roster's models per role, retries in
 * words on `onStatus`). A kind marked `exclusive` (WebLLM: the document has one GPU engine) runs
 * one at a time: while one engine of it is not disposed, another is refused with
 * `LlmError('unavailable', busyMessage)`. The factory's `busy(kind)` says whether such an engine is in use.
 */
export function createRunEngineFactory(sources: RunEngineSources, registry: EngineRegistry = engineRegistry) {
  /** Exclusive kinds with an engine not yet disposed. */
  const inUse = new Set<string>();
  const createEngine = async function createEngine(settings: EngineSettings, onStatus: (text: string | null) => void): Promise<RunEngine> {
    const parsed = registry.parseSettings(settings, 'browser');
    if (!parsed.success) throw new LlmError('unavailable', `The engine settings are not valid: ${z.prettifyError(parsed.error)}`);
    const kind = registry.get(parsed.data.kind, 'browser')!;
    const browser = kind.browser!;
    if (!browser.exclusive) return browser.create(parsed.data, sources, onStatus);
    if (inUse.has(kind.kind)) throw new LlmError('unavailable', browser.exclusive.busyMessage);
    inUse.add(kind.kind);
    const release = () => inUse.delete(kind.kind);
    try {
      const engine = await browser.create(parsed.data, sources, onStatus);
      return {
        ...engine,
        dispose: () => {
          engine.dispose?.();
          release();
        },
      };
    } catch (error) {
      release();
      throw error;
    }
  };
  /** True while an engine of the exclusive kind `kind` is in use (made and not yet disposed). */
  const busy = (kind: string): boolean => inUse.has(kind);
  return Object.assign(createEngine, { busy });
}
