/**
 * A verdict's menu of actions (Headless UI `Menu`): Locate, Accept, Edit, Reject, Precedent,
 * Votes and checks — the same actions as the record's buttons and keys, in one place. Its button
 * is no Tab stop of its own (the verdict list is one tab stop): the `m` key on the record opens
 * it (`openRecordMenu`), a click does too; the arrow keys move in it, Enter chooses, Escape closes.
 */
import { Menu, MenuButton, MenuItem, MenuItems } from '@headlessui/react';

/** One action of the menu: its words and what it does; absent actions (no highlight, no precedent) are left out. */
export interface RecordMenuAction {
  label: string;
  run(): void;
}

/** The test id of record `index`'s menu button: "actions-3". */
export function recordMenuTestId(index: number): string {
  return `actions-${index}`;
}

/** The menu of record `index` (see the module comment); `material` names it for a screen reader. */
export function RecordMenu({ index, material, actions }: { index: number; material: string; actions: readonly RecordMenuAction[] }) {
  return (
    <Menu as="div" className="record-menu">
      <MenuButton type="button" tabIndex={-1} aria-label={`Actions for ${material}`} data-testid={recordMenuTestId(index)}>
        Actions ▾
      </MenuButton>
      <MenuItems className="record-menu-items" data-testid={`actions-menu-${index}`}>
        {actions.map((action) => (
          <MenuItem key={action.label}>
            <button type="button" className="record-menu-item" onClick={action.run}>
              {action.label}
            </button>
          </MenuItem>
        ))}
      </MenuItems>
    </Menu>
  );
}

/** Open record `index`'s menu from the keyboard: the button within `item` is focused and pressed. */
export function openRecordMenu(item: HTMLElement | null | undefined, index: number): void {
  const button = item?.querySelector<HTMLButtonElement>(`[data-testid="${recordMenuTestId(index)}"]`);
  if (!button) return;
  button.focus();
  button.click();
}
