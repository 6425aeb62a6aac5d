/**
 * Debian's Chromium with the built test extension loaded, driven by playwright-core.
 */
import { existsSync, mkdtempSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const chromiumPath = '/usr/bin/chromium';

export interface ExtensionBrowser {
  context: BrowserContext;
  extensionId: string;
  /** `chrome-extension://<id>/<path>` */
  extensionUrl(path: string): string;
  /**
   * Click the extension's toolbar button over `page`, as a person would: Chromium runs the
   * action (granting activeTab, firing `action.onClicked`) through the DevTools protocol's
   * `Extensions.triggerAction`.
   */
  clickToolbarButton(page: Page): Promise<void>;
  /** URLs of every target the browser has (tabs, pages, side panels, workers), from the DevTools protocol. */
  targetUrls(): Promise<string[]>;
  /** The profile directory (reuse it with `options.userDataDirectory` to reopen the same profile). */
  userDataDirectory: string;
  /** Close the browser; the profile is deleted unless it was passed in or `keepProfile` is set. */
  close(options?: { keepProfile?: boolean }): Promise<void>;
  /**
   * Kill the browser process at once (SIGKILL), as a crash or a power cut would: no unload, no
   * IndexedDB flush beyond what the browser already committed. The profile is kept.
   */
  crash(): Promise<void>;
}

/**
 * Launch headless Chromium (its new headless mode, which runs extensions) with only the
 * extension in `extensionDirectory`, a throwaway profile, and every request aborted unless it
 * goes to one of `allowedOrigins` or to an extension, so no stray request to a publisher can hang.
 * `extraArgs` are added to the command line (e.g. `--enable-unsafe-webgpu`).
 */
export async function launchExtensionBrowser(
  extensionDirectory: string,
  allowedOrigins: string[],
  extraArgs: string[] = [],
  options: { userDataDirectory?: string } = {},
): Promise<ExtensionBrowser> {
  if (!existsSync(join(extensionDirectory, 'manifest.json'))) {
    throw new Error(`No built extension at ${extensionDirectory}: run \`npm run build:test\` first.`);
  }
  const ownProfile = options.userDataDirectory === undefined;
  const userDataDirectory = options.userDataDirectory ?? mkdtempSync(join(tmpdir(), 'assay-e2e-'));
  const context = await chromium.launchPersistentContext(userDataDirectory, {
    executablePath: chromiumPath,
    headless: true,
    args: [
      `--disable-extensions-except=${extensionDirectory}`,
      `--load-extension=${extensionDirectory}`,
      '--no-sandbox',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
      // Lets the DevTools protocol's Extensions domain (used by clickToolbarButton) run.
      '--enable-unsafe-extension-debugging',
      ...extraArgs,
    ],
  });
  await context.route('**/*', (route) => {
    const url = route.request().url();
    const allowed = url.startsWith('chrome-extension://') || allowedOrigins.some((origin) => url.startsWith(`${origin}/`));
    return allowed ? route.continue() : route.abort('blockedbyclient');
  });
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker', { timeout: 30_000 }));
  const extensionId = new URL(worker.url()).host;
  const browser = context.browser();
  if (!browser) throw new Error('Playwright gave no browser for the persistent context');
  const browserSession = await browser.newBrowserCDPSession();
  return {
    context,
    extensionId,
    extensionUrl: (path) => `chrome-extension://${extensionId}/${path.replace(/^\//, '')}`,
    clickToolbarButton: async (page) => {
      // triggerAction wants the page's *tab* target, found here by URL.
      const { targetInfos } = await browserSession.send('Target.getTargets', { filter: [{ type: 'tab' }] });
      const tab = targetInfos.find((target) => target.url === page.url());
      if (!tab) throw new Error(`no tab target shows ${page.url()}`);
      await page.bringToFront();
      await browserSession.send('Extensions.triggerAction', { id: extensionId, targetId: tab.targetId });
    },
    targetUrls: async () => {
      // An empty filter entry means "every type", including the ones hidden by default.
      const { targetInfos } = await browserSession.send('Target.getTargets', { filter: [{}] });
      return targetInfos.map((target) => `${target.type} ${target.url}`);
    },
    userDataDirectory,
    close: async ({ keepProfile = false } = {}) => {
      await context.close();
      if (ownProfile && !keepProfile) rmSync(userDataDirectory, { recursive: true, force: true });
    },
    crash: async () => {
      // Chromium's profile lock is a symlink to "<hostname>-<pid>" of the browser process.
      const pid = Number(readlinkSync(join(userDataDirectory, 'SingletonLock')).split('-').pop());
      process.kill(pid, 'SIGKILL');
      await context.close().catch(() => undefined);
    },
  };
}
