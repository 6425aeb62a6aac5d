/**
 * The `capture-tab` handler: inject the capture script into one tab, validate what it returns,
 * save the paper. A tab that shows a PDF (Chromium's viewer, which no extension may script) is
 * captured from the PDF's URL instead, by the offscreen document (`capture-pdf-tab.ts`). Runs in
 * the background so a capture survives the side panel closing.
 */
import { browser } from 'wxt/browser';
import { z } from 'zod';
import type { Article } from '../contracts/article';
import {
  failureResponse,
  type FailureResponse,
  PageCaptureResultSchema,
  type PdfReadRequest,
  type PdfReadResponse,
  type RequestOf,
  type ResponseOf,
} from '../contracts/messages';
import type { AssayDatabase } from '../store/assay-database';
import { toPaperSummary } from '../store/paper-record';
import { saveCapture } from '../store/paper-repository';
import { capturePdfTab, showsPdf } from './capture-pdf-tab';
import { EXAMPLE_CAPTURE_TARGET, isExampleArticle } from './example-article';
import { describeInjectionError, uncapturableReason } from './uncapturable-reason';

/** The capture content script as built by WXT from `entrypoints/capture.content.ts`. */
export const captureScriptFile = '/content-scripts/capture.js' as const;

/** What `scripting.executeScript` is asked to run: the capture script, or the content-type probe. */
export type CaptureInjection =
  { target: { tabId: number }; files: Array<typeof captureScriptFile> } | { target: { tabId: number }; func: () => string };

/** The slice of the `browser` API a capture uses, and who downloads and reads PDFs. */
export interface CaptureTabDependencies {
  tabs: { get(tabId: number): Promise<{ url?: string }>; sendMessage(tabId: number, message: unknown): Promise<unknown> };
  scripting: { executeScript(injection: CaptureInjection): Promise<Array<{ result?: unknown }>> };
  /** The offscreen document's `pdf-read` (offscreen-engine.ts `createOffscreenForwarder(…).readPdf`); never rejects. */
  readPdf(request: PdfReadRequest): Promise<PdfReadResponse>;
  /** `runtime.getURL('/')`: recognises the bundled example article, which captures itself (example-article.ts). */
  extensionBase: string;
}

/** The extension's `browser.tabs` and `browser.scripting`, with `readPdf` from the background's offscreen forwarder. */
export function browserCaptureDependencies(readPdf: CaptureTabDependencies['readPdf']): CaptureTabDependencies {
  return {
    tabs: browser.tabs,
    scripting: { executeScript: (injection) => browser.scripting.executeScript(injection) },
    readPdf,
    extensionBase: browser.runtime.getURL('/'),
  };
}

/**
 * Capture the page in tab `request.tabId` and save it to `database`. Resolves to the saved
 * paper's summary and the capture's warnings, or to a failure in words (`no-tab` when the
 * page may not be read, the capture's own `CaptureFailure` such as `bot-check`, `unreadable`
 * when the script's answer does not match the protocol). Nothing is saved on failure.
 *
 * The bundled example article (example-article.ts) captures itself when asked by message.
 * A PDF tab (`showsPdf`: the document's content type is application/pdf, or it could not be
 * read and the URL's path ends in `.pdf`) is downloaded and read with pdf.js by the offscreen
 * document (`dependencies.readPdf`); its failures are those of `capturePdfTab` (HTTP status,
 * size, time limit, not a PDF, no text layer…, or the document not answering), unchanged.
 * `dependencies`: `browserCaptureDependencies(readPdf)` in the extension; tests pass fakes.
 */
export async function captureTab(
  request: RequestOf<'capture-tab'>,
  database: AssayDatabase,
  dependencies: CaptureTabDependencies,
): Promise<ResponseOf<'capture-tab'>> {
  const read = await readTabArticle(request.tabId, dependencies);
  return read.ok ? save(database, read.article) : read;
}

/** What `readTabArticle` gives: the page's article, or why there is none (the capture's failure codes and words). */
export type TabArticle = { ok: true; article: Article } | { ok: false; failure: FailureResponse['failure'] };

/**
 * Read the page in tab `tabId` as an `Article` without saving it: everything `captureTab` does
 * before its save (same failures, same words). `options.pdf: false` declines a PDF tab with a
 * `no-tab` failure instead of downloading it (the publisher-site quick scan of
 * paper-recognizer.ts does not download PDFs on its own).
 */
