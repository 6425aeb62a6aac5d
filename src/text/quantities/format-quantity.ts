/** Printing a quantity back as text (for round-trip tests and candidate display). */
import { formatNumber } from './number';
import type { Triplet } from '../../contracts/triplet';
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

/**
 * A triplet's value with its unit as a reader writes it: "1.12 eV", "1.2–1.5 eV" (en dash),
 * "~3.4 eV" (approximate), "1.5 ± 0.1 eV", "0.35" (dimensionless: unit ""). Numbers are
 * JavaScript's shortest round-trip form, so what the model stated is shown unrounded.
 */
export function describeValue(triplet: Pick<Triplet, 'value' | 'unit'>): string {
  const { value, unit } = triplet;
  const prefix = value.approximate ? '~' : '';
  const number =
    value.kind === 'range'
      ? `${value.low}–${value.high}`
      : `${value.value}${value.uncertainty !== undefined ? ` ± ${value.uncertainty}` : ''}`;
  return `${prefix}${number}${unit === '' ? '' : ` ${unit}`}`;
}

/**
 * The value as printed, without its unit: the triplet's `valueText` when known ("~1.45",
 * "1.2–1.5"), else the number written back from `value` ("3.4", "1.5 ± 0.1"). Shared by the
 * side panel's review and the dataset table's value column.
 */
export function printedValue(triplet: Pick<Triplet, 'value' | 'valueText'>): string {
  return triplet.valueText ?? describeValue({ value: triplet.value, unit: '' });
}
