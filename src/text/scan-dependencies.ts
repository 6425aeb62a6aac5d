/**
 * The real parsers the scan and the rules extractor use by default, wired in one place so
 * tests can inject others.
 */
import { describeQuote } from './anchoring';
import { findAbbreviationDefinitions, findMaterialMentions } from './materials';
import { parseNumber, parseQuantities } from './quantities';
import { normalizeUnit, toSI } from './units';
import type { ScanDependencies } from './scan-types';

export const defaultScanDependencies: ScanDependencies = {
  parseQuantities,
  parseNumber,
  findMaterialMentions,
  findAbbreviationDefinitions,
  normalizeUnit,
  toSI,
};

/** The scan's dependencies plus `describeQuote` for evidence (see src/extract/rules). */
export const defaultRulesDependencies = { ...defaultScanDependencies, describeQuote };
