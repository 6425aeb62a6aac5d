/** Printing a quantity back as text (for round-trip tests and candidate display). */
import { formatNumber } from './number';
import type { Quantity } from './quantity';

/** "3.4 ± 0.1 eV", "~1.2–1.5 eV", "39 K", "0.15" from a quantity's value and canonical unit. */
export function formatQuantity(quantity: Pick<Quantity, 'value' | 'unit'>): string {
  const { value, unit } = quantity;
  const prefix = value.approximate ? '~' : '';
  const number =
    value.kind === 'range'
      ? `${formatNumber(value.low)}–${formatNumber(value.high)}`
      : formatNumber(value.value) + (value.uncertainty !== undefined ? ` ± ${formatNumber(value.uncertainty)}` : '');
  return prefix + number + (unit ? ` ${unit}` : '');
}
