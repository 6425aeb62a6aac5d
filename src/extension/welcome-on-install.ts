/**
 * The welcome page opens once, when Assay is installed: not on updates, browser updates or
 * reloads (those would reopen it on every browser upgrade).
 */

/** The path of the welcome page in the built extension (entrypoints/welcome/). */
export const WELCOME_PAGE_PATH = '/welcome.html';

/** The slice of the extension API this uses. */
export interface WelcomeApi {
  runtime: {
    onInstalled: { addListener(listener: (details: { reason: string }) => void): void };
    getURL(path: typeof WELCOME_PAGE_PATH): string;
  };
  tabs: { create(properties: { url: string }): Promise<unknown> };
}

/**
 * Open the welcome page in a new tab when `runtime.onInstalled` reports `reason: "install"`.
 * A failure to open it (no window) is logged, never thrown: the extension works without it.
 */
export function openWelcomeOnInstall(api: WelcomeApi): void {
  api.runtime.onInstalled.addListener((details) => {
    if (details.reason !== 'install') return;
    void api.tabs
      .create({ url: api.runtime.getURL(WELCOME_PAGE_PATH) })
      .catch((error: unknown) => console.warn('Assay: could not open the welcome page', error));
  });
}
