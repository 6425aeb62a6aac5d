/** Property schemas: the lexicon and plausible ranges of the properties Assay extracts. */
export { PropertySchema, PropertyDimensionSchema, SymbolContextSchema } from './property-schema';
export type { PropertyDefinition, PropertyDimension, SymbolContext } from './property-schema';
export { loadPropertySchemas, parsePropertySchema, selectPropertySchemas, PropertySchemaError } from './load-property-schemas';
export { findPropertyMentions } from './find-property-mentions';
export type { PropertyMention } from './find-property-mentions';
