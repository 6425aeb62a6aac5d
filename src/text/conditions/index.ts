/**
 * The deterministic condition reader (issue 26): conditions written in a text, the conditions
 * that hold for one value of a sentence, and those a table cell inherits from its headers.
 */
export type { ConditionMention, ValueConditions } from './condition-types';
export { findConditionMentions, conditionGroup } from './find-conditions';
export { methodsCompatible } from './find-methods';
export { conditionsOfValue } from './conditions-of-value';
export { conditionsOfTableCell, type TableCellCondition, type TableConditionSource } from './table-conditions';
