/**
 * The conditions and provenance a model is asked to state for each triplet (issue 26), shared by
 * the MoA and generator–discriminator reply schemas. They are the model's claims, unanchored:
 * the gate re-anchors each condition's `text` in the evidence and drops, with a reason, those
 * that do not (src/verify/fact-check.ts); nothing here trusts them.
 */
import { z } from 'zod';
import { ConditionKindSchema, ProvenanceKindSchema, type Condition, type Provenance } from '../contracts/conditions';
import { TEXT_LIMITS } from '../contracts/text-limits';
import { limited, REPLY_LIMITS } from './reply-limits';

/** One condition as a model writes it: its kind, its value ("HSE06", "300 K") and the words copied from the passage. */
export const ModelConditionSchema = z.object({
  kind: ConditionKindSchema,
  value: limited(z.string(), REPLY_LIMITS.conditionValue),
  text: limited(z.string(), REPLY_LIMITS.conditionText),
});
export type ModelCondition = z.infer<typeof ModelConditionSchema>;

/** A triplet's `conditions` in a reply: optional (a model that states none still gives a valid reply). */
export const ModelConditionsSchema = limited(z.array(ModelConditionSchema), REPLY_LIMITS.conditionsPerTriplet).optional();

/** A triplet's `provenance` in a reply: measured or computed in this paper, cited from elsewhere, or unknown. */
export const ModelProvenanceSchema = ProvenanceKindSchema.optional();

/**
 * The prompt's instruction, one line shared by every path: what the two fields hold and that
 * what the passage does not say is left out (a guessed condition would be dropped by the gate
 * anyway, but costs tokens and a reason).
 */
export const CONDITIONS_RULE =
  `"conditions": [{"kind": ${ConditionKindSchema.options.join('|')}, "value": short form ("HSE06", "300 K", "indirect"), "text"}]: ` +
  'in "text" copy the words that state the method, temperature, pressure, field, direction or phase of that value from the passage; omit what the passage does not say. ' +
  '"provenance": measured|computed (in this paper)|cited (from another work)|unknown.';

/**
 * A reply's conditions as contract `Condition`s: trimmed, blank ones dropped, the copied words
 * kept as `text` (no `position`: the gate anchors them), cut to the contract's limits (the reply
 * caps are advice a server may ignore). Empty for none.
 */
export function toConditions(conditions: readonly ModelCondition[] | undefined): Condition[] {
  const read: Condition[] = [];
  const cut = (text: string) => text.trim().slice(0, TEXT_LIMITS.conditionValue.max);
  for (const condition of (conditions ?? []).slice(0, TEXT_LIMITS.conditionList.max)) {
    const value = cut(condition.value);
    const text = cut(condition.text);
    if (value === '' && text === '') continue;
    read.push({ kind: condition.kind, value: value || text, ...(text ? { text } : {}) });
  }
  return read;
}

/** A reply's provenance as a contract `Provenance`; undefined when the model gave none. */
export function toProvenance(provenance: z.infer<typeof ModelProvenanceSchema>): Provenance | undefined {
  return provenance === undefined ? undefined : { kind: provenance };
}

/** A triplet's conditions and provenance back in the reply's shape (references shown to the next MoA layer). */
export function toModelConditions(conditions: readonly Condition[] | undefined): ModelCondition[] {
  return (conditions ?? []).map((condition) => ({ kind: condition.kind, value: condition.value, text: condition.text ?? condition.value }));
}
