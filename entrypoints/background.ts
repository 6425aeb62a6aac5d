import { browser } from 'wxt/browser';
import { defineBackground } from 'wxt/utils/define-background';
import { createBackgroundHandlers } from '../src/extension/background-handlers';
import { createMessageListener } from '../src/extension/message-router';
import { openSidePanelOnActionClick } from '../src/extension/open-side-panel-on-click';
import { registerPrecedentMenu } from '../src/extension/precedent-menu';
import { restrictLocalStorageToTrustedContexts } from '../src/extension/trusted-storage';
import { createAssayDatabase } from '../src/store/assay-database';

export default defineBackground(() => {
  // First: storage.local holds the reader's keys, and Chromium opens it to content scripts by default.
  void restrictLocalStorageToTrustedContexts(browser);
  // The toolbar click opens the side panel and grants activeTab on the page (see the module).
  openSidePanelOnActionClick(browser);
  const precedentMenuClick = registerPrecedentMenu(browser);
  // The e2e tests cannot click a native context menu; the test build lets them call the handler.
  if (import.meta.env.MODE === 'test') (globalThis as { assayTest?: unknown }).assayTest = { precedentMenuClick };
  const database = createAssayDatabase();
  browser.runtime.onMessage.addListener(createMessageListener(createBackgroundHandlers(database, browser), browser.runtime.getURL('/')));
});
