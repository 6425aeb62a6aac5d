import { browser } from 'wxt/browser';
import { defineContentScript } from 'wxt/utils/define-content-script';
import { installHighlighter } from '../src/highlight/install-highlighter';

/**
 * Injected by the background (`scripting.executeScript`, src/extension/highlight-tab.ts) when the
 * side panel shows a paper's facts in its tab; never declared in the manifest (no `matches`: for
 * runtime scripts WXT would turn them into host permissions). Re-injection reuses the page's one
 * highlighter (see `installHighlighter`), which answers `{ target: 'assay-highlighter' }` messages.
 */
export default defineContentScript({
  registration: 'runtime',
  noScriptStartedPostMessage: true,
  main() {
    installHighlighter({ document, window }, browser.runtime.onMessage);
  },
});
