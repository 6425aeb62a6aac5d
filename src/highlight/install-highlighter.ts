/**
 * One highlighter per page, however often the background injects the script: the first run
 * creates it and keeps it on `window` under a registry symbol (content scripts run in an
 * isolated world, so the page itself never sees it); every later run reuses it and swaps the
 * message listener for its own, so exactly one listener answers and the highlights placed
 * before are kept (a `highlight-scroll` after a `highlight-show` finds them).
 */
import { answerHighlighterMessage } from './highlighter-messages';
import { createHighlighter, type Highlighter } from './highlighter';

/** `(message, sender, sendResponse)`, as `runtime.onMessage` calls it; returns nothing (answers synchronously). */
export type MessageListener = (message: unknown, sender: unknown, sendResponse: (response?: unknown) => void) => void;

/** The slice of `browser.runtime.onMessage` used here. */
export interface MessageEvent {
  addListener(listener: MessageListener): void;
  removeListener(listener: MessageListener): void;
}

const INSTANCE = Symbol.for('assay.highlighter');

interface Instance {
  highlighter: Highlighter;
  listener?: MessageListener;
}

type Scope = Window & { [INSTANCE]?: Instance };

/**
 * Create (first call) or reuse the page's highlighter and make it answer `onMessage` envelopes
 * (`answerHighlighterMessage`); messages for others get no answer from it. Returns the
 * highlighter (`lastReport()` for debugging).
 */
export function installHighlighter(context: { document: Document; window: Window }, onMessage: MessageEvent): Highlighter {
  const scope = context.window as Scope;
  const instance = (scope[INSTANCE] ??= { highlighter: createHighlighter(context) });
  // A listener left by an earlier injection of this extension is replaced (one answer per message);
  // one left by a reloaded extension is already dead, and removing it is a no-op.
  if (instance.listener) onMessage.removeListener(instance.listener);
  const listener: MessageListener = (message, _sender, sendResponse) => {
    const answer = answerHighlighterMessage(instance.highlighter, context.document, message);
    if (answer !== undefined) sendResponse(answer);
  };
  instance.listener = listener;
  onMessage.addListener(listener);
  return instance.highlighter;
}
