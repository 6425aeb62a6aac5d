/**
 * The side panel's "Capture this page" action, as one function the UI can call.
 */
import { toCaptureFailure } from '../capture/errors';
import type { ResponseOf } from '../contracts/messages';
import { sendRequest } from './send-request';
import { resolveTargetTabId } from './target-tab';

/**
 * Find the tab to capture (see `resolveTargetTabId`; `search` is the side panel's
 * `location.search`) and ask the background to capture and save it. Never rejects: every
 * problem comes back as `{ ok: false, failure }`.
 */
export async function requestCapture(search: string): Promise<ResponseOf<'capture-tab'>> {
  let tabId: number;
  try {
    tabId = await resolveTargetTabId(search);
  } catch (error) {
    return { ok: false, failure: toCaptureFailure(error) };
  }
  return sendRequest({ type: 'capture-tab', tabId });
}
