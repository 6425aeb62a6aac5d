/**
 * Start and Stop for the "Extract" section, over injected senders so the permission step can be
 * tested without a browser. An OpenAI-compatible server needs a host permission for its origin;
 * it is requested first, in the click's call stack (permissions.request needs a user gesture).
 */
import type { MatrixRunSettings } from '../../contracts/matrix-run';
import { originPattern } from '../settings/engine-form';
import type { StartRun } from './extraction-panel';

export interface RunControlDependencies {
  /** `browser.permissions.request({ origins })`: true when granted (at once if granted before). */
  requestOrigins(origins: string[]): Promise<boolean>;
  /** Send `{ type: 'matrix-start', settings }` (`sendRequest`). */
  sendStart: StartRun;
  /** Send `{ type: 'matrix-cancel', runId }` (`sendRequest`). */
  sendCancel(runId: string): Promise<{ ok: true; cancelled: boolean } | { ok: false; failure: { code: string; message: string } }>;
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
 * → `{ start, stop }` for `ExtractionPanel`. `start` asks for `originPattern(baseUrl)` before an
 * OpenAI-compatible run, calling `requestOrigins` synchronously (no await before it); refused or
 * failed → `{ ok: false, failure: { code: 'permission-denied', message: "Assay needs permission
 * to reach <origin>" } }` and nothing is sent. WebLLM runs need no permission. `stop` sends the
 * cancel and resolves once it is answered (the row's status tells whether it stopped); a failure
 * answer rejects with `RunControlError`.
 */
export function createRunControls(dependencies: RunControlDependencies): { start: StartRun; stop: (runId: string) => Promise<void> } {
  const start: StartRun = async (settings: MatrixRunSettings) => {
    if (settings.engine.kind === 'openai') {
      const origin = new URL(settings.engine.baseUrl).origin;
      const refused = `Assay needs permission to reach ${origin}`;
      let granted: boolean;
      try {
        granted = await dependencies.requestOrigins([originPattern(settings.engine.baseUrl)]);
      } catch (error) {
        const detail = error instanceof Error ? error.message : String(error);
        return { ok: false, failure: { code: 'permission-denied', message: `${refused} (${detail}).` } };
      }
      if (!granted)
        return {
          ok: false,
          failure: { code: 'permission-denied', message: `${refused}; allow it when the browser asks, then start again.` },
        };
    }
    return dependencies.sendStart(settings);
  };
  const stop = async (runId: string) => {
    const answer = await dependencies.sendCancel(runId);
    if (!answer.ok) throw new RunControlError(answer.failure.code, answer.failure.message);
  };
  return { start, stop };
}
