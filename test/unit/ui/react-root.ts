/** A React root in a fresh jsdom container for each test, unmounted and removed after it (component tests). */
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach } from 'vitest';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** Register the before/after hooks; → the current test's `container` and `root` (read them inside tests). */
export function reactRootPerTest(): { readonly container: HTMLElement; readonly root: Root } {
  const view = {} as { container: HTMLElement; root: Root };
  beforeEach(() => {
    view.container = document.createElement('div');
    document.body.append(view.container);
    view.root = createRoot(view.container);
  });
  afterEach(() => {
    act(() => view.root.unmount());
    view.container.remove();
  });
  return view;
}
