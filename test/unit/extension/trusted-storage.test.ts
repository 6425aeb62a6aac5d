/** storage.local (which holds the reader's keys) closed to content scripts, by the background at every start. */
import { describe, expect, it, vi } from 'vitest';
import { restrictLocalStorageToTrustedContexts } from '../../../src/extension/trusted-storage';

/** The background's `browser`: records the calls the tests look at; everything else is a no-op. */
const fake = vi.hoisted(() => {
  const calls: string[] = [];
  const noop = () => undefined;
  const event = { addListener: (listener: unknown) => void listener };
  return {
    calls,
    browser: {
      storage: {
        local: {
          setAccessLevel: async (options: { accessLevel: string }) => {
            calls.push(`storage.local.setAccessLevel ${options.accessLevel}`);
          },
        },
        session: { get: async () => ({}), set: async () => undefined },
        onChanged: event,
      },
      runtime: {
        getURL: (path: string) => `chrome-extension://id${path}`,
        onMessage: { addListener: () => void calls.push('runtime.onMessage.addListener') },
        // The welcome page opens on install (welcome-on-install.ts).
        onInstalled: event,
      },
      action: { onClicked: event },
      sidePanel: { setPanelBehavior: async () => undefined, open: async () => undefined },
      contextMenus: { create: noop, removeAll: (done?: () => void) => done?.(), onClicked: event },
      // The publisher-site recognizer listens to tab loads and to withdrawn permissions (paper-recognizer-browser.ts).
      tabs: { query: async () => [], onUpdated: event, onRemoved: event },
      permissions: { onRemoved: event },
    },
  };
});

vi.mock('wxt/browser', () => ({ browser: fake.browser }));
vi.mock('../../../src/extension/precedent-menu', () => ({ registerPrecedentMenu: () => () => undefined }));
vi.mock('../../../src/store/assay-database', () => ({ createAssayDatabase: () => ({}) }));

describe('restrictLocalStorageToTrustedContexts', () => {
  it('asks for TRUSTED_CONTEXTS on storage.local', async () => {
    const setAccessLevel = vi.fn(async () => undefined);
    await restrictLocalStorageToTrustedContexts({ storage: { local: { setAccessLevel } } });
    expect(setAccessLevel).toHaveBeenCalledWith({ accessLevel: 'TRUSTED_CONTEXTS' });
  });

  it('warns, without rejecting, when the browser lacks the method or refuses', async () => {
    const warn = vi.fn();
    await restrictLocalStorageToTrustedContexts({ storage: { local: {} } }, warn);
    const refusing = { setAccessLevel: async () => Promise.reject(new Error('Access level not supported')) };
    await restrictLocalStorageToTrustedContexts({ storage: { local: refusing } }, warn);
    expect(warn.mock.calls.map(([message]) => message)).toEqual([
      expect.stringContaining('no storage.local.setAccessLevel'),
      expect.stringContaining('(Access level not supported); stored keys stay readable there'),
    ]);
  });
});

describe('the background', () => {
  it('closes storage.local to content scripts when it starts, before it answers any message', async () => {
    const { default: background } = await import('../../../entrypoints/background');
    background.main();
    await vi.waitFor(() => expect(fake.calls).toContain('storage.local.setAccessLevel TRUSTED_CONTEXTS'));
    expect(fake.calls.indexOf('storage.local.setAccessLevel TRUSTED_CONTEXTS')).toBeLessThan(
      fake.calls.indexOf('runtime.onMessage.addListener'),
    );
  });
});
