/**
 * The dataset table's column chooser: a "Columns" button opening a popover (Headless UI
 * `Popover`: Enter or Space opens it, Tab walks its checkboxes, Escape closes it and gives the
 * focus back to the button) with one checkbox per column. The last of the material, property
 * and value columns still shown cannot be unchecked (`canHideColumn`), and says why.
 * `useHiddenColumns` keeps the choice in `localStorage` (`readHiddenColumns`/`writeHiddenColumns`).
 */
import { Popover, PopoverButton, PopoverPanel } from '@headlessui/react';
import { useCallback, useId, useState } from 'react';
import { canHideColumn, readHiddenColumns, setColumnShown, TRIPLET_COLUMNS, writeHiddenColumns, type ColumnId } from './triplet-columns';

/** The page's `localStorage`, or undefined where there is none (or reading it throws). */
function pageStorage(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
}

/**
 * → `[hidden, setShown]`: the hidden columns (read once from `storage`, default the page's
 * `localStorage`) and a setter that applies `setColumnShown`'s rule and stores the result.
 */
export function useHiddenColumns(storage: Storage | undefined = pageStorage()) {
  const [hidden, setHidden] = useState(() => readHiddenColumns(storage));
  const setShown = useCallback(
    (id: ColumnId, shown: boolean) =>
      setHidden((previous) => {
        const next = setColumnShown(previous, id, shown);
        if (next !== previous) writeHiddenColumns(storage, next);
        return next;
      }),
    [storage],
  );
  return [hidden, setShown] as const;
}

export interface ColumnChooserProps {
  hidden: ReadonlySet<ColumnId>;
  onShownChange: (id: ColumnId, shown: boolean) => void;
}

/** The "Columns" button and its popover of checkboxes. */
export function ColumnChooser({ hidden, onShownChange }: ColumnChooserProps) {
  const id = useId();
  const shownCount = TRIPLET_COLUMNS.length - hidden.size;
  return (
    <Popover className="column-chooser">
      <PopoverButton className="column-chooser-button" data-testid="column-chooser">
        Columns ({shownCount} of {TRIPLET_COLUMNS.length})
      </PopoverButton>
      <PopoverPanel className="column-chooser-panel" data-testid="column-chooser-panel" focus>
        <fieldset>
          <legend>Show columns</legend>
          {TRIPLET_COLUMNS.map((column) => {
            const locked = !canHideColumn(hidden, column.id);
            return (
              <div className="column-chooser-option" key={column.id}>
                <input
                  id={`${id}-${column.id}`}
                  type="checkbox"
                  checked={!hidden.has(column.id)}
                  disabled={locked}
                  aria-describedby={locked ? `${id}-locked` : undefined}
                  onChange={(event) => onShownChange(column.id, event.target.checked)}
                />
                <label htmlFor={`${id}-${column.id}`}>{column.heading}</label>
              </div>
            );
          })}
          {TRIPLET_COLUMNS.some((column) => !canHideColumn(hidden, column.id)) && (
            <p id={`${id}-locked`} className="hint">
              One of material, property and value stays shown, so each row says which fact it is.
            </p>
          )}
        </fieldset>
      </PopoverPanel>
    </Popover>
  );
}
