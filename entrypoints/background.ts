import { browser } from 'wxt/browser';
import { defineBackground } from 'wxt/utils/define-background';
import { createBackgroundHandlers } from '../src/extension/background-handlers';
import { createMessageListener } from '../src/extension/message-router';
import { createOffscreenForwarder } from '../src/extension/offscreen-engine';
import { openSidePanelOnActionClick } from '../src/extension/open-side-panel-on-click';
import { recognizePapersOnPublisherSites, type RecognitionRecord } from '../src/extension/paper-recognizer-browser';
import { registerPrecedentMenu } from '../src/extension/precedent-menu';
import { restrictLocalStorageToTrustedContexts } from '../src/extension/trusted-storage';
import { openWelcomeOnInstall } from '../src/extension/welcome-on-install';
import type { DatasetTriplet } from '../src/contracts/dataset';
import { createAssayDatabase } from '../src/store/assay-database';
import { saveTriplets } from '../src/store/dataset-repository';

export default defineBackground(() => {
  // First: storage.local holds the reader's keys, and Chromium opens it to content scripts by default.
  void restrictLocalStorageToTrustedContexts(browser);
  // The toolbar click opens the side panel and grants activeTab on the page (see the module).
  openSidePanelOnActionClick(browser);
  openWelcomeOnInstall(browser);
  const precedentMenuClick = registerPrecedentMenu(browser);
  const database = createAssayDatabase();
  // The e2e tests cannot click a native context menu; the test build lets them call the handler,
  // and save rows from this context as a run does (the dataset page's search must follow them).
  // They also read how each look at a publisher-site page ended (`recognitions`).
  const recognitions: RecognitionRecord[] = [];
  if (import.meta.env.MODE === 'test') {
    (globalThis as { assayTest?: unknown }).assayTest = {
      precedentMenuClick,
      saveTriplets: (rows: DatasetTriplet[]) => saveTriplets(database, rows),
      recognitions,
    };
  }
  const offscreen = createOffscreenForwarder(browser);
  browser.runtime.onMessage.addListener(
    createMessageListener(createBackgroundHandlers(database, browser, offscreen), browser.runtime.getURL('/')),
  );
  // Only on the publisher sites the reader opted in to in Settings (see the module).
  recognizePapersOnPublisherSites(database, offscreen, import.meta.env.MODE === 'test' ? (look) => recognitions.push(look) : undefined);
});
