import { describe, expect, it, vi } from 'vitest';
import { CaptureError } from '../../../src/capture/errors';
import { failureResponse } from '../../../src/contracts/messages';
import { routeMessage, type RequestHandlers } from '../../../src/extension/message-router';

const origin = 'chrome-extension://abcdefghijklmnop/';
const fromSidePanel = { id: 'abcdefghijklmnop', url: `${origin}sidepanel.html` };

function handlersAnswering(answer: RequestHandlers['capture-tab']): RequestHandlers {
  const unused = vi.fn(async () => failureResponse('internal', 'not used in these tests'));
  return {
    'capture-tab': vi.fn(answer),
    'webgpu-check': unused,
    'load-model': unused,
    'matrix-start': unused,
    'matrix-cancel': unused,
    'highlight-show': unused,
    'highlight-scroll': unused,
    'model-cache-status': unused,
    'model-cache-delete': unused,
    'model-unload': unused,
    'model-download': unused,
    'precedent-check': unused,
    'dataset-import': unused,
  };
}

describe('message router', () => {
  it('runs the handler of a valid request from an extension page', async () => {
    const handlers = handlersAnswering(async () => ({ ok: false, failure: { code: 'bot-check', message: 'Bot check' } }));
    const response = await routeMessage(handlers, { type: 'capture-tab', tabId: 7 }, fromSidePanel, origin);
    expect(response).toEqual({ ok: false, failure: { code: 'bot-check', message: 'Bot check' } });
    expect(handlers['capture-tab']).toHaveBeenCalledWith({ type: 'capture-tab', tabId: 7 }, fromSidePanel);
  });

  it('answers a malformed message with bad-request and runs no handler', async () => {
    const handlers = handlersAnswering(async () => {
      throw new Error('must not run');
    });
    for (const message of [{ type: 'capture-tab', tabId: 'seven' }, { type: 'drop-database' }, 'capture-tab', undefined]) {
      const response = await routeMessage(handlers, message, fromSidePanel, origin);
      expect(response).toMatchObject({ ok: false, failure: { code: 'bad-request' } });
    }
    expect(handlers['capture-tab']).not.toHaveBeenCalled();
  });

  it('refuses messages from content scripts (web page URLs)', async () => {
    const handlers = handlersAnswering(async () => {
      throw new Error('must not run');
    });
    const fromPage = { id: 'abcdefghijklmnop', url: 'https://evil.example/', tab: { id: 3 } as never };
    const response = await routeMessage(handlers, { type: 'capture-tab', tabId: 3 }, fromPage, origin);
    expect(response).toMatchObject({ ok: false, failure: { code: 'bad-request' } });
  });

  it('turns a thrown CaptureError into its failure and anything else into internal', async () => {
    const capture = await routeMessage(
      handlersAnswering(async () => {
        throw new CaptureError('no-tab', 'No capturable tab');
      }),
      { type: 'capture-tab', tabId: 1 },
      fromSidePanel,
      origin,
    );
    expect(capture).toEqual({ ok: false, failure: { code: 'no-tab', message: 'No capturable tab' } });
    const internal = await routeMessage(
      handlersAnswering(async () => {
        throw new TypeError('boom');
      }),
      { type: 'capture-tab', tabId: 1 },
      fromSidePanel,
      origin,
    );
    expect(internal).toMatchObject({ ok: false, failure: { code: 'internal' } });
    expect(JSON.parse(JSON.stringify(internal))).toEqual(internal);
  });
});
