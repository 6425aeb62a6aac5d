// @vitest-environment jsdom
import { act, createElement } from 'react';
import { describe, expect, it, vi } from 'vitest';

// `wxt/browser` picks `globalThis.chrome` when it is imported; `useStoredValue` compares its area
// with `browser.storage.local`, so a minimal one is installed first (the tests pass their own area).
vi.hoisted(() => {
  (globalThis as { chrome?: unknown }).chrome = {
    runtime: { id: 'assay-test' },
    storage: {
      local: { get: async () => ({}), set: async () => undefined },
      onChanged: { addListener: () => undefined, removeListener: () => undefined },
    },
  };
});

import { PaperSitesSection, type PaperSitesServices } from '../../../../src/ui/settings/paper-sites-section';
import { reactRootPerTest } from '../react-root';

const view = reactRootPerTest();
const KEY = 'assay:paper-sites';
const PAGE = 'https://pubs.acs.org/doi/10.1021/acsphotonics.9b00250';

/** Services over a plain storage area; `granted` answers each permission request; `pageUrl` null: the page's URL is hidden. */
function services(stored: unknown, granted = true, pageUrl: string | null = PAGE) {
  const items: Record<string, unknown> = { [KEY]: stored };
  const fake = {
    items,
    area: {
      get: async (key: string) => ({ [key]: items[key] }),
      set: async (next: Record<string, unknown>) => void Object.assign(items, next),
    },
    requestOrigins: vi.fn(async () => granted),
    removeOrigins: vi.fn(async () => true),
    currentPageUrl: vi.fn(async () => pageUrl ?? undefined),
  } satisfies PaperSitesServices & { items: Record<string, unknown> };
  return fake;
}

async function render(fake: PaperSitesServices) {
  await act(async () => view.root.render(createElement(PaperSitesSection, { services: fake })));
  await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
}

const button = (name: string) =>
  [...view.container.querySelectorAll('button')].find((element) => (element.getAttribute('aria-label') ?? element.textContent) === name);
const message = () => view.container.querySelector('[data-testid="paper-sites-message"]')?.textContent;
const click = async (element: HTMLElement | undefined) => {
  expect(element).toBeDefined();
  await act(async () => element!.click());
  await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
};

describe('PaperSitesSection', () => {
  it("offers the current page's site, asks its permission in the click, and lists it", async () => {
    const fake = services([]);
    await render(fake);
    expect(view.container.querySelector('[data-testid="paper-sites-empty"]')?.textContent).toBe('No sites yet.');
    await click(button('Add this site (https://pubs.acs.org)'));
    expect(fake.requestOrigins).toHaveBeenCalledWith(['https://pubs.acs.org/*']);
    expect(fake.items[KEY]).toEqual(['https://pubs.acs.org']);
    expect(view.container.querySelector('[data-site="https://pubs.acs.org"]')).not.toBeNull();
    // Listed now: neither "Add this site" nor the one-click ACS choice is offered again.
    expect(button('Add this site (https://pubs.acs.org)')).toBeUndefined();
    expect(button('Add ACS Publications')).toBeUndefined();
    expect(message()).toContain('Added https://pubs.acs.org');
  });

  it('does not list a site whose permission the browser refused, and says so', async () => {
    const fake = services([], false);
    await render(fake);
    await click(button('Add Royal Society of Chemistry'));
    expect(fake.requestOrigins).toHaveBeenCalledWith(['https://pubs.rsc.org/*']);
    expect(fake.items[KEY]).toEqual([]);
    expect(message()).toBe('The browser did not allow Assay to read pages on https://pubs.rsc.org, so it was not added.');
  });

  it('adds a typed address as its site, and refuses one that is not a web address in words', async () => {
    const fake = services(['https://arxiv.org'], true, null);
    await render(fake);
    expect(button('Add this site (https://pubs.acs.org)')).toBeUndefined(); // the page's URL is hidden
    const input = view.container.querySelector<HTMLInputElement>('[data-testid="paper-sites-input"]')!;
    const type = async (text: string) => {
      await act(async () => {
        const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
        setter.call(input, text);
        input.dispatchEvent(new Event('input', { bubbles: true }));
      });
    };
    await type('ftp://example.org');
    await click(button('Add site'));
    expect(fake.requestOrigins).not.toHaveBeenCalled();
    expect(input.getAttribute('aria-invalid')).toBe('true');
    await type('iopscience.iop.org/article/10.1088/x');
    await click(button('Add site'));
    expect(fake.requestOrigins).toHaveBeenCalledWith(['https://iopscience.iop.org/*']);
    expect(fake.items[KEY]).toEqual(['https://arxiv.org', 'https://iopscience.iop.org']);
    expect(input.value).toBe('');
  });

  it('removes a site from the list and gives its permission back', async () => {
    const fake = services(['https://pubs.acs.org', 'https://arxiv.org']);
    await render(fake);
    await click(button('Remove https://pubs.acs.org'));
    expect(fake.items[KEY]).toEqual(['https://arxiv.org']);
    expect(fake.removeOrigins).toHaveBeenCalledWith(['https://pubs.acs.org/*']);
    expect(view.container.querySelector('[data-site="https://pubs.acs.org"]')).toBeNull();
  });

  it('leaves the permission of a site that is also the model server, and says why', async () => {
    const fake = { ...services(['http://127.0.0.1:11434', 'https://arxiv.org']), originsInUse: async () => ['http://127.0.0.1:11434/*'] };
    await render(fake);
    await click(button('Remove http://127.0.0.1:11434'));
    expect(fake.items[KEY]).toEqual(['https://arxiv.org']);
    expect(fake.removeOrigins).not.toHaveBeenCalled();
    expect(message()).toContain('Its access stays, since your model server is there.');
    await click(button('Remove https://arxiv.org'));
    expect(fake.removeOrigins).toHaveBeenCalledWith(['https://arxiv.org/*']);
  });

  it('still removes the site when the browser keeps the permission (one the extension must hold)', async () => {
    const fake = services(['https://pubs.acs.org']);
    fake.removeOrigins.mockRejectedValueOnce(new Error('You cannot remove required permissions.'));
    await render(fake);
    await click(button('Remove https://pubs.acs.org'));
    expect(fake.items[KEY]).toEqual([]);
    expect(message()).toContain('Removed https://pubs.acs.org');
  });
});
