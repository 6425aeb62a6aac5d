import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { browser } from 'wxt/browser';
import { EXAMPLE_ARTICLE_PATH } from '../../src/extension/example-article';
import { keepStorageFromPage } from '../../src/extension/keep-storage';
import { requestCapture } from '../../src/extension/request-capture';
import { sendRequest } from '../../src/extension/send-request';
import { resolveTargetTabId } from '../../src/extension/target-tab';
import { loadPropertySchemas } from '../../src/properties';
import { createAssayDatabase } from '../../src/store/assay-database';
import { CapturePanel } from '../../src/ui/side-panel/capture-panel';
import { browserTabEvents } from '../../src/extension/browser-tab-events';
import { targetMode, watchPanelTarget, type PanelTarget } from '../../src/extension/panel-target';
import { currentPaperFinder, papersChanged, tabUrlReader } from '../../src/ui/side-panel/current-paper';
import { createPageHighlighter } from '../../src/ui/side-panel/highlight-sync';
import { createReviewActions } from '../../src/ui/side-panel/review-actions';
import { createRunControls } from '../../src/ui/side-panel/run-controls';
import type { SettingsServices } from '../../src/ui/settings/settings-panel';
import '../../src/ui/shared/styles.css';

// The panel follows its window's active tab and that tab's page (panel-target.ts); `?tabId=N`
// and `?windowId=N` are explained in target-tab.ts. A capture, a lookup and the highlights go to
// the tab the panel shows; without a known tab, the tab is chosen when the button is clicked.
const watchTarget = (onChange: (target: PanelTarget) => void) => watchPanelTarget(targetMode(location.search), browserTabEvents, onChange);
const captureActivePage = (target?: PanelTarget) =>
  target?.tabId != null ? sendRequest({ type: 'capture-tab', tabId: target.tabId }) : requestCapture(location.search);
const targetTab = (target?: PanelTarget) => (target?.tabId != null ? Promise.resolve(target.tabId) : resolveTargetTabId(location.search));

const database = createAssayDatabase();
const schemas = loadPropertySchemas();
const properties = schemas.map(({ name, label, synonyms, symbols }) => ({ name, label, synonyms, symbols }));
// The paper of the page the panel opens on; the tab's URL is hidden without activeTab or a host permission.
const findCurrentPaper = currentPaperFinder(
  database,
  tabUrlReader(
    () => resolveTargetTabId(location.search),
    (tabId) => browser.tabs.get(tabId),
  ),
);
// A paper the background saves after the panel opened (an opted-in publisher site) then appears.
const watchPapers = papersChanged(database);
const { start, stop, testConnection } = createRunControls({
  requestOrigins: (origins) => browser.permissions.request({ origins }),
  sendStart: (settings) => {
    // WebLLM downloads its models at a run's start when they are not cached yet.
    if (settings.engine.kind === 'webllm') keepStorageFromPage('model-download');
    return sendRequest({ type: 'matrix-start', settings });
  },
  sendCancel: (runId) => sendRequest({ type: 'matrix-cancel', runId }),
});
const review = createReviewActions(database, { onRowsAdded: () => keepStorageFromPage('first-rows') });
const openHighlighter = (target?: PanelTarget) => createPageHighlighter(() => targetTab(target), sendRequest);
const checkWebGpu = () => sendRequest({ type: 'webgpu-check' });
const settings: SettingsServices = {
  checkWebGpu,
  cacheStatus: (modelIds, customModels) => sendRequest({ type: 'model-cache-status', modelIds, customModels }),
  deleteFromCache: (modelId, customModels) => sendRequest({ type: 'model-cache-delete', modelId, customModels }),
  unloadModels: () => sendRequest({ type: 'model-unload' }),
  downloadModel: (modelId, action, customModels) => sendRequest({ type: 'model-download', action, modelId, customModels }),
  ...(navigator.storage && { storage: navigator.storage }),
};

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <CapturePanel
      captureActivePage={captureActivePage}
      datasetUrl={browser.runtime.getURL('/dataset.html')}
      exampleUrl={browser.runtime.getURL(EXAMPLE_ARTICLE_PATH)}
      extraction={{ database, properties, start, stop, testConnection, review, openHighlighter, schemas, checkWebGpu }}
      settings={settings}
      findCurrentPaper={findCurrentPaper}
      watchPapers={watchPapers}
      watchTarget={watchTarget}
      precedent={{ database, properties, pending: browser.storage.session }}
    />
  </StrictMode>,
);
