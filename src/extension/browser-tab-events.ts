/**
 * `TabEvents` (src/ui/side-panel/panel-target.ts) over the extension's `browser.tabs`: what the
 * side panel needs to follow its window's active tab and that tab's page.
 */
import { browser, type Browser } from 'wxt/browser';
import type { TabEvents } from './panel-target';

/**
 * The extension's tabs, for `watchPanelTarget`. `activeTab(undefined)` asks for the panel's own
 * window (`currentWindow: true`: the window the side panel belongs to). Each `on…` adds a
 * listener and returns its removal.
 */
export const browserTabEvents: TabEvents = {
  getTab: (tabId) => browser.tabs.get(tabId),
  activeTab: async (windowId) => {
    const [tab] = await browser.tabs.query(windowId === undefined ? { active: true, currentWindow: true } : { active: true, windowId });
    return tab;
  },
  onActivated: (listener) => {
    const wrapped = (info: Browser.tabs.OnActivatedInfo) => listener({ tabId: info.tabId, windowId: info.windowId });
    browser.tabs.onActivated.addListener(wrapped);
    return () => browser.tabs.onActivated.removeListener(wrapped);
  },
  onUpdated: (listener) => {
    const wrapped = (tabId: number, change: Browser.tabs.OnUpdatedInfo) =>
      listener(tabId, {
        ...(change.url !== undefined && { url: change.url }),
        ...(change.status !== undefined && { status: change.status }),
      });
    browser.tabs.onUpdated.addListener(wrapped);
    return () => browser.tabs.onUpdated.removeListener(wrapped);
  },
};
