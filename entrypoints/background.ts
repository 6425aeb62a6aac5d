import { browser } from 'wxt/browser';
import { defineBackground } from 'wxt/utils/define-background';
import { createBackgroundHandlers } from '../src/extension/background-handlers';
import { createMessageListener } from '../src/extension/message-router';
import { openSidePanelOnActionClick } from '../src/extension/open-side-panel-on-click';
import { createAssayDatabase } from '../src/store/assay-database';

export default defineBackground(() => {
  // The toolbar click opens the side panel and grants activeTab on the page (see the module).
  openSidePanelOnActionClick(browser);
  const database = createAssayDatabase();
  browser.runtime.onMessage.addListener(createMessageListener(createBackgroundHandlers(database, browser), browser.runtime.getURL('/')));
});
