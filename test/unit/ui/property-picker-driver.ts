/** Drives the side panel's property picker (a Headless UI Combobox) in jsdom, as a reader's typing and clicks do. */
import { act } from 'react';

/** Type `query` into the picker's search input (React's onChange fires, the list opens). */
export async function searchProperties(container: HTMLElement, query: string): Promise<void> {
  const input = container.querySelector<HTMLInputElement>('[data-testid="property-search"]');
  if (!input) throw new Error('no property picker');
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
  await act(async () => {
    input.focus();
    setter.call(input, query);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

/** The labels of the options the picker lists now. */
export function optionLabels(container: HTMLElement): string[] {
  return [...container.querySelectorAll('[role="option"]')].map((option) => option.textContent?.replace('✓', '').trim() ?? '');
}

/** Search for `query` and click the option labelled `label` (adds it, or removes it when chosen). */
export async function pickProperty(container: HTMLElement, query: string, label: string): Promise<void> {
  await searchProperties(container, query);
  const option = [...container.querySelectorAll<HTMLElement>('[role="option"]')].find(
    (candidate) => candidate.textContent?.replace('✓', '').trim() === label,
  );
  if (!option) throw new Error(`no option "${label}" for "${query}" (options: ${optionLabels(container).join(', ')})`);
  // Headless UI selects on mousedown (so the input keeps focus), as a real click starts.
  await act(async () => {
    option.dispatchEvent(new MouseEvent('mousedown', { bubbles: true, cancelable: true, button: 0 }));
    option.dispatchEvent(new MouseEvent('mouseup', { bubbles: true, cancelable: true, button: 0 }));
    option.click();
  });
}

/** The chips' labels: the chosen properties in display order. */
export function chosenLabels(container: HTMLElement): string[] {
  return [...container.querySelectorAll('[data-testid="chosen-properties"] li > span')].map((chip) => chip.textContent ?? '');
}

/** Click the chip's Remove button of `label`. */
export async function removeProperty(container: HTMLElement, label: string): Promise<void> {
  const button = container.querySelector<HTMLButtonElement>(`button[aria-label="Remove ${label}"]`);
  if (!button) throw new Error(`no chip "${label}"`);
  await act(async () => button.click());
}
