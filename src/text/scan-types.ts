/**
 * The shapes the scan produces: the quantities and material mentions of src/text/quantities and
 * src/text/materials, and the candidates linking them to property mentions.
 */
import type { Condition, Provenance } from '../contracts/conditions';
import type { MaterialMention } from './materials';
import type { Quantity } from './quantities';
import type { PropertyMention } from './find-property-mentions';

/** A number with its unit; offsets relative to the text it was parsed from until re-based. */
export type ScanQuantity = Omit<Quantity, 'si'>;

/** A material mention; offsets relative to the text it was parsed from until re-based. */
export type ScanMaterialMention = MaterialMention;

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
 * What the number is in its sentence for the property (`valueRole`, `roleVerdict` of
 * src/text/conditions/value-role.ts), for a candidate the scan offers: the property's value
 * (`ok`), or an end of a "from A to B" change (`needs_review`). A number whose verdict is
 * `rejected` (a difference, ratio, part, model parameter, measurement condition or another
 * quantity of the same unit) is never a candidate. Table cells are always `value` / `ok`.
 */
export interface CandidateRole {
  role: 'value' | 'difference' | 'ratio' | 'fraction' | 'parameter' | 'condition' | 'other-quantity';
  verdict: 'ok' | 'needs_review';
  /** Why not the value, in words quoting the cue; absent for `value`. */
  reason?: string;
}

/**
 * A property mention linked to a quantity whose unit fits the property's dimension, with the
 * material it most likely belongs to (same sentence or row, else the previous sentence; see
 * `scanArticle`). All offsets are into `Article.text`.
 *
 * The value is read as the gate's fact check reads it (src/verify/fact-check.ts): its role, the
 * conditions that hold for it (each with its span in `Article.text`) and where it comes from.
 */
export interface Candidate {
  property: string;
  mention: PropertyMention;
  quantity: ScanQuantity;
  material: ScanMaterialMention | null;
  segment: ScanSegment;
  blockId: string;
  role: CandidateRole;
  /**
   * The conditions that hold for the value (`conditionsOfValue` in prose; `conditionsOfTableCell`
   * in a table: column header, row label, caption), `position` in `Article.text`.
   */
  conditions: Condition[];
  provenance: Provenance;
  /**
   * Why a reader should look before saving it, in words; empty when nothing is in doubt: the end
   * of a change, competing conditions the sentence does not pair with the value, a cited value,
   * a subject that is not a material (a model, band, structure type or figure).
   */
  doubts: string[];
}

export interface ScanResult {
  quantities: ScanQuantity[];
  materials: ScanMaterialMention[];
  candidates: Candidate[];
}
