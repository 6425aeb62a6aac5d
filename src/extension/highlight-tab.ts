/**
 * The `highlight-show` and `highlight-scroll` handlers: inject the highlighter script into the
 * tab (a no-op for the page's highlighter when it is already there), forward the request to it,
 * and check its answer like any other message from an untrusted context.
 */
import { failureOf, sendAndParse, type RequestOf, type ResponseOf } from '../contracts/messages';
import { HIGHLIGHTER_TARGET, type HighlighterEnvelope } from '../highlight/highlighter-messages';
import { isExampleArticle } from './example-article';
import { uncapturableReason } from './uncapturable-reason';

/** The highlighter content script as built by WXT from `entrypoints/highlight.content.ts`. */
export const highlightScriptFile = '/content-scripts/highlight.js' as const;

/** The slice of the `browser` API the highlight handlers use. */
export interface HighlightApi {
  tabs: {
    get(tabId: number): Promise<{ url?: string }>;
    sendMessage(tabId: number, message: unknown): Promise<unknown>;
  };
  scripting: {
    executeScript(injection: { target: { tabId: number }; files: Array<typeof highlightScriptFile> }): Promise<unknown>;
  };
  /** `runtime.getURL`: the bundled example article runs its own highlighter, and is not injected into. */
  runtime: { getURL(path: string): string };
}

type HighlightRequestType = 'highlight-show' | 'highlight-scroll';

export interface HighlightHandlers {
  'highlight-show': (request: RequestOf<'highlight-show'>) => Promise<ResponseOf<'highlight-show'>>;
  'highlight-scroll': (request: RequestOf<'highlight-scroll'>) => Promise<ResponseOf<'highlight-scroll'>>;
}

const CANNOT = 'Cannot highlight in this tab';

function detailOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Words for an error thrown by `scripting.executeScript` when injecting the highlighter. */
export function describeHighlightInjectionError(error: unknown): string {
  const detail = detailOf(error);
  if (/No tab with id/i.test(detail)) return `${CANNOT}: the tab was closed.`;
  if (/error page/i.test(detail)) return `${CANNOT}: it shows a browser error page, not an article.`;
  if (/chrome:\/\/|extensions gallery|cannot be scripted/i.test(detail)) {
    return `${CANNOT}: chrome:// pages, the PDF viewer and the extension store cannot be read by extensions.`;
  }
  if (/permission|Cannot access/i.test(detail)) {
    // activeTab is granted by the toolbar click and revoked when the tab navigates elsewhere.
    return 'Assay may mark a page only after you click its toolbar button on that page. Click the Assay button, then show the highlights again.';
  }
  return `${CANNOT}: ${detail}`;
}

/** Words for an error thrown by `tabs.sendMessage` after a successful injection. */
function describeSendError(error: unknown): string {
  const detail = detailOf(error);
  if (/No tab with id/i.test(detail)) return `${CANNOT}: the tab was closed.`;
  if (/Receiving end does not exist|Could not establish connection/i.test(detail)) {
    return 'The page did not answer: the highlighter did not start in it (the page may have navigated away while it loaded). Try again.';
  }
  if (/message port closed|back\/forward cache/i.test(detail)) {
    return 'The page did not answer: no highlighter replied (the page may have navigated away or gone into the back/forward cache). Try again.';
  }
  return `The page did not answer the highlight request: ${detail}`;
}

/**
 * Build the background's handlers for `highlight-show` and `highlight-scroll`, given the
 * `browser` slice `api`. Each: (1) reads the tab (`no-tab` "the tab was closed" when it is gone;
 * `no-tab` when its address is a page extensions may not read, e.g. chrome://); (2) injects
 * `highlightScriptFile` with `scripting.executeScript` (`no-tab`, with the reason in words, when
 * the browser refuses); (3) sends `{ target: 'assay-highlighter', request }` with
 * `tabs.sendMessage` (`internal` "the page did not answer…" on no listener, no reply or a closed
 * port); (4) parses the reply with the request type's response schema (`internal` on a bad
 * shape). The page's own failures (the PDF viewer: `unsupported-type`) are passed on. Never rejects.
 */
export function createHighlightHandlers(api: HighlightApi): HighlightHandlers {
  async function forward<Type extends HighlightRequestType>(request: RequestOf<Type>): Promise<ResponseOf<Type>> {
    const fail = (code: Parameters<typeof failureOf>[0], message: string) => failureOf<Type>(code, message);
    const { tabId } = request as RequestOf<HighlightRequestType>;
    const tab = await api.tabs.get(tabId).catch(() => undefined);
    if (!tab) return fail('no-tab', `${CANNOT}: the tab was closed.`);
    // The example article (an extension page, which cannot be injected into) installed the highlighter itself.
    if (!isExampleArticle(tab.url, api.runtime.getURL('/'))) {
      const reason = uncapturableReason(tab.url);
      if (reason) return fail('no-tab', reason.replace(/^No capturable tab/, CANNOT));
      try {
        await api.scripting.executeScript({ target: { tabId }, files: [highlightScriptFile] });
      } catch (error) {
        return fail('no-tab', describeHighlightInjectionError(error));
      }
    }

    // The page is untrusted: its answer is checked like any other message.
    return sendAndParse(
      request,
      (message) => api.tabs.sendMessage(tabId, { target: HIGHLIGHTER_TARGET, request: message } as HighlighterEnvelope),
      {
        noAnswer: describeSendError,
        undefinedAnswer:
          'The page did not answer the highlight request: the highlighter is not listening in it. Reload the page and try again.',
        malformed: (issues) => `The page answered the highlight request in an unexpected shape: ${issues}`,
      },
    );
  }
  return {
    'highlight-show': (request) => forward<'highlight-show'>(request),
    'highlight-scroll': (request) => forward<'highlight-scroll'>(request),
  };
}
