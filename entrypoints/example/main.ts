import { browser } from 'wxt/browser';
import { answerExampleCapture } from '../../src/extension/example-article-capture';
import { installHighlighter } from '../../src/highlight/install-highlighter';
import './example.css';

// This page is the extension's own, which no script can be injected into: it captures and
// highlights itself when the background asks (src/extension/example-article.ts).
installHighlighter({ document, window }, browser.runtime.onMessage);
browser.runtime.onMessage.addListener((message: unknown, _sender: unknown, sendResponse: (response: unknown) => void) => {
  const answer = answerExampleCapture(message, document, window);
  if (answer === undefined) return false;
  sendResponse(answer);
  return false;
});
