import { describe, expect, it, vi } from 'vitest';
import { openWelcomeOnInstall, type WelcomeApi } from '../../../src/extension/welcome-on-install';

function fakeApi(create: WelcomeApi['tabs']['create'] = async () => undefined) {
  let listener: ((details: { reason: string }) => void) | undefined;
  const api = {
    runtime: {
      onInstalled: { addListener: (added: typeof listener) => void (listener = added) },
      getURL: (path: string) => `chrome-extension://assayid${path}`,
    },
    tabs: { create: vi.fn(create) },
  } satisfies WelcomeApi;
  openWelcomeOnInstall(api);
  return { api, fire: (reason: string) => listener?.({ reason }) };
}

describe('openWelcomeOnInstall', () => {
  it('opens the welcome page on install', () => {
    const { api, fire } = fakeApi();
    fire('install');
    expect(api.tabs.create).toHaveBeenCalledWith({ url: 'chrome-extension://assayid/welcome.html' });
  });

  it('stays shut on an update, a browser update or a shared-module update', () => {
    const { api, fire } = fakeApi();
    for (const reason of ['update', 'chrome_update', 'shared_module_update']) fire(reason);
    expect(api.tabs.create).not.toHaveBeenCalled();
  });

  it('a failure to open it is logged, not thrown', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { fire } = fakeApi(async () => {
      throw new Error('No current window');
    });
    fire('install');
    await vi.waitFor(() => expect(warn).toHaveBeenCalledWith('Assay: could not open the welcome page', expect.any(Error)));
    warn.mockRestore();
  });
});
