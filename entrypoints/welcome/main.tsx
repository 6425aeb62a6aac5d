import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { browser } from 'wxt/browser';
import { sendRequest } from '../../src/extension/send-request';
import { EXAMPLE_ARTICLE_PATH } from '../../src/extension/example-article';
import { useEngineSettings } from '../../src/ui/settings/use-engine-settings';
import { WelcomePage, type WelcomeServices } from '../../src/ui/welcome/welcome-page';
import '../../src/ui/shared/styles.css';
import '../../src/ui/welcome/welcome.css';

const services: WelcomeServices = {
  checkWebGpu: () => sendRequest({ type: 'webgpu-check' }),
  cacheStatus: (modelIds) => sendRequest({ type: 'model-cache-status', modelIds }),
  exampleUrl: browser.runtime.getURL(EXAMPLE_ARTICLE_PATH),
  datasetUrl: browser.runtime.getURL('/dataset.html'),
};

function Welcome() {
  const { engine, setEngine } = useEngineSettings();
  return <WelcomePage services={services} engine={engine} onEngineChange={setEngine} />;
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Welcome />
  </StrictMode>,
);
