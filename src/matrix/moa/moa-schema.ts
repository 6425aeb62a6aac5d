/**
 * The structured answer every MoA agent (proposer and aggregator) must return: triplets, each
 * with the sentence it was read from copied verbatim, so the grounding gate can anchor it.
 */
import { z } from 'zod';
import type { Triplet } from '../../contracts/triplet';
import { ModelConditionsSchema, ModelProvenanceSchema, toConditions, toModelConditions, toProvenance } from '../model-conditions';
import { parseNumber } from '../../text/quantities/number';
import { limited, REPLY_LIMITS } from '../reply-limits';

/**
 * One triplet as a model writes it. `quote` is copied verbatim from the DATA block. Every string
 * carries a `maxLength` for constrained decoding (`REPLY_LIMITS`), not enforced here.
 */
export const MoaTripletSchema = z.object({
  material: limited(z.string().min(1), REPLY_LIMITS.material),
  property: limited(z.string().min(1), REPLY_LIMITS.property),
  /** The number as printed ("1.45"); a range as "1.2-1.5". */
  value: limited(z.string().min(1), REPLY_LIMITS.value),
  unit: limited(z.string(), REPLY_LIMITS.unit),
  quote: limited(z.string().min(1), REPLY_LIMITS.quote),
  /** The conditions the passage states for the value, each with the words copied from it (unanchored until the gate). */
  conditions: ModelConditionsSchema,
  provenance: ModelProvenanceSchema,
});
export type MoaTriplet = z.infer<typeof MoaTripletSchema>;

/** A MoA agent's (or reader's) answer: at most `REPLY_LIMITS.itemsPerReply` triplets in the JSON schema (not enforced here). */
export const MoaAnswerSchema = z.object({ triplets: limited(z.array(MoaTripletSchema), REPLY_LIMITS.itemsPerReply) });
export type MoaAnswer = z.infer<typeof MoaAnswerSchema>;

// The digits a model copies from the paper: a decimal point or comma ("6,2"), thousands by commas
// or spaces ("3 800"), an exponent; each read by the number reader (`parseNumber`).
const NUMBER = String.raw`[-+]?(?:\d{1,3}(?:[ ,]\d{3})+(?:[.,]\d+)?|\d+(?:[.,]\d*)?|[.,]\d+)(?:[eE][-+]?\d+)?`;

/** One number of a model's value, by `parseNumber` (a trailing point, "3.", is the integer). */
function modelNumber(text: string): number {
  return parseNumber(text.replace(/[.,]$/, ''))?.value ?? Number.NaN;
}

/**
 * "1.45" → number; "~1.45" → approximate; "1.2-1.5" / "1.2–1.5" / "1.2 to 1.5" → range; digits as
 * the paper prints them ("6,2", "3 800") read by `parseNumber`; else null.
 */
export function parseModelValue(text: string): Triplet['value'] | null {
  const cleaned = text
    .replace(/[\u2212]/g, '-')
    .replace(/\s+/g, ' ')
    .trim();
  const approximate = /^(?:~|≈|about |approximately |ca\.? )/i.test(cleaned);
  const body = cleaned.replace(/^(?:~|≈|about |approximately |ca\.? )\s*/i, '');
  const range = new RegExp(`^(${NUMBER})\\s*(?:-|–|—|to)\\s*(${NUMBER})$`).exec(body);
  if (range) {
    const [low, high] = [modelNumber(range[1]!), modelNumber(range[2]!)];
    if (Number.isNaN(low) || Number.isNaN(high)) return null;
    return { kind: 'range', low: Math.min(low, high), high: Math.max(low, high), ...(approximate ? { approximate } : {}) };
  }
  const single = new RegExp(`^(${NUMBER})(?:\\s*(?:±|\\+/-)\\s*(${NUMBER}))?$`).exec(body);
  if (!single) return null;
  const value = modelNumber(single[1]!);
  const uncertainty = single[2] === undefined ? undefined : Math.abs(modelNumber(single[2]));
  if (Number.isNaN(value) || (uncertainty !== undefined && Number.isNaN(uncertainty))) return null;
  return {
    kind: 'number',
    value,
    ...(uncertainty === undefined ? {} : { uncertainty }),
    ...(approximate ? { approximate } : {}),
  };
}

/**
 * Model triplets → contract `Triplet`s with `engine`, an evidence quote (no context, no
 * position: the grounding gate re-anchors the quote in the article) and the conditions and
 * provenance the model stated (unanchored: the gate keeps only conditions found in the evidence). Rows whose value does not
 * parse as a number or range are dropped (they cannot be scored or grounded).
 */
export function toTriplets(answer: MoaAnswer, engine: string): Triplet[] {
  const triplets: Triplet[] = [];
  for (const row of answer.triplets) {
    const value = parseModelValue(row.value);
    if (!value) continue;
    const conditions = toConditions(row.conditions);
    const provenance = toProvenance(row.provenance);
    triplets.push({
      material: row.material.trim(),
      property: row.property.trim(),
      value,
      unit: row.unit.trim(),
      valueText: row.value.trim(),
      ...(conditions.length > 0 ? { conditions } : {}),
      ...(provenance ? { provenance } : {}),
      evidence: { quote: { type: 'TextQuoteSelector', exact: row.quote.trim(), prefix: '', suffix: '' } },
      engine,
    });
  }
  return triplets;
}

/** Contract triplets back to the model-facing shape, to show as references in the next layer. */
export function toModelTriplets(triplets: readonly Triplet[]): MoaAnswer {
  return {
    triplets: triplets
      .map((triplet) => ({
        material: triplet.material,
        property: triplet.property,
        value:
          triplet.valueText ??
          (triplet.value.kind === 'number' ? String(triplet.value.value) : `${triplet.value.low}-${triplet.value.high}`),
        unit: triplet.unit,
        quote: triplet.evidence?.quote.exact ?? '',
        ...(triplet.conditions?.length ? { conditions: toModelConditions(triplet.conditions) } : {}),
        ...(triplet.provenance ? { provenance: triplet.provenance.kind } : {}),
      }))
      .filter((row) => row.quote !== ''),
  };
}
