import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { browser } from 'wxt/browser';
import { requestCapture } from '../../src/extension/request-capture';
import { CapturePanel } from '../../src/ui/capture-panel';
import '../../src/ui/styles.css';

// The tab is chosen when the button is clicked; `?tabId=N` is explained in target-tab.ts.
const captureActivePage = () => requestCapture(location.search);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <CapturePanel captureActivePage={captureActivePage} datasetUrl={browser.runtime.getURL('/dataset.html')} />
  </StrictMode>,
);
