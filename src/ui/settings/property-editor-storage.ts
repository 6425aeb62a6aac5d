/**
 * The reader's own property schemas, kept in `browser.storage.local` (`userPropertiesSetting`,
 * src/extension/stored-settings.ts) so they survive the side panel closing. Read values are
 * validated (`readUserProperties`): a bad stored entry is dropped instead of breaking the panel.
 */
import { useCallback, useMemo } from 'react';
import { browser } from 'wxt/browser';
import type { PropertyDefinition } from '../../contracts/property';
import type { UserProperties } from './property-editor';
import { MAX_USER_PROPERTIES, userPropertiesSetting, type StoredValueArea } from '../../extension/stored-settings';
import { useStoredValue } from '../shared/use-stored-value';

/** The subset of a `storage.StorageArea` this hook uses, so a test or another area can stand in. */
export type UserPropertiesArea = StoredValueArea;

/**
 * → `UserProperties`: the stored list ([] until read), `add` (appends; rejects with an `Error`
 * in words past `MAX_USER_PROPERTIES` or when the name is taken, or when the write fails) and
 * `remove` (by name). Writes read the stored list first, so two panels do not undo each other's
 * additions. A write of another panel is picked up when `area` is `browser.storage.local`.
 */
export function useUserProperties(area: UserPropertiesArea = browser.storage.local): UserProperties {
  // The list is [] (`userPropertiesSetting.fallback`, one constant) until read.
  const { value: list, update: write } = useStoredValue<PropertyDefinition[]>(area, userPropertiesSetting);

  const add = useCallback(
    (property: PropertyDefinition) =>
      write((stored) => {
        if (stored.some((known) => known.name === property.name))
          throw new Error(`A property named "${property.name}" already exists; choose another name.`);
        if (stored.length >= MAX_USER_PROPERTIES)
          throw new Error(`You can keep at most ${MAX_USER_PROPERTIES} properties of your own; remove one first.`);
        return [...stored, property];
      }),
    [write],
  );
  const remove = useCallback((name: string) => write((stored) => stored.filter((property) => property.name !== name)), [write]);

  return useMemo(() => ({ list, add, remove }), [list, add, remove]);
}
