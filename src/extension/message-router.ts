/**
 * The background's message router: a map from request type to handler, instead of an if-chain.
 * Every incoming message is checked (sender, then zod shape) before a handler sees it, and
 * every outcome, thrown errors included, is answered with a serializable response.
 */
import type { Browser } from 'wxt/browser';
import { z } from 'zod';
import { CaptureError } from '../capture/errors';
import {
  failureResponse,
  RequestSchema,
  type FailureResponse,
  type Request,
  type RequestOf,
  type RequestType,
  type ResponseOf,
} from '../contracts/messages';
import { engineRegistry, type EngineRegistry } from '../llm/engines/registry';

export type MessageSender = Browser.runtime.MessageSender;

/** A handler for one request type: resolves to that type's response (failures included). */
export type RequestHandler<Type extends RequestType> = (request: RequestOf<Type>, sender: MessageSender) => Promise<ResponseOf<Type>>;

/** One handler per request type; each resolves to that type's response (failures included). */
export type RequestHandlers = {
  [Type in RequestType]: RequestHandler<Type>;
};

/**
 * True when `sender` is one of this extension's own pages or its service worker: its URL lies
 * under `extensionOrigin` (`browser.runtime.getURL('/')`, e.g. `chrome-extension://<id>/`, with
 * its closing slash, so `chrome-extension://<id>evil/` does not pass). A content script's URL is
 * the page's it runs in, and another extension's pages have their own origin: both fail, as does
 * a sender with no URL.
 */
export function isOwnExtensionSender(sender: Pick<MessageSender, 'url'>, extensionOrigin: string): boolean {
  return extensionOrigin.endsWith('/') && typeof sender.url === 'string' && sender.url.startsWith(extensionOrigin);
}

/**
 * Answer one raw message: reject it unless it comes from one of this extension's own pages
 * (`extensionOrigin`, e.g. `chrome-extension://<id>/`) — content scripts run beside untrusted
 * pages and never need to ask the background for anything — and unless it parses as a
 * `Request` — engine settings (`matrix-start`, `precedent-check`) parsed by their kind's schema
 * in `registry` (the browser's kinds; contracts check only their shared shape) — then run its
 * handler with the parsed request. Never throws.
 */
export async function routeMessage(
  handlers: RequestHandlers,
  message: unknown,
  sender: MessageSender,
  extensionOrigin: string,
  registry: EngineRegistry = engineRegistry,
): Promise<ResponseOf<RequestType> | FailureResponse> {
  if (!isOwnExtensionSender(sender, extensionOrigin)) {
    return failureResponse('bad-request', 'Assay answers only its own pages.');
  }
  const parsed = RequestSchema.safeParse(message);
  if (!parsed.success) {
    return failureResponse('bad-request', `Assay received a malformed message: ${z.prettifyError(parsed.error)}`);
  }
  const request = withEngineParsed(parsed.data, registry);
  if (!request.success) {
    return failureResponse('bad-request', `Assay received a malformed message: ${z.prettifyError(request.error)}`);
  }
  // The mapped type guarantees handlers[type] accepts RequestOf<type>; TypeScript cannot
  // correlate the two through a union, hence the widening.
  const handler = handlers[parsed.data.type] as (request: Request, sender: MessageSender) => Promise<ResponseOf<RequestType>>;
  try {
    return await handler(request.data, sender);
  } catch (error) {
    if (error instanceof CaptureError) return { ok: false, failure: error.toJSON() };
    const detail = error instanceof Error ? error.message : String(error);
    return failureResponse('internal', `Something went wrong inside Assay: ${detail}`);
  }
}

/**
 * Build a `runtime.onMessage` listener from the handler map. It answers through
 * `sendResponse` and returns `true` to keep the channel open while the handler runs: unlike a
 * returned promise, this works in every Chrome version that has MV3.
 */
export function createMessageListener(handlers: RequestHandlers, extensionOrigin: string) {
  return (message: unknown, sender: MessageSender, sendResponse: (response: unknown) => void): true => {
    void routeMessage(handlers, message, sender, extensionOrigin).then(sendResponse);
    return true;
  };
}

/**
 * `request` with its engine settings parsed by `registry`'s browser schema (unknown keys dropped),
 * or the `ZodError` of bad ones; a request without engine settings as it is.
 */
function withEngineParsed(
  request: Request,
  registry: EngineRegistry,
): { success: true; data: Request } | { success: false; error: z.ZodError } {
  if (request.type === 'matrix-start') {
    const parsed = registry.parseSettings(request.settings.engine, 'browser');
    return parsed.success ? { success: true, data: { ...request, settings: { ...request.settings, engine: parsed.data } } } : parsed;
  }
  if (request.type === 'precedent-check') {
    const parsed = registry.parseSettings(request.engine, 'browser');
    return parsed.success ? { success: true, data: { ...request, engine: parsed.data } } : parsed;
  }
  return { success: true, data: request };
}
