/**
 * Which tab the side panel captures.
 *
 * Normal use: the active tab of the window the side panel belongs to, looked up when the
 * person clicks "Capture this page" (so switching tabs with the panel open does the right
 * thing).
 *
 * `?windowId=N` names the window whose active tab the panel follows (the e2e test of tab switches
 * opens the panel as a tab of another window); it grants nothing either.
 *
 * `?tabId=N` in the side panel's URL names a tab explicitly. The end-to-end test needs it: it
 * opens `sidepanel.html` as an ordinary tab (Playwright cannot open Chrome's side panel), which
 * makes that page the active tab. It is honoured in every build, not only the test build, so
 * the test exercises the code users run: extension pages are not web-accessible (no
 * `web_accessible_resources`), so no website can open the panel with a tab id of its choosing,
 * and a tab id grants nothing: reading the tab still needs activeTab (the user's click on the
 * toolbar button for that very tab) or a host permission, which release builds do not have.
 */
import { browser } from 'wxt/browser';
import { CaptureError } from '../capture/errors';
import { targetMode } from './panel-target';

/** The tab id given as `?tabId=N` in `search` (a `location.search` string), if any. */
export function tabIdFromSearch(search: string): number | undefined {
  const mode = targetMode(search);
  return mode.kind === 'tab' ? mode.tabId : undefined;
}

/**
 * The id of the tab to capture: `?tabId=N` from `search`, else the active tab of window
 * `?windowId=N`, else the active tab of the current window. Rejects with
 * `CaptureError('no-tab')` when there is no active tab.
 */
export async function resolveTargetTabId(search: string): Promise<number> {
  const mode = targetMode(search);
  if (mode.kind === 'tab') return mode.tabId;
  const [tab] = await browser.tabs.query(
    mode.windowId === undefined ? { active: true, currentWindow: true } : { active: true, windowId: mode.windowId },
  );
  if (tab?.id === undefined) throw new CaptureError('no-tab', 'No capturable tab: this window has no active tab.');
  return tab.id;
}
