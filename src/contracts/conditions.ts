/**
 * The conditions a reported value holds under, and where the value comes from (issue 26). A
 * band gap without its method, a Tc without its pressure is not a fact: the reliability-gap
 * paper's extraction schema (../shared/seeds/002_*.txt, appendix) makes them part of every
 * property — `conditions {temperature, pressure, field, frequency, orientation, environment,
 * sample_state, other_conditions}`, `method`, `model_or_fit`, `qualifier` — and its matching
 * rule says "Tc at 0 GPa ≠ Tc at 10 GPa unless pressure is tracked separately".
 *
 * Each condition is read from the evidence (never only asserted by a model) and carries the span
 * it was read from, so it is re-anchored like the quote. Rows stored before this change held one
 * free-text `conditions` string: it is read as a single condition of kind `other`
 * (`ConditionListSchema` accepts both shapes, so old exports and databases still load).
 */
import { z } from 'zod';
import { TextPositionSelectorSchema } from './evidence';
import { boundedList, boundedText, TEXT_LIMITS } from './text-limits';

/**
 * Kinds of condition, after the reliability-gap schema's fields:
 * - `method`: how the value was obtained — a DFT functional or beyond ("HSE06", "GGA/PBE", "GW",
 *   "LSDA+U+SO", "GGA+SOC", "without SOC"), an experimental technique ("UV–vis (Tauc)", "ARPES",
 *   "four-probe resistivity"); the schema's `method` and `model_or_fit`.
 * - `temperature`, `pressure`: a quantity at which the value holds ("at 300 K", "under 10 GPa").
 * - `field`: a magnetic or electric field ("at 0.04 eV/Å electric field", "in 9 T").
 * - `strain`: an applied strain ("under 2% tensile strain").
 * - `frequency`: a measurement frequency ("at 1 kHz").
 * - `direction`: a direction, orientation or k-point character ("indirect", "direct", "along c",
 *   "Γ–X"); the schema's `orientation`.
 * - `phase`: phase, polymorph, magnetic order or sample form ("monolayer", "bulk", "thin film",
 *   "wurtzite", "2H", "AFM phase"); the schema's `sample_state`.
 * - `composition`: a composition variable ("x = 0.3").
 * - `environment`: the surrounding medium or atmosphere ("in air", "in vacuum", "in water").
 * - `other`: anything else (and every condition stored before structured conditions existed).
 */
export const ConditionKindSchema = z.enum([
  'method',
  'temperature',
  'pressure',
  'field',
  'strain',
  'frequency',
  'direction',
  'phase',
  'composition',
  'environment',
  'other',
]);
export type ConditionKind = z.infer<typeof ConditionKindSchema>;
export const CONDITION_KINDS: readonly ConditionKind[] = ConditionKindSchema.options;

export const ConditionSchema = z.object({
  kind: ConditionKindSchema,
  /**
   * The condition normalized for comparison, merge keys and filters: a method's canonical name
   * ("HSE06", "GGA-PBE", "GW", "SOC", "no SOC"), a quantity as number and canonical unit
   * ("300 K", "10 GPa", "0.04 eV/Å"), "direct" / "indirect", a phase word in lower case
   * ("monolayer", "wurtzite"), "x = 0.3". For `other`, the text as written.
   */
  value: boundedText(TEXT_LIMITS.conditionValue).min(1),
  /** The words it was read from, as written in the evidence ("at the HSE06 level", "at 2 K"). */
  text: boundedText(TEXT_LIMITS.conditionValue).optional(),
  /** Where `text` lies in `Article.text` (UTF-16 offsets, end exclusive); absent for a legacy free-text condition. */
  position: TextPositionSelectorSchema.optional(),
});
export type Condition = z.infer<typeof ConditionSchema>;

/** A legacy free-text `conditions` string as one condition of kind `other`; '' and blanks → none. */
function fromLegacyText(input: unknown): unknown {
  if (typeof input !== 'string') return input;
  const text = input.trim();
  return text === '' ? [] : [{ kind: 'other', value: text.slice(0, TEXT_LIMITS.conditionValue.max), text }];
}

/**
 * The conditions of one fact: structured conditions, or (read from data stored before issue 26)
 * a free-text string, which becomes one `other` condition. At most `TEXT_LIMITS.conditionList`
 * entries.
 */
export const ConditionListSchema = z.preprocess(fromLegacyText, boundedList(ConditionSchema, TEXT_LIMITS.conditionList));
export type ConditionList = z.infer<typeof ConditionListSchema>;

/**
 * Where the value comes from (the reliability-gap schema's "measured or computed", plus values
 * the paper only cites):
 * - `measured`: an experiment reported in this paper;
 * - `computed`: a calculation reported in this paper;
 * - `cited`: a value the paper quotes from elsewhere, with its reference marker ("[19]", "ref. 12");
 * - `unknown`: the evidence does not say.
 */
export const ProvenanceKindSchema = z.enum(['measured', 'computed', 'cited', 'unknown']);
export type ProvenanceKind = z.infer<typeof ProvenanceKindSchema>;

export const ProvenanceSchema = z.object({
  kind: ProvenanceKindSchema,
  /** For `cited`: the reference marker as written ("[19]", "ref. 12", "(Smith et al., 2010)"). */
  reference: boundedText(TEXT_LIMITS.conditionValue).optional(),
  /** The words that say so ("we measured", "[19]", "our calculations"). */
  text: boundedText(TEXT_LIMITS.conditionValue).optional(),
  position: TextPositionSelectorSchema.optional(),
});
export type Provenance = z.infer<typeof ProvenanceSchema>;

/**
 * The normalized conditions of a fact as one stable string, for merge keys and strict scoring:
 * `kind=value` pairs, lower-cased, sorted and de-duplicated, joined by ";" ("method=hse06;direction=indirect"
 * sorts to "direction=indirect;method=hse06"). Kinds and values only: the same conditions read
 * from two quotes give the same key. '' for none.
 */
export function conditionsKey(conditions: readonly Condition[] | undefined): string {
  if (!conditions || conditions.length === 0) return '';
  const pairs = new Set(conditions.map((condition) => `${condition.kind}=${condition.value.trim().toLowerCase().replace(/\s+/g, ' ')}`));
  return [...pairs].sort().join(';');
}

/**
 * Conditions in words for a reader, in a fixed order of kinds (method first, then quantities,
 * then direction and phase): "HSE06 · indirect · 300 K". '' for none.
 */
export function formatConditions(conditions: readonly Condition[] | undefined): string {
  if (!conditions || conditions.length === 0) return '';
  const order = (kind: ConditionKind) => CONDITION_KINDS.indexOf(kind);
  return [...conditions]
    .sort((a, b) => order(a.kind) - order(b.kind))
    .map((condition) => condition.value)
    .filter((value, index, all) => all.indexOf(value) === index)
    .join(' · ');
}

/** "computed", "measured", "cited [19]"; '' for `unknown` or none. */
export function formatProvenance(provenance: Provenance | undefined): string {
  if (!provenance || provenance.kind === 'unknown') return '';
  return provenance.kind === 'cited' && provenance.reference ? `cited ${provenance.reference}` : provenance.kind;
}
