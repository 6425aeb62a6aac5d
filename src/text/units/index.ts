/** Units: reading the spellings of papers (data table) and converting to SI (js-quantities). */
export { normalizeUnit, toSI, toSIWithDimension, convertUnit, type SiValue } from './convert';
export { matchUnitAt, parseUnit, formatFactors, type UnitFactor, type UnitMatch } from './match-unit';
