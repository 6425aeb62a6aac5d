import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { browser } from 'wxt/browser';
import { requestCapture } from '../../src/extension/request-capture';
import { sendRequest } from '../../src/extension/send-request';
import { loadPropertySchemas } from '../../src/properties';
import { createAssayDatabase } from '../../src/store/assay-database';
import { CapturePanel } from '../../src/ui/capture-panel';
import { createRunControls } from '../../src/ui/run-controls';
import '../../src/ui/styles.css';

// The tab is chosen when the button is clicked; `?tabId=N` is explained in target-tab.ts.
const captureActivePage = () => requestCapture(location.search);

const database = createAssayDatabase();
const properties = loadPropertySchemas().map(({ name, label }) => ({ name, label }));
const { start, stop } = createRunControls({
  requestOrigins: (origins) => browser.permissions.request({ origins }),
  sendStart: (settings) => sendRequest({ type: 'matrix-start', settings }),
  sendCancel: (runId) => sendRequest({ type: 'matrix-cancel', runId }),
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <CapturePanel
      captureActivePage={captureActivePage}
      datasetUrl={browser.runtime.getURL('/dataset.html')}
      extraction={{ database, properties, start, stop }}
    />
  </StrictMode>,
);
