/** Materials: formula parsing and normalization, equality for scoring, mentions in text. */
export { compositionsAlmostEqual, formatComposition, hillOrder, type Composition, type LinearAmount } from './composition';
export { ELEMENT_NAMES, ELEMENT_SYMBOLS, isElementSymbol } from './elements';
export { normalizeFormula, parseFormula, parseMaterial, type ParsedMaterial } from './parse-material';
export { sameMaterial, sameMaterialStrict, STRICT_TOLERANCE, type DefinedAlias, type MaterialTolerance } from './same-material';
export { findMaterialMentions, type MaterialMention } from './material-mentions';
export { isPlausibleFormulaMention } from './formula-plausibility';
export { findAbbreviationDefinitions, type AbbreviationDefinition } from './abbreviations';
export { canonicalMaterialName, lookupMaterialName, NAMED_MATERIALS, type NamedMaterial } from './material-names';
