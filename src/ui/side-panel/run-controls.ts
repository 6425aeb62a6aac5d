/**
 * Start and Stop for the "Extract" section, over injected senders so the permission step can be
 * tested without a browser. An engine that reaches a server (OpenAI-compatible) needs a host
 * permission for its origin (the engine registry says which); it is requested first, in the click's call stack (permissions.request needs a user gesture).
 */
import type { MatrixRunSettings } from '../../contracts/matrix-run';
import { engineRegistry, type EngineRegistry } from '../../llm/engines/registry';
import { toLlmError } from '../../llm/llm-port';
import type { TestConnection } from '../shared/engine-fields';
import type { StartRun } from './extraction-panel';

export interface RunControlDependencies {
  /** `browser.permissions.request({ origins })`: true when granted (at once if granted before). */
  requestOrigins(origins: string[]): Promise<boolean>;
  /** Send `{ type: 'matrix-start', settings }` (`sendRequest`). */
  sendStart: StartRun;
  /** Send `{ type: 'matrix-cancel', runId }` (`sendRequest`). */
  sendCancel(runId: string): Promise<{ ok: true; cancelled: boolean } | { ok: false; failure: { code: string; message: string } }>;
  /** The page's `fetch` for "Test connection" (default `globalThis.fetch`). */
  fetch?: typeof globalThis.fetch;
}

/** A request the panel made was refused; `code` is the message protocol's failure code. */
export class RunControlError extends Error {
  override readonly name = 'RunControlError';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * → `{ start, stop }` for `ExtractionPanel`. `start` asks for the origins the engine's kind needs
 * (`registry.origins`: an OpenAI-compatible server's `originPattern(baseUrl)`), calling
 * `requestOrigins` synchronously (no await before it); refused or failed → `{ ok: false, failure:
 * { code: 'permission-denied', message: "Assay needs permission to reach <origin>" } }` and
 * nothing is sent. Kinds that need no origin (WebLLM) ask for nothing. `stop` sends the
 * cancel and resolves once it is answered (the row's status tells whether it stopped); a failure
 * answer rejects with `RunControlError`. `testConnection` asks for the same origins, then the
 * kind's `probe` (what the server is and the context it gives each model), in words or as a
 * failure with the `LlmError`'s code (`origin-refused`, `unreachable`, …).
 */
export function createRunControls(
  dependencies: RunControlDependencies,
  registry: EngineRegistry = engineRegistry,
): { start: StartRun; stop: (runId: string) => Promise<void>; testConnection: TestConnection } {
  /** Ask for `engine`'s origins (in the click's call stack); → null when granted or none are needed, else the failure. */
  const permit = async (engine: MatrixRunSettings['engine'], then: string): Promise<{ code: string; message: string } | null> => {
    const origins = registry.origins(engine);
    if (origins.length > 0) {
      // "http://127.0.0.1:11434/*" → "http://127.0.0.1:11434", the origin in words.
      const refused = `Assay needs permission to reach ${origins.map((pattern) => pattern.replace(/\/\*$/, '')).join(', ')}`;
      let granted: boolean;
      try {
        granted = await dependencies.requestOrigins(origins);
      } catch (error) {
        const detail = error instanceof Error ? error.message : String(error);
        return { code: 'permission-denied', message: `${refused} (${detail}).` };
      }
      if (!granted) return { code: 'permission-denied', message: `${refused}; allow it when the browser asks, then ${then}.` };
    }
    return null;
  };
  const start: StartRun = async (settings: MatrixRunSettings) => {
    const refused = await permit(settings.engine, 'start again');
    return refused ? { ok: false, failure: refused } : dependencies.sendStart(settings);
  };
  // The page asks the server itself (its host permission granted above), so the answer it gets is
  // the one a run's calls get from the offscreen document: same origin, same refusals.
  const testConnection: TestConnection = async (engine) => {
    const refused = await permit(engine, 'test again');
    if (refused) return { ok: false, failure: refused };
    const probe = registry.get(engine.kind, 'browser')?.browser?.probe;
    if (!probe) return { ok: true, text: 'This engine runs in the browser; there is no server to test.' };
    try {
      return { ok: true, text: await probe(engine, dependencies.fetch ?? globalThis.fetch.bind(globalThis)) };
    } catch (error) {
      const reason = toLlmError(error);
      return { ok: false, failure: { code: reason.code, message: reason.message } };
    }
  };
  const stop = async (runId: string) => {
    const answer = await dependencies.sendCancel(runId);
    if (!answer.ok) throw new RunControlError(answer.failure.code, answer.failure.message);
  };
  return { start, stop, testConnection };
}