export async function readTabArticle(
  tabId: number,
  dependencies: CaptureTabDependencies,
  options: { pdf?: boolean } = {},
): Promise<TabArticle> {
  const { tabs, scripting } = dependencies;
  const tab = await tabs.get(tabId).catch(() => undefined);
  if (!tab) return failureResponse('no-tab', 'No capturable tab: the tab was closed.');
  if (isExampleArticle(tab.url, dependencies.extensionBase)) return readExampleArticle(dependencies, tabId);
  const reason = uncapturableReason(tab.url);
  if (reason) return failureResponse('no-tab', reason);

  const probe = await readContentType(dependencies, tabId);
  if (showsPdf({ url: tab.url, contentType: probe.contentType })) {
    if (options.pdf === false) return failureResponse('no-tab', 'The tab shows a PDF, which is read only when you capture it.');
    if (!tab.url) return failureResponse('no-tab', describeInjectionError(new Error('Cannot access the tab’s address.')));
    return capturePdfTab(tab.url, dependencies.readPdf);
  }
  if (probe.error !== undefined) return failureResponse('no-tab', describeInjectionError(probe.error));

  let injectionResults: Array<{ result?: unknown }>;
  try {
    injectionResults = await scripting.executeScript({ target: { tabId }, files: [captureScriptFile] });
  } catch (error) {
    return failureResponse('no-tab', describeInjectionError(error));
  }
  // Page content is untrusted: the script's answer is parsed like any other message.
  const parsed = PageCaptureResultSchema.safeParse(injectionResults[0]?.result);
  if (!parsed.success) return failureResponse('unreadable', unusableCaptureMessage(parsed.error));
  if (!parsed.data.ok) return { ok: false, failure: parsed.data.failure };
  return { ok: true, article: parsed.data.article };
}

/**
 * Read the bundled example article in tab `tabId`: the page answers a message with its own
 * capture (no script can be injected into an extension page), parsed like the injected script's.
 */
async function readExampleArticle(dependencies: CaptureTabDependencies, tabId: number): Promise<TabArticle> {
  let answer: unknown;
  try {
    answer = await dependencies.tabs.sendMessage(tabId, { target: EXAMPLE_CAPTURE_TARGET });
  } catch (error) {
    return failureResponse(
      'no-tab',
      `The example article did not answer: ${error instanceof Error ? error.message : String(error)}. Reload it and capture again.`,
    );
  }
  const parsed = PageCaptureResultSchema.safeParse(answer);
  if (!parsed.success) return failureResponse('unreadable', unusableCaptureMessage(parsed.error));
  if (!parsed.data.ok) return { ok: false, failure: parsed.data.failure };
  return { ok: true, article: parsed.data.article };
}

/**
 * The top document's `document.contentType`, read by a one-line injected function (cheaper
 * than the capture script, and it runs in Chromium's PDF viewer tab too), or the injection error.
 */
async function readContentType(
  dependencies: CaptureTabDependencies,
  tabId: number,
): Promise<{ contentType: string | undefined; error?: unknown }> {
  try {
    const results = await dependencies.scripting.executeScript({ target: { tabId }, func: () => document.contentType });
    const contentType = z.string().safeParse(results[0]?.result);
    return { contentType: contentType.success ? contentType.data : undefined };
  } catch (error) {
    return { contentType: undefined, error };
  }
}

/**
 * Save the capture (`saveCapture`: a saved paper is never replaced by a lesser capture) and
 * answer with the paper as it now stands and every warning, the save's first (the saved full
 * text kept, a capture from another host), then the capture's own.
 */
async function save(database: AssayDatabase, article: Article): Promise<ResponseOf<'capture-tab'>> {
  const saved = await saveCapture(database, article);
  return { ok: true, paper: toPaperSummary(saved.record), warnings: [...saved.warnings, ...article.warnings] };
}

/**
 * Why the capture script's answer was refused, in words: the fields of the article that broke
 * the contract (a title longer than any paper's, offsets that do not match), or that the
 * answer had no recognizable shape at all.
 */
function unusableCaptureMessage(error: z.ZodError): string {
  const articleIssues = error.issues.filter((issue) => issue.path[0] === 'article');
  if (articleIssues.length === 0) return 'The page could not be read: the capture returned nothing usable.';
  const problems = articleIssues.slice(0, 3).map((issue) => `${issue.path.slice(1).join('.') || 'article'}: ${issue.message}`);
  return `The page was read, but what it holds is not an article Assay can keep: ${problems.join('; ')}.`;
}
