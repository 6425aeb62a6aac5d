/**
 * Prompts of the MoA path (SLM-MATRIX Methods, "Multi-agent collaborative reasoning path"; the
 * paper's own templates are in its Supplementary Note 1, not in the text we have, so these are
 * written from the Methods' description: role identity, materials domain context, output
 * structure). Laid out passage first (src/matrix/passage-first.ts): the shared system message,
 * the paper text in its DATA block, then the role's instructions and inputs, so every call over
 * one passage to one model shares the prefix a server's cache keeps.
 */
import type { PropertyDefinition } from '../../contracts/property';
import type { Triplet } from '../../contracts/triplet';
import type { ChatMessage } from '../../llm/llm-port';
import type { CrossVerifyEntry } from '../cross-verify';
import { CONDITIONS_RULE } from '../model-conditions';
import { passageFirstMessages } from '../passage-first';
import type { MoaAnswer } from './moa-schema';

/** What to extract: the property schemas in words (name, units, description). */
export interface PropertyBrief {
  name: string;
  units: readonly string[];
  description?: string;
}

/** How the models are told about `property`: its name, units, and label with the synonyms papers use. */
export function propertyBrief(property: PropertyDefinition): PropertyBrief {
  return { name: property.name, units: property.units, description: `${property.label}; written as ${property.synonyms.join(', ')}` };
}

const OUTPUT_RULES = [
  'Reply with JSON only: {"triplets":[{"material","property","value","unit","quote","conditions","provenance"}]}.',
  '"value" is the number exactly as printed (a range as "low-high"); "unit" exactly as printed ("" if none).',
  '"quote" is the sentence or table row that states the value, copied character for character from the DATA block.',
  CONDITIONS_RULE,
  'Report only values the text states for a specific material; never compute, convert or guess a value. If there are none, reply {"triplets":[]}.',
].join('\n');

function propertyLines(properties: readonly PropertyBrief[]): string {
  return properties
    .map(
      (property) =>
        `- ${property.name} (units: ${property.units.join(', ') || 'dimensionless'})${property.description ? `: ${property.description}` : ''}`,
    )
    .join('\n');
}

function stated(triplet: Triplet): string {
  const value =
    triplet.valueText ?? (triplet.value.kind === 'number' ? String(triplet.value.value) : `${triplet.value.low}-${triplet.value.high}`);
  return `${triplet.material}: ${value}${triplet.unit ? ` ${triplet.unit}` : ''}`;
}

/**
 * The previous refinement round's disagreement in words, one line per entry that was not
 * agreed (SLM-MATRIX Methods: when the paths disagree the MoA path "re-runs" — we show it what
 * the two paths said, so the re-run re-reads those claims instead of repeating itself). Agreed
 * entries are omitted. Model text is quoted with JSON.stringify, never as instructions.
 * → e.g. `Your answer "GaN: 3.4 eV" and the search path's "GaN: 3.2 eV" differ (value differs).`
 */
export function disagreementLines(entries: readonly CrossVerifyEntry[]): string[] {
  const lines: string[] = [];
  for (const entry of entries) {
    if (entry.outcome === 'conflict' && entry.moa && entry.gd) {
      lines.push(
        `Your answer ${JSON.stringify(stated(entry.moa))} and the search path's ${JSON.stringify(stated(entry.gd))} differ${entry.reason ? ` (${entry.reason})` : ''}.`,
      );
    } else if (entry.outcome === 'moa-only' && entry.moa) {
      lines.push(`Only your answer gave ${JSON.stringify(stated(entry.moa))}; the search path did not find it.`);
    } else if (entry.outcome === 'gd-only' && entry.gd) {
      lines.push(`Only the search path gave ${JSON.stringify(stated(entry.gd))}; your answer did not include it.`);
    }
  }
  return lines;
}

function disagreementPart(disagreement: readonly string[]): string {
  return (
    'A previous round disagreed with an independent search path. Re-read the text for each point below and report what the text states; agreeing is not the goal, the text is.\n' +
    disagreement.map((line) => `- ${line}`).join('\n')
  );
}

/**
 * Messages for one proposer (Eq. 1, A_i = P_i(T)). From layer 2 on, `references` holds the
 * previous layer's answers, shown as candidates to check against the text, not to copy. In a
 * refinement re-run `disagreement` (from `disagreementLines`) lists what the paths disagreed on.
 */
export function proposerMessages(
  text: string,
  properties: readonly PropertyBrief[],
  references: readonly MoaAnswer[],
  disagreement: readonly string[] = [],
): ChatMessage[] {
  const parts = [
    'You are a proposer agent: a materials scientist extracting material–property–value–unit triplets from the paper text above.',
    OUTPUT_RULES,
    `Properties to extract:\n${propertyLines(properties)}`,
  ];
  if (disagreement.length > 0) parts.push(disagreementPart(disagreement));
  if (references.length > 0) {
    parts.push(
      'Other agents proposed these answers. They may be wrong or incomplete: keep what the text supports, fix what it contradicts, add what they missed.\n' +
        references.map((reference, index) => `Answer ${index + 1}: ${JSON.stringify(reference.triplets)}`).join('\n'),
    );
  }
  return passageFirstMessages(text, parts);
}

/**
 * Messages for the aggregator: the paper's "reference-aware generative aggregation" (Methods,
 * after Eq. 2) — every candidate answer of the last layer is given as an in-context reference,
 * with its Eq. 2 score, and the aggregator selects and reorganises them into one answer,
 * weighing relevance to the text (Rel) above agreement with the other candidates (Cov), as
 * α = 0.7 > β = 0.3 do.
 */
export function aggregatorMessages(
  text: string,
  properties: readonly PropertyBrief[],
  candidates: ReadonlyArray<{ answer: MoaAnswer; score: number }>,
  disagreement: readonly string[] = [],
): ChatMessage[] {
  const references = candidates
    .map((candidate, index) => `Candidate ${index + 1} (score ${candidate.score.toFixed(2)}): ${JSON.stringify(candidate.answer.triplets)}`)
    .join('\n');
  return passageFirstMessages(text, [
    'You are the aggregator agent. Several proposer agents extracted triplets from the paper text above.',
    'Merge them into one answer: keep triplets the text supports (relevance to the text matters most), prefer those several agents agree on, drop duplicates and anything the text does not state.',
    OUTPUT_RULES,
    `Properties to extract:\n${propertyLines(properties)}`,
    ...(disagreement.length > 0 ? [disagreementPart(disagreement)] : []),
    `Candidate answers:\n${references}`,
  ]);
}
