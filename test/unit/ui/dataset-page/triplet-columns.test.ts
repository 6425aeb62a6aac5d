import { describe, expect, it } from 'vitest';
import {
  canHideColumn,
  DEFAULT_HIDDEN_COLUMNS,
  HIDDEN_COLUMNS_KEY,
  readHiddenColumns,
  setColumnShown,
  visibleColumns,
  writeHiddenColumns,
  type ColumnId,
} from '../../../../src/ui/dataset-page/triplet-columns';

/** A `localStorage` stand-in over a Map. */
function memoryStorage(initial: Record<string, string> = {}) {
  const values = new Map(Object.entries(initial));
  return {
    values,
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => void values.set(key, value),
  };
}

describe('the columns’ priority', () => {
  it('puts what says which fact a row is, then its status, decision and quote, before the details', () => {
    expect(
      visibleColumns(DEFAULT_HIDDEN_COLUMNS)
        .map((column) => column.id)
        .slice(0, 7),
    ).toEqual(['material', 'property', 'value', 'unit', 'status', 'decision', 'quote']);
  });
});

describe('the column chooser’s model', () => {
  it('hides and shows a column, and returns the same set when nothing changes', () => {
    const none: ReadonlySet<ColumnId> = new Set();
    const hidden = setColumnShown(none, 'doi', false);
    expect([...hidden]).toEqual(['doi']);
    expect(visibleColumns(hidden).map((column) => column.id)).not.toContain('doi');
    expect(setColumnShown(hidden, 'doi', false)).toBe(hidden);
    expect([...setColumnShown(hidden, 'doi', true)]).toEqual([]);
  });

  it('keeps one of material, property and value shown', () => {
    let hidden: ReadonlySet<ColumnId> = new Set();
    hidden = setColumnShown(hidden, 'material', false);
    hidden = setColumnShown(hidden, 'property', false);
    expect(canHideColumn(hidden, 'value')).toBe(false);
    expect(setColumnShown(hidden, 'value', false)).toBe(hidden);
    expect(hidden.has('value')).toBe(false);
    // Other columns can still go, and once another identifying column is back, value may go.
    expect(canHideColumn(hidden, 'quote')).toBe(true);
    hidden = setColumnShown(hidden, 'property', true);
    expect(canHideColumn(hidden, 'value')).toBe(true);
    expect(setColumnShown(hidden, 'value', false).has('value')).toBe(true);
  });

  it('keeps the choice in storage and reads it back, dropping unknown ids', () => {
    const storage = memoryStorage();
    expect(readHiddenColumns(storage)).toBe(DEFAULT_HIDDEN_COLUMNS);
    writeHiddenColumns(storage, new Set<ColumnId>(['doi', 'quote']));
    // In display order: Quote comes right after Status and Decision, DOI among the details.
    expect(JSON.parse(storage.values.get(HIDDEN_COLUMNS_KEY)!)).toEqual(['quote', 'doi']);
    expect([...readHiddenColumns(storage)].sort()).toEqual(['doi', 'quote']);
    storage.setItem(HIDDEN_COLUMNS_KEY, JSON.stringify(['quote', 'no-such-column']));
    expect([...readHiddenColumns(storage)]).toEqual(['quote']);
  });

  it('falls back to the default for a stored value that is not a list, not JSON, or hides every identifying column', () => {
    for (const stored of ['{"a":1}', 'not json', JSON.stringify(['material', 'property', 'value'])]) {
      expect(readHiddenColumns(memoryStorage({ [HIDDEN_COLUMNS_KEY]: stored }))).toBe(DEFAULT_HIDDEN_COLUMNS);
    }
    const throwing = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    expect(readHiddenColumns(throwing)).toBe(DEFAULT_HIDDEN_COLUMNS);
    expect(() => writeHiddenColumns(throwing, new Set())).not.toThrow();
  });
});
