/** Quantities: values with units and offsets, read from running text. */
export { parseQuantities } from './parse-quantities';
export { formatQuantity } from './format-quantity';
export { parseTableQuantities, tableRowQuantities, headerUnit } from './table-quantities';
export { parseNumber, formatNumber, type ParsedNumber } from './number';
export type { Quantity } from './quantity';
