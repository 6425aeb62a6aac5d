/**
 * The reader's own property schemas, kept in `browser.storage.local` under
 * `USER_PROPERTIES_KEY` so they survive the side panel closing. Read values are validated
 * (`readUserProperties`): a bad stored entry is dropped instead of breaking the panel.
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import { browser } from 'wxt/browser';
import type { PropertyDefinition } from '../properties/property-schema';
import type { UserProperties } from './property-editor';
import { MAX_USER_PROPERTIES, readUserProperties, USER_PROPERTIES_KEY } from './property-editor-model';

/** The subset of a `storage.StorageArea` this hook uses, so a test or another area can stand in. */
export interface UserPropertiesArea {
  get(key: string): Promise<Record<string, unknown>>;
  set(items: Record<string, unknown>): Promise<void>;
}

/**
 * → `UserProperties`: the stored list ([] until read), `add` (appends; rejects with an `Error`
 * in words past `MAX_USER_PROPERTIES` or when the name is taken, or when the write fails) and
 * `remove` (by name). Writes read the stored list first, so two panels do not undo each other's
 * additions. A write of another panel is picked up when `area` is `browser.storage.local`.
 */
export function useUserProperties(area: UserPropertiesArea = browser.storage.local): UserProperties {
  const [list, setList] = useState<PropertyDefinition[]>([]);

  useEffect(() => {
    let current = true;
    void area.get(USER_PROPERTIES_KEY).then(
      (items) => current && setList(readUserProperties(items[USER_PROPERTIES_KEY])),
      () => undefined, // unreadable storage: no user properties
    );
    return () => {
      current = false;
    };
  }, [area]);

  useEffect(() => {
    if (area !== browser.storage.local) return;
    const listener = (changes: Record<string, { newValue?: unknown }>, areaName: string) => {
      const change = changes[USER_PROPERTIES_KEY];
      if (areaName === 'local' && change) setList(readUserProperties(change.newValue));
    };
    browser.storage.onChanged.addListener(listener);
    return () => browser.storage.onChanged.removeListener(listener);
  }, [area]);

  const write = useCallback(
    async (change: (stored: PropertyDefinition[]) => PropertyDefinition[]) => {
      const stored = readUserProperties((await area.get(USER_PROPERTIES_KEY))[USER_PROPERTIES_KEY]);
      const next = change(stored);
      await area.set({ [USER_PROPERTIES_KEY]: next });
      setList(next);
    },
    [area],
  );

  const add = useCallback(
    (property: PropertyDefinition) =>
      write((stored) => {
        if (stored.some((known) => known.name === property.name)) throw new Error(`A property named "${property.name}" already exists; choose another name.`);
        if (stored.length >= MAX_USER_PROPERTIES) throw new Error(`You can keep at most ${MAX_USER_PROPERTIES} properties of your own; remove one first.`);
        return [...stored, property];
      }),
    [write],
  );
  const remove = useCallback((name: string) => write((stored) => stored.filter((property) => property.name !== name)), [write]);

  return useMemo(() => ({ list, add, remove }), [list, add, remove]);
}
