import { defineContentScript } from 'wxt/utils/define-content-script';
import { capturePage } from '../src/extension/capture-page';

/**
 * Injected only when the user asks for a capture (`scripting.executeScript` from the
 * background), never declared in the manifest. No `matches`: for runtime scripts WXT would
 * turn them into host permissions. `main`'s return value is the `executeScript` result.
 */
export default defineContentScript({
  registration: 'runtime',
  noScriptStartedPostMessage: true,
  main() {
    return capturePage(document, location.href, window);
  },
});
