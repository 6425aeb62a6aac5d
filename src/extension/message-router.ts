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

export type MessageSender = Browser.runtime.MessageSender;

/** A handler for one request type: resolves to that type's response (failures included). */
export type RequestHandler<Type extends RequestType> = (request: RequestOf<Type>, sender: MessageSender) => Promise<ResponseOf<Type>>;

/** One handler per request type; each resolves to that type's response (failures included). */
export type RequestHandlers = {
  [Type in RequestType]: RequestHandler<Type>;
};

/**
 * Answer one raw message: reject it unless it comes from one of this extension's own pages
 * (`extensionOrigin`, e.g. `chrome-extension://<id>/`) — content scripts run beside untrusted
 * pages and never need to ask the background for anything — and unless it parses as a
 * `Request`; then run its handler. Never throws.
 */
export async function routeMessage(
  handlers: RequestHandlers,
  message: unknown,
  sender: MessageSender,
  extensionOrigin: string,
): Promise<ResponseOf<RequestType> | FailureResponse> {
  if (!sender.url?.startsWith(extensionOrigin)) {
    return failureResponse('bad-request', 'Assay answers only its own pages.');
  }
  const parsed = RequestSchema.safeParse(message);
  if (!parsed.success) {
    return failureResponse('bad-request', `Assay received a malformed message: ${z.prettifyError(parsed.error)}`);
  }
  // The mapped type guarantees handlers[type] accepts RequestOf<type>; TypeScript cannot
  // correlate the two through a union, hence the widening.
  const handler = handlers[parsed.data.type] as (request: Request, sender: MessageSender) => Promise<ResponseOf<RequestType>>;
  try {
    return await handler(parsed.data, sender);
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
