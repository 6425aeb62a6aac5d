/**
 * The page side of the CLI's headless-Chromium visibility check: judge a laid-out page with the
 * extension's own live-page judge (`computedVisibility`) and mark each hidden element, so the
 * page can be serialized and captured in Node with `markedVisibility(attribute)`. Bundled for
 * the page by src/capture/node/chromium-visibility.ts; it runs in the page, never in Node.
 */
import { walkElements } from '../tree-walk';
import { computedVisibility } from './visibility';

/**
 * Set `attribute` (empty value) on every element of `document` that `computedVisibility(window)`
 * judges hidden; the subtree below a hidden element is not judged (it is hidden with it).
 * Returns how many elements were marked.
 */
export function markHidden(document: Document, window: Window, attribute: string): number {
  const judge = computedVisibility(window);
  let marked = 0;
  walkElements(document, (element) => {
    if (!judge(element)) return true;
    element.setAttribute(attribute, '');
    marked += 1;
    return false;
  });
  return marked;
}
