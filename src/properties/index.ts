/** Property schemas: the lexicon and plausible ranges of the properties Assay extracts. */
export { PropertySchema, PropertyDimensionSchema, SymbolContextSchema } from '../contracts/property';
export type { PropertyDefinition, PropertyDimension, SymbolContext } from '../contracts/property';
export {
  loadPropertySchemas,
  parsePropertySchema,
  propertyCatalogue,
  selectPropertySchemas,
  PropertySchemaError,
} from './load-property-schemas';
// Property mentions are text reading (src/text, below this folder); re-exported for the callers that read schemas and mentions together.
export { findContextualMentions, findPropertyMentions, type PropertyMention } from '../text/find-property-mentions';
export { builtInQuestions, questionsFor } from './verification-questions';
export {
  builtInDisplayUnits,
  describeValueWithDisplay,
  displayTextBeside,
  displayUnitOf,
  displayUnitsOf,
  displayValueOf,
  toDisplayValue,
} from './display-unit';
export type { DisplayableTriplet, DisplayUnitSchema, DisplayValue } from './display-unit';
