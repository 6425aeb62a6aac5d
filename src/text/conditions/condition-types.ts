/**
 * Shapes shared by the deterministic condition reader (`find-conditions.ts`,
 * `conditions-of-value.ts`) and the value-role and provenance checks (`value-role.ts`,
 * `provenance.ts`). All offsets are UTF-16 offsets into the text passed in, end exclusive.
 */
import type { ConditionKind, ProvenanceKind } from '../../contracts/conditions';
import type { TextSpan } from '../../contracts/text-span';

/** One condition written in a text: what kind, its normalized value, and where. */
export interface ConditionMention extends TextSpan {
  kind: ConditionKind;
  /** Normalized (see `ConditionSchema.value`): "HSE06", "GGA-PBE", "300 K", "indirect", "monolayer". */
  value: string;
  /** The words as written (`text.slice(start, end)`). */
  text: string;
}

/** The conditions that hold for one value of a sentence, and why some could not be assigned. */
export interface ValueConditions {
  conditions: ConditionMention[];
  /**
   * Reasons in words when the sentence states competing conditions of one kind that cannot be
   * paired with this value ("the sentence gives two methods (GGA/PBE, HSE06) and does not say
   * which one 1.86 eV belongs to"). Empty when every condition found was assigned or dropped.
   */
  ambiguous: string[];
}

/**
 * What a number is in its sentence, for a property:
 * - `value`: the property's value;
 * - `difference`: a change or difference ("by 0.3 eV", "increases from A to B", "narrower than X by", "shift of");
 * - `ratio`: a ratio or percentage of the property;
 * - `fraction`: a part of the value (Eg/2, "half the gap");
 * - `parameter`: a model or fit parameter that shares the unit (Hubbard U, J, hopping t, cutoff energy, smearing);
 * - `condition`: a measurement condition (the temperature "at 2 K" of a Tc paper, a photon energy of excitation);
 * - `other-quantity`: another quantity of the same dimension (spin splitting, exciton binding
 *   energy, photon energy, peak position, activation energy, a susceptibility maximum).
 */
export type ValueRoleKind = 'value' | 'difference' | 'ratio' | 'fraction' | 'parameter' | 'condition' | 'other-quantity';

export interface ValueRole {
  role: ValueRoleKind;
  /** For every role but `value`: why, in words, quoting the words that decided it ("'by 0.3 eV' after 'narrower than'"). */
  reason?: string;
  /** The words that decided it. */
  cue?: TextSpan;
}

/** Where a value comes from, read from its sentence. */
export interface ValueProvenance {
  kind: ProvenanceKind;
  /** For `cited`: the reference marker as written ("[19]", "ref. 12", "27,28"). */
  reference?: string;
  /** The words that decided it, and where. */
  cue?: TextSpan & { text: string };
}
