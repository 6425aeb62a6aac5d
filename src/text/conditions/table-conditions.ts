/**
 * `conditionsOfTableCell(header, rowLabel, caption)`: the conditions a table cell inherits from
 * its column header ("Eg (HSE06+G0W0) [eV]", "Eg (Exp)", "Gap (GGA+SOC)"), its row label
 * ("wz-AlN", "monolayer MoS2") and the table's caption ("… calculated with HSE06 …").
 */
import type { ConditionMention } from './condition-types';
import { conditionGroup, findConditionMentions } from './find-conditions';
import { methodsCompatible } from './find-methods';

/** Which piece of the table a condition was read from. */
export type TableConditionSource = 'header' | 'row' | 'caption';

/**
 * A condition of a table cell. `start`/`end` are UTF-16 offsets into the piece named by `from`
 * (the header, row label or caption string passed in, end exclusive), so a caller that knows
 * where that piece lies in the article adds its offset to map the span to article offsets.
 */
export interface TableCellCondition extends ConditionMention {
  from: TableConditionSource;
}

function tagged(text: string, from: TableConditionSource): TableCellCondition[] {
  return findConditionMentions(text).map((mention) => ({ ...mention, from }));
}

function competes(a: ConditionMention, b: ConditionMention): boolean {
  if (conditionGroup(a) !== conditionGroup(b)) return false;
  return a.kind === 'method' ? !methodsCompatible(a.value, b.value) : a.value !== b.value;
}

/**
 * The conditions of one table cell, header first, then row label, then caption:
 * - every condition of the column header and of the row label holds (a header and a row are
 *   about one column and one row, so nothing is to be paired; when they compete, e.g. a header
 *   "Eg (HSE06)" in a row "PBE", both are kept and the caller sees the contradiction);
 * - the caption's conditions hold only for the groups (see `conditionGroup`) the header and row
 *   do not already give, and only when the caption gives one condition of that group: a caption
 *   "Band gaps (eV) with PBE and HSE06" names the methods of several columns, not of this cell,
 *   so neither is taken; "calculated with HSE06" is taken unless the header says "Exp".
 * Never throws; empty strings give no conditions.
 */
export function conditionsOfTableCell(header: string, rowLabel: string, caption: string): TableCellCondition[] {
  const own = [...tagged(header, 'header'), ...tagged(rowLabel, 'row')];
  const fromCaption = tagged(caption, 'caption').filter(
    (mention) => !own.some((other) => conditionGroup(other) === conditionGroup(mention)),
  );
  const captionKept = fromCaption.filter((mention) => !fromCaption.some((other) => other !== mention && competes(other, mention)));
  return [...own, ...captionKept];
}
