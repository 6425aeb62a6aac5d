/**
 * The "Check precedent in Assay" context-menu item on selected text. A click hands the selection
 * to the side panel through `storage.session` (`pendingPrecedentSetting`) and opens the panel on
 * that tab; the panel reads and clears the key (src/ui/shared/precedent-pending.ts).
 *
 * `sidePanel.open` is allowed only while the click still counts as a user gesture, so it is
 * called synchronously in the listener, before anything is awaited.
 */
import { MAX_MATERIAL_LENGTH, pendingPrecedentSetting, type PendingPrecedent } from './stored-settings';

/** The menu item's id. */
export const PRECEDENT_MENU_ID = 'assay-check-precedent';
/** The `storage.session` key of the question waiting for the side panel (`pendingPrecedentSetting`). */
export const PENDING_PRECEDENT_KEY = pendingPrecedentSetting.key;

/** What a click reports (a subset of `contextMenus.OnClickData`). */
export interface PrecedentMenuClickInfo {
  menuItemId: string | number;
  selectionText?: string;
}

/** The clicked tab (a subset of `tabs.Tab`). */
export interface PrecedentMenuTab {
  id?: number;
  windowId?: number;
}

/** The subset of the extension API the menu uses. */
export interface PrecedentMenuApi {
  runtime: { onInstalled: { addListener(listener: () => void): void } };
  contextMenus: {
    removeAll(): Promise<void>;
    create(properties: { id: string; title: string; contexts: ['selection'] }): unknown;
    onClicked: { addListener(listener: (info: PrecedentMenuClickInfo, tab?: PrecedentMenuTab) => void): void };
  };
  storage: { session: { set(items: Record<string, unknown>): Promise<void> } };
  sidePanel: { open(options: { tabId: number } | { windowId: number }): Promise<void> };
}

/**
 * → the click handler: for a click on `PRECEDENT_MENU_ID` with a non-blank selection, stores
 * `{ material: selection trimmed and cut to 200 characters, property: 'tc', tabId, at: now() ISO }`
 * under `PENDING_PRECEDENT_KEY` in `storage.session`, and opens the side panel for the tab (its
 * window when the tab has no id). Both calls start synchronously (gesture rule above); the
 * returned promise resolves when both settle and never rejects (failures are logged). Other
 * menu items and blank selections are ignored.
 */
export function createPrecedentMenuClick(api: Pick<PrecedentMenuApi, 'storage' | 'sidePanel'>, now: () => Date = () => new Date()) {
  return (info: PrecedentMenuClickInfo, tab?: PrecedentMenuTab): Promise<void> => {
    if (info.menuItemId !== PRECEDENT_MENU_ID) return Promise.resolve();
    const material = (info.selectionText ?? '').trim().slice(0, MAX_MATERIAL_LENGTH).trim();
    if (material === '') return Promise.resolve();
    const pending: PendingPrecedent = {
      material,
      property: 'tc',
      ...(tab?.id !== undefined && { tabId: tab.id }),
      at: now().toISOString(),
    };
    const stored = api.storage.session.set({ [PENDING_PRECEDENT_KEY]: pending });
    const target = tab?.id !== undefined ? { tabId: tab.id } : tab?.windowId !== undefined ? { windowId: tab.windowId } : undefined;
    const opened = target ? api.sidePanel.open(target) : Promise.resolve();
    return Promise.allSettled([stored, opened]).then((results) => {
      for (const result of results) if (result.status === 'rejected') console.warn('Assay: precedent menu click', result.reason);
    });
  };
}

/**
 * Register the menu: on install (and update) remove Assay's items and create "Check precedent in
 * Assay" for selections — idempotent, since Chrome keeps items across service-worker restarts
 * and `create` fails on a duplicate id — and listen for clicks. Returns the click handler.
 */
export function registerPrecedentMenu(api: PrecedentMenuApi, now?: () => Date) {
  api.runtime.onInstalled.addListener(() => {
    void api.contextMenus
      .removeAll()
      .then(() => api.contextMenus.create({ id: PRECEDENT_MENU_ID, title: 'Check precedent in Assay', contexts: ['selection'] }))
      .catch((error: unknown) => console.warn('Assay: could not create the context menu', error));
  });
  const click = createPrecedentMenuClick(api, now);
  api.contextMenus.onClicked.addListener((info, tab) => void click(info, tab));
  return click;
}
