/**
 * Keeps `storage.local` away from content scripts. It holds the reader's keys (an
 * OpenAI-compatible server's API key in the engine settings, the OpenAlex key in the literature
 * settings) and, unlike `storage.session`, Chromium opens it to content scripts by default
 * ("`managed`, `local`, and `sync` storage allow access from both trusted and untrusted contexts",
 * chrome.storage `StorageArea.setAccessLevel`). A content script runs beside an untrusted page;
 * Assay's own (capture, highlight) never read storage, so nothing is lost by closing it.
 */

/** The slice of the extension API used here; `setAccessLevel` is absent in browsers without it (Firefox's `local`). */
export interface LocalStorageAccessApi {
  storage: { local: { setAccessLevel?(options: { accessLevel: 'TRUSTED_CONTEXTS' }): Promise<void> } };
}

/**
 * Limit `storage.local` to trusted contexts (the extension's pages and service worker):
 * `storage.local.setAccessLevel({ accessLevel: 'TRUSTED_CONTEXTS' })`. Chromium keeps the level in
 * the profile, but the background calls this on every start, so an update or a reset cannot leave
 * it open. Never rejects: a browser without the method, or one that refuses, is reported with
 * `warn` (the keys are then as exposed as before, which the warning says).
 */
export async function restrictLocalStorageToTrustedContexts(
  api: LocalStorageAccessApi,
  warn: (message: string) => void = (message) => console.warn(message),
): Promise<void> {
  const local = api.storage.local;
  if (typeof local.setAccessLevel !== 'function') {
    warn(
      'Assay: this browser cannot keep storage.local from content scripts (no storage.local.setAccessLevel); stored keys stay readable there.',
    );
    return;
  }
  try {
    await local.setAccessLevel({ accessLevel: 'TRUSTED_CONTEXTS' });
  } catch (error) {
    warn(
      `Assay: could not keep storage.local from content scripts (${error instanceof Error ? error.message : String(error)}); stored keys stay readable there.`,
    );
  }
}
