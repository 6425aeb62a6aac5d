/**
 * `runJudge`: ask the judge model whether retrieved texts report a property of a material, then
 * keep only what is grounded in them. The answer is derived from the kept values, never taken
 * from the model: any Tc → Yes; only Tcn → No; nothing kept → Unknown.
 */
import { generateObject } from '../../llm/generate-object';
import { LlmError, type LlmPort, type LlmUsage } from '../../llm/llm-port';
import { groundPhase, groundValue, type DroppedClaim, type JudgedPhase, type JudgedValue } from './ground-judge-reply';
import { isSuperconductivityProperty, judgeMessages } from './judge-prompts';
import { judgeReplySchema, type JudgeRelated, type RetrievedText } from './judge-schema';

export interface JudgeResult {
  answer: 'Yes' | 'No' | 'Unknown';
  /** What the model answered, for diagnosis only (absent when it was not asked or failed). */
  claimed?: 'Yes' | 'No' | 'Unknown';
  /** Grounded values: Tc highest first, then Tcn lowest first (then other values in reply order). */
  values: JudgedValue[];
  /** Distinct DOIs (else text ids) of the kept values, in `values` order. */
  sources: string[];
  dropped: DroppedClaim[];
  /** Related materials as the model named them: not grounded (no quote in the schema). */
  related: JudgeRelated[];
  phases: JudgedPhase[];
  /** Why the answer is Unknown (no texts, model failure, nothing grounded). */
  unknownBecause?: string;
  usage?: LlmUsage;
}

export interface JudgeDependencies {
  llm: LlmPort;
  signal?: AbortSignal;
  /** Model id for the judge call; default the engine's `judge` role. */
  model?: string;
}

function unknown(reason: string, extra: Partial<JudgeResult> = {}): JudgeResult {
  return { answer: 'Unknown', values: [], sources: [], dropped: [], related: [], phases: [], unknownBecause: reason, ...extra };
}

/** Tc highest first, then Tcn lowest first, then other values as given (the headline value first). */
function headlineOrder(values: JudgedValue[]): JudgedValue[] {
  const tc = values.filter((value) => value.kind === 'Tc').sort((a, b) => b.value - a.value);
  const tcn = values.filter((value) => value.kind === 'Tcn').sort((a, b) => a.value - b.value);
  return [...tc, ...tcn, ...values.filter((value) => value.kind === 'value')];
}

/**
 * Judge `material` / `property` (`tc` or a superconductivity synonym → Tc/Tcn; any other name →
 * reported values of that property) on `texts`.
 *
 * One `generateObject` call of role `judge` at temperature 0 (with its one repair). Each value is
 * grounded by `groundValue` (retrieved source, anchored quote, number in the passage, kelvin for
 * Tc/Tcn); failures go to `dropped` with their reason. Phases are grounded by `groundPhase`.
 * `answer`: Yes when a Tc (or, for other properties, any value) is kept, No when only Tcn are,
 * else Unknown with `unknownBecause`.
 *
 * Errors: no texts → Unknown without a call; a reply still malformed after the repair, or any
 * other `LlmError` → Unknown with the reason; an abort (`LlmError('aborted')`) rejects.
 */
export async function runJudge(
  material: string,
  property: string,
  texts: readonly RetrievedText[],
  dependencies: JudgeDependencies,
): Promise<JudgeResult> {
  if (texts.length === 0) return unknown('no texts were retrieved');
  const byId = new Map<string, RetrievedText>();
  for (const text of texts) if (!byId.has(text.id)) byId.set(text.id, text);
  let reply;
  try {
    reply = await generateObject(
      dependencies.llm,
      {
        role: 'judge',
        ...(dependencies.model ? { model: dependencies.model } : {}),
        messages: judgeMessages(material, property, [...byId.values()]),
        temperature: 0,
        ...(dependencies.signal ? { signal: dependencies.signal } : {}),
      },
      judgeReplySchema,
    );
  } catch (error) {
    if (error instanceof LlmError && error.code === 'aborted') throw error;
    if (error instanceof LlmError && error.code === 'malformed-output')
      return unknown(`the judge's reply was malformed after one repair: ${error.message}`);
    const code = error instanceof LlmError ? error.code : 'error';
    return unknown(`the judge model failed (${code}): ${(error as Error).message}`);
  }
  const superconductivity = isSuperconductivityProperty(property);
  const kept: JudgedValue[] = [];
  const dropped: DroppedClaim[] = [];
  for (const claim of reply.value.values) {
    const grounded = groundValue(claim, byId, superconductivity);
    if (grounded.ok) kept.push(grounded.value);
    else dropped.push(grounded.dropped);
  }
  const phases: JudgedPhase[] = [];
  for (const claim of reply.value.phases) {
    const grounded = groundPhase(claim, byId);
    if (grounded.ok) phases.push(grounded.value);
    else dropped.push(grounded.dropped);
  }
  const values = headlineOrder(kept);
  const answer = values.some((value) => value.kind !== 'Tcn') ? 'Yes' : values.length > 0 ? 'No' : 'Unknown';
  const sources = [...new Set(values.map((value) => value.reference.doi ?? value.reference.sourceId))];
  const base = { claimed: reply.value.answer, values, sources, dropped, related: reply.value.related, phases, usage: reply.usage };
  if (answer !== 'Unknown') return { answer, ...base };
  const because =
    reply.value.values.length === 0
      ? `the judge found no reported value in ${byId.size} text(s)`
      : `none of the judge's ${reply.value.values.length} value(s) was grounded in the retrieved texts`;
  return { answer, ...base, unknownBecause: because };
}
