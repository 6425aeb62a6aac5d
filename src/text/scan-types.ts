/**
 * The shapes the scan consumes and produces: the quantities and material mentions of
 * src/text/quantities and src/text/materials, and the dependencies the scan calls.
 */
import type { AbbreviationDefinition, MaterialMention } from './materials';
import type { Quantity } from './quantities';
import type { PropertyMention } from '../properties';

/** A number with its unit; offsets relative to the text it was parsed from until re-based. */
export type ScanQuantity = Omit<Quantity, 'si'>;

/** A material mention; offsets relative to the text it was parsed from until re-based. */
export type ScanMaterialMention = MaterialMention;

/** What the scan calls; `scan-dependencies.ts` wires the real modules in. */
export interface ScanDependencies {
  parseQuantities(text: string): ScanQuantity[];
  /** Mentions in `text`; `definitions` are abbreviations defined anywhere in the article. */
  findMaterialMentions(text: string, options?: { definitions?: readonly AbbreviationDefinition[] }): ScanMaterialMention[];
  /** Abbreviations the article defines ("bismuth ferrite (BFO)"); optional so tests may omit it. */
  findAbbreviationDefinitions?(text: string): AbbreviationDefinition[];
  /** A cell that is exactly one number ("146(5)", "1.13"), or null (see src/text/quantities/number.ts). */
  parseNumber(text: string): { value: number; uncertainty?: number } | null;
  /** Canonical symbol of a unit as written ("eV", "meV", "g cm−3"), or null when unknown. */
  normalizeUnit(text: string): string | null;
  /** SI value and unit of `value` in `unit`, or null when the unit is unknown. */
  toSI(value: number, unit: string): { value: number; unit: string } | null;
}

/** The stretch of text a candidate was found in: a sentence of prose or a table row. */
export interface ScanSegment {
  kind: 'sentence' | 'table-row';
  /** Offsets into `Article.text`. For a table row whose unit is printed in the header, `start`
   * is the start of the header row, so the segment contains value and unit. */
  start: number;
  end: number;
  blockId: string;
}

/**
 * A property mention linked to a quantity whose unit fits the property's dimension, with the
 * material it most likely belongs to (same sentence or row, else the previous sentence; see
 * `scanArticle`). All offsets are into `Article.text`.
 */
export interface Candidate {
  property: string;
  mention: PropertyMention;
  quantity: ScanQuantity;
  material: ScanMaterialMention | null;
  segment: ScanSegment;
  blockId: string;
}

export interface ScanResult {
  quantities: ScanQuantity[];
  materials: ScanMaterialMention[];
  candidates: Candidate[];
}
