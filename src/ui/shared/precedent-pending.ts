/**
 * The side panel's end of the context menu's hand-off: the question the menu left in
 * `storage.session` (`pendingPrecedentSetting`, src/extension/stored-settings.ts; written by
 * src/extension/precedent-menu.ts) is read and cleared when the panel opens and whenever the key
 * changes.
 */
import { PENDING_PRECEDENT_KEY } from '../../extension/precedent-menu';
import { pendingPrecedentSetting, type PendingPrecedent } from '../../extension/stored-settings';

/** The subset of `browser.storage.session` used here, so a test can pass a fake. */
export interface PendingPrecedentArea {
  get(key: string): Promise<Record<string, unknown>>;
  remove(key: string): Promise<void>;
  onChanged: {
    addListener(listener: (changes: Record<string, { newValue?: unknown }>) => void): void;
    removeListener(listener: (changes: Record<string, { newValue?: unknown }>) => void): void;
  };
}

/**
 * Read and clear the waiting question. Resolves to it, or undefined when none is stored or the
 * stored value does not match `PendingPrecedentSchema` (it is cleared either way). Rejects with
 * the storage error.
 */
export async function takePendingPrecedent(area: PendingPrecedentArea): Promise<PendingPrecedent | undefined> {
  const stored = (await area.get(PENDING_PRECEDENT_KEY))[PENDING_PRECEDENT_KEY];
  if (stored === undefined) return undefined;
  await area.remove(PENDING_PRECEDENT_KEY);
  return pendingPrecedentSetting.read(stored) ?? undefined;
}

/**
 * Call `onPending` with the waiting question now (if any) and each time the menu stores a new one,
 * clearing it each time. Returns the function that stops listening. Storage errors are logged.
 */
export function watchPendingPrecedent(area: PendingPrecedentArea, onPending: (pending: PendingPrecedent) => void): () => void {
  let stopped = false;
  const take = () =>
    takePendingPrecedent(area).then(
      (pending) => {
        if (pending && !stopped) onPending(pending);
      },
      (error: unknown) => console.warn('Assay: could not read the precedent question', error),
    );
  const listener = (changes: Record<string, { newValue?: unknown }>) => {
    if (changes[PENDING_PRECEDENT_KEY]?.newValue !== undefined) void take();
  };
  area.onChanged.addListener(listener);
  void take();
  return () => {
    stopped = true;
    area.onChanged.removeListener(listener);
  };
}
