import { describe, expect, it, vi } from 'vitest';
import type { MatrixRunSettings } from '../../../../src/contracts/matrix-run';
import { createRunControls, RunControlError } from '../../../../src/ui/side-panel/run-controls';
import { mockFetch, ollamaMock } from '../../../support/model-server-mocks';

const roster = { proposers: ['q'], aggregator: 'q', generator: 'q', discriminator: 'q' };
const webllmRun: MatrixRunSettings = {
  paperKey: 'doi:10.1/x',
  properties: ['band_gap'],
  preset: 'browser',
  engine: { kind: 'webllm' },
  seed: 42,
};
const serverRun: MatrixRunSettings = { ...webllmRun, engine: { kind: 'openai', baseUrl: 'http://127.0.0.1:11434/v1', roster } };

function controls(requestOrigins: (origins: string[]) => Promise<boolean>) {
  const sendStart = vi.fn(async () => ({ ok: true as const, runId: 'run-7' }));
  const sendCancel = vi.fn(async () => ({ ok: true as const, cancelled: true }));
  return { sendStart, sendCancel, ...createRunControls({ requestOrigins, sendStart, sendCancel }) };
}

describe('createRunControls', () => {
  it('starts a WebLLM run without asking for a permission', async () => {
    const requestOrigins = vi.fn(async () => true);
    const sendStart = vi.fn(async () => ({ ok: true as const, runId: 'run-7' }));
    const { start } = createRunControls({ requestOrigins, sendStart, sendCancel: async () => ({ ok: true as const, cancelled: false }) });
    await expect(start(webllmRun)).resolves.toEqual({ ok: true, runId: 'run-7' });
    expect(requestOrigins).not.toHaveBeenCalled();
    expect(sendStart).toHaveBeenCalledWith(webllmRun);
  });

  it('asks for the server’s origin synchronously, then starts', async () => {
    const requestOrigins = vi.fn(async () => true);
    const sendStart = vi.fn(async () => ({ ok: true as const, runId: 'run-7' }));
    const { start } = createRunControls({ requestOrigins, sendStart, sendCancel: async () => ({ ok: true as const, cancelled: false }) });
    const pending = start(serverRun);
    expect(requestOrigins).toHaveBeenCalledWith(['http://127.0.0.1:11434/*']); // before any await: still in the click
    await expect(pending).resolves.toEqual({ ok: true, runId: 'run-7' });
    expect(sendStart).toHaveBeenCalledWith(serverRun);
  });

  it('sends nothing when the permission is refused or the request throws', async () => {
    const refused = controls(async () => false);
    await expect(refused.start(serverRun)).resolves.toEqual({
      ok: false,
      failure: {
        code: 'permission-denied',
        message: 'Assay needs permission to reach http://127.0.0.1:11434; allow it when the browser asks, then start again.',
      },
    });
    expect(refused.sendStart).not.toHaveBeenCalled();

    const thrown = controls(async () => {
      throw new Error('Only permissions specified in the manifest may be requested.');
    });
    await expect(thrown.start(serverRun)).resolves.toEqual({
      ok: false,
      failure: {
        code: 'permission-denied',
        message: 'Assay needs permission to reach http://127.0.0.1:11434 (Only permissions specified in the manifest may be requested.).',
      },
    });
    expect(thrown.sendStart).not.toHaveBeenCalled();
  });

  it('stops by run id', async () => {
    const { stop, sendCancel } = controls(async () => true);
    await stop('run-7');
    expect(sendCancel).toHaveBeenCalledWith('run-7');
  });

  it('rejects with the failure when the cancel is refused', async () => {
    const { stop } = createRunControls({
      requestOrigins: async () => true,
      sendStart: async () => ({ ok: true, runId: 'run-7' }),
      sendCancel: async () => ({ ok: false, failure: { code: 'internal', message: 'The Assay background did not answer' } }),
    });
    const stopped = stop('run-7');
    await expect(stopped).rejects.toBeInstanceOf(RunControlError);
    await expect(stopped).rejects.toMatchObject({ code: 'internal', message: 'The Assay background did not answer' });
  });

  it('Test connection: asks for the origin in the click, then says what the server is, or what to fix with its code', async () => {
    const models = { q: { trainedContext: 32_768 } };
    const origin = 'http://127.0.0.1:11434';
    for (const [headers, expected] of [
      [{}, { ok: true }],
      [{ origin: 'chrome-extension://abc' }, { ok: false, failure: { code: 'origin-refused' } }],
    ] as const) {
      const requestOrigins = vi.fn(async () => true);
      const { fetch } = mockFetch(ollamaMock({ models, loaded: { q: 4096 } }), origin, headers);
      const { testConnection } = createRunControls({
        requestOrigins,
        sendStart: async () => ({ ok: true as const, runId: 'r' }),
        sendCancel: async () => ({ ok: true as const, cancelled: false }),
        fetch,
      });
      const pending = testConnection(serverRun.engine);
      expect(requestOrigins).toHaveBeenCalledWith(['http://127.0.0.1:11434/*']);
      const answer = await pending;
      expect(answer).toMatchObject(expected);
      if (answer.ok) {
        expect(answer.text).toContain('Ollama 0.6.8 at http://127.0.0.1:11434/v1. q runs with a context window of 4,096 tokens');
        expect(answer.text).toContain('Structured output: q answered in the JSON schema asked');
      }
    }
    const webllm = createRunControls({
      requestOrigins: async () => true,
      sendStart: async () => ({ ok: true as const, runId: 'r' }),
      sendCancel: async () => ({ ok: true as const, cancelled: false }),
    });
    await expect(webllm.testConnection({ kind: 'webllm' })).resolves.toMatchObject({ ok: true });
  });
});
