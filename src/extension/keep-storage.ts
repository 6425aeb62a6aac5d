/**
 * Persistent storage (issue 29, item 8). The models (several GB in Cache Storage) and the dataset
 * (IndexedDB) live in the extension's origin, which the browser may clear when the disk runs low
 * unless the origin's storage is persistent. Assay asks for it when it is about to put something
 * there worth keeping: when a model download starts and when the dataset gets rows (a save or an
 * import), and when the reader presses "Keep my data" in Settings. Chromium answers without a
 * prompt, from how much the extension is used, so asking again later may be granted.
 *
 * `navigator.storage.persist()` belongs to a document (an extension page), not the service worker:
 * the callers are the side panel and the dataset page. The last answer is kept
 * (`storagePersistenceSetting`) so Settings can say when Assay asked and what the browser said.
 */
import { browser } from 'wxt/browser';
import { storagePersistenceSetting, writeStoredSetting, type PersistenceOccasion, type StoredValueArea } from './stored-settings';

/** The part of `navigator.storage` (StorageManager) a request for persistence uses. */
export interface PersistentStorageManager {
  persist(): Promise<boolean>;
  persisted(): Promise<boolean>;
}

/**
 * How a request ended: `already` (the storage was persistent; nothing asked), `granted`,
 * `refused`, or `unavailable` (no StorageManager in this context, or it failed).
 */
export type KeepStorageAnswer = 'already' | 'granted' | 'refused' | 'unavailable';

/**
 * Ask `manager` to make the origin's storage persistent, unless it already is, and keep the
 * answer (occasion, ISO time from `now`, granted) in `area` (default: browser.storage.local).
 * Never rejects: a failing manager answers `unavailable`, a failing write is ignored (the
 * browser's answer still stands).
 */
export async function askToKeepStorage(
  manager: PersistentStorageManager | undefined,
  occasion: PersistenceOccasion,
  { area, now = () => new Date() }: { area?: StoredValueArea; now?: () => Date } = {},
): Promise<KeepStorageAnswer> {
  if (!manager) return 'unavailable';
  let granted: boolean;
  try {
    if (await manager.persisted()) return 'already';
    granted = await manager.persist();
  } catch {
    return 'unavailable';
  }
  try {
    await writeStoredSetting(storagePersistenceSetting, { occasion, askedAt: now().toISOString(), granted }, area);
  } catch {
    // The answer is what matters; Settings then says only whether storage is persistent.
  }
  return granted ? 'granted' : 'refused';
}

/**
 * `askToKeepStorage` with this document's `navigator.storage` (absent in a worker or an old
 * browser), for the pages' own triggers; fire and forget.
 */
export function keepStorageFromPage(occasion: PersistenceOccasion): void {
  const manager = typeof navigator === 'undefined' ? undefined : (navigator.storage as PersistentStorageManager | undefined);
  // Outside an extension page (a page's unit test) there is no browser.storage to keep the answer in.
  const inExtension = (browser as typeof browser | undefined)?.runtime?.id !== undefined;
  void askToKeepStorage(manager, occasion, inExtension ? {} : { area: NOWHERE });
}

/** An area that keeps nothing. */
const NOWHERE: StoredValueArea = { get: async () => ({}), set: async () => undefined };
