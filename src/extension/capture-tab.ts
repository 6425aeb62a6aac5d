/**
 * The `capture-tab` handler: inject the capture script into one tab, validate what it returns,
 * save the paper. Runs in the background so a capture survives the side panel closing.
 */
import { browser, type Browser } from 'wxt/browser';
import { failureResponse, PageCaptureResultSchema, type RequestOf, type ResponseOf } from '../contracts/messages';
import type { AssayDatabase } from '../store/assay-database';
import { toPaperSummary } from '../store/paper-record';
import { savePaper } from '../store/paper-repository';
import { describeInjectionError, uncapturableReason } from './uncapturable-reason';

/** The capture content script as built by WXT from `entrypoints/capture.content.ts`. */
export const captureScriptFile = '/content-scripts/capture.js';

/**
 * Capture the page in tab `request.tabId` and save it to `database`. Resolves to the saved
 * paper's summary and the capture's warnings, or to a failure in words (`no-tab` when the
 * page may not be read, the capture's own `CaptureFailure` such as `bot-check`, `unreadable`
 * when the script's answer does not match the protocol). Nothing is saved on failure.
 */
export async function captureTab(
  request: RequestOf<'capture-tab'>,
  database: AssayDatabase,
): Promise<ResponseOf<'capture-tab'>> {
  const tab = await browser.tabs.get(request.tabId).catch(() => undefined);
  if (!tab) return failureResponse('no-tab', 'No capturable tab: the tab was closed.');
  const reason = uncapturableReason(tab.url);
  if (reason) return failureResponse('no-tab', reason);

  let injectionResults: Browser.scripting.InjectionResult[];
  try {
    injectionResults = await browser.scripting.executeScript({ target: { tabId: request.tabId }, files: [captureScriptFile] });
  } catch (error) {
    return failureResponse('no-tab', describeInjectionError(error));
  }
  // Page content is untrusted: the script's answer is parsed like any other message.
  const parsed = PageCaptureResultSchema.safeParse(injectionResults[0]?.result);
  if (!parsed.success) {
    return failureResponse('unreadable', 'The page could not be read: the capture returned nothing usable.');
  }
  if (!parsed.data.ok) return { ok: false, failure: parsed.data.failure };

  const record = await savePaper(database, parsed.data.article);
  return { ok: true, paper: toPaperSummary(record), warnings: parsed.data.article.warnings };
}
