/**
 * Chain-of-Verification after cross-verification (Eunomia Methods 5.1.2; issue 11): the
 * discriminator answers the property's verification questions for every `verified` triplet over
 * its evidence chunk, answers are stored with the verdict, and an answer against the schema's
 * expectation sends the triplet to review. Pure: the model and the signal are injected.
 */
import type { Article } from '../../contracts/article';
import type { MatrixPreset, PresetModels } from '../../contracts/matrix-preset';
import type { PropertyDefinition } from '../../contracts/property';
import type { VerificationRecord } from '../../contracts/verification';
import type { VerificationQuestion } from '../../contracts/verification-question';
import { generateObject, isUnusableReply } from '../../llm/generate-object';
import type { LlmPort } from '../../llm/llm-port';
import { questionsFor } from '../../properties';
import { chunkArticle, type Chunk } from '../../text/retrieval';
import { evidenceChunkText } from './evidence-chunk';
import { factLabel, questionMessages, questionReplyJsonSchema, QuestionReplySchema, type QuestionedFact } from './question-prompt';
import { readAnswers, withAnswers } from './read-answers';
import { mapInSlots } from '../slots';

/**
 * How facts share calls: `per-property` packs a property's verified triplets into as few calls as
 * fit (the browser preset: one call per property in the usual case); `per-triplet` asks each
 * alone (the paper preset: answers stay independent of the other facts', as Eunomia's CoV wants).
 */
export type QuestionBatching = 'per-property' | 'per-triplet';

export interface VerificationQuestionOptions {
  batching: QuestionBatching;
  /** Most evidence characters in one `per-property` call (a fact over it goes alone); e.g. the preset's `maxPassageChars`. */
  maxEvidenceChars: number;
  /** Most facts in one `per-property` call: each answers every question with a quote, so the reply grows with them. */
  maxFactsPerCall?: number;
  /** The discriminator's model; undefined lets the engine's roster choose. */
  model?: string;
  maxTokens?: number;
  /** Calls in flight at once (the server's parallel slots, `mapInSlots`); default 1. */
  parallel?: number;
}

export interface VerificationQuestionDependencies {
  /** The discriminator's port, counted under its own stage by the caller. */
  llm: LlmPort;
  signal?: AbortSignal;
  /** After each call (repairs included in `done`): calls answered and calls planned (raised to `done` past the plan). */
  onProgress?: (done: number, total: number) => void;
}

export interface VerificationQuestionInput {
  article: Article;
  property: PropertyDefinition;
  /** One property's verdicts; only `verified` ones with evidence are asked about. */
  records: readonly VerificationRecord[];
  /** `chunkArticle(article)`, when the caller has it; made here otherwise (only when there is a fact to ask about). */
  chunks?: readonly Chunk[];
}

export interface VerificationQuestionResult {
  /** `input.records` in the same order, verified ones with their answers (and contrary ones now `needs_review`). */
  records: VerificationRecord[];
  /** Model calls made (repairs included). */
  calls: number;
  /** Answers that did not count and replies that were unusable, in words. */
  problems: string[];
}

/** Default `maxFactsPerCall`: about 8 facts × 4 questions × (answer + quote) stays inside a 1,024-token reply. */
export const MAX_FACTS_PER_CALL = 8;

/** `facts` in calls, in order: one each (`per-triplet`), or packed up to the evidence and fact caps (a fact over the evidence cap goes alone). */
export function batchFacts<T extends { evidence: string }>(facts: readonly T[], options: VerificationQuestionOptions): T[][] {
  if (options.batching === 'per-triplet') return facts.map((fact) => [fact]);
  const maxFacts = options.maxFactsPerCall ?? MAX_FACTS_PER_CALL;
  const batches: T[][] = [];
  let current: T[] = [];
  let chars = 0;
  for (const fact of facts) {
    if (current.length > 0 && (current.length >= maxFacts || chars + fact.evidence.length > options.maxEvidenceChars)) {
      batches.push(current);
      current = [];
      chars = 0;
    }
    current.push(fact);
    chars += fact.evidence.length;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

/** A fact to ask about: the index of its record in `input.records`, its triplet and evidence text. */
interface AskedFact {
  index: number;
  triplet: QuestionedFact['triplet'];
  evidence: string;
}

/** The verified records with evidence, in record order, with their evidence text (`evidenceChunkText`). */
function factsOf(input: VerificationQuestionInput): AskedFact[] {
  const asked = input.records.flatMap((record, index) => (record.status === 'verified' && record.triplet.evidence ? [index] : []));
  if (asked.length === 0) return [];
  const chunks = input.chunks ?? chunkArticle(input.article);
  return asked.flatMap((index) => {
    const triplet = input.records[index]!.triplet;
    const evidence = evidenceChunkText(triplet, input.article, chunks);
    return evidence ? [{ index, triplet, evidence }] : [];
  });
}

/**
 * Ask `questionsFor(input.property)` of every verified triplet of `input.records` (Eunomia's CoV
 * with the schema's questions). Facts are batched by `options.batching` and numbered from 1 in
 * each call; each call is one `generateObject` (role `discriminator`, temperature 0 — Eunomia ran
 * its agent at temperature zero, and a check should not sample — the reply's JSON schema from
 * `questionReplyJsonSchema`), so at most one repair call. Answers are read by `readAnswers` and
 * applied by `withAnswers`. → the records, calls made and problems.
 * Errors: a reply still unusable after the one retry (`isUnusableReply`: cut at max_tokens, a
 * repetition loop, malformed) costs only that call's answers (a problem with its reason is noted); any other `LlmError` (aborted, device-lost, …) propagates, as the rest of
 * the pipeline's do. Calls run `options.parallel` at a time (default 1); problems and answers
 * come out in batch order whatever order the replies came in.
 */
export async function askVerificationQuestions(
  input: VerificationQuestionInput,
  options: VerificationQuestionOptions,
  deps: VerificationQuestionDependencies,
): Promise<VerificationQuestionResult> {
  const questions: VerificationQuestion[] = questionsFor(input.property);
  const facts = factsOf(input);
  const records = [...input.records];
  if (facts.length === 0 || questions.length === 0) return { records, calls: 0, problems: [] };
  const batches = batchFacts(facts, options);
  let calls = 0;
  const counting: LlmPort = {
    complete: async (request) => {
      const reply = await deps.llm.complete(request);
      calls += 1;
      deps.onProgress?.(calls, Math.max(batches.length, calls));
      return reply;
    },
  };
  deps.onProgress?.(0, batches.length);
  // Each batch's answers are read when its reply comes; they are applied in batch order after.
  const outcomes = await mapInSlots(
    batches,
    options.parallel ?? 1,
    async (batch) => {
      const local: QuestionedFact[] = batch.map(({ triplet, evidence }, position) => ({ triplet, evidence, number: position + 1 }));
      let reply;
      try {
        reply = await generateObject(
          counting,
          {
            role: 'discriminator',
            ...(options.model ? { model: options.model } : {}),
            messages: questionMessages(local, input.property, questions),
            temperature: 0,
            ...(options.maxTokens ? { maxTokens: options.maxTokens } : {}),
            jsonSchema: questionReplyJsonSchema(questions, local.length),
            ...(deps.signal ? { signal: deps.signal } : {}),
          },
          QuestionReplySchema,
        );
      } catch (error) {
        if (!isUnusableReply(error)) throw error;
        return {
          batch,
          read: null,
          problems: [`verification questions for ${local.map(factLabel).join('; ')}: ${error.message}; no answer counted`],
        };
      }
      const read = readAnswers(reply.value, local, questions);
      return { batch, read, problems: read.problems.map((problem) => `verification questions: ${problem}`) };
    },
    deps.signal,
  );
  const problems: string[] = [];
  for (const { batch, read, problems: found } of outcomes) {
    problems.push(...found);
    if (!read) continue;
    batch.forEach(({ index }, position) => {
      records[index] = withAnswers(records[index]!, read.answers.get(position + 1) ?? []);
    });
  }
  return { records, calls, problems };
}

/**
 * `askVerificationQuestions` with a preset's settings: its `verificationQuestions` batching
 * (absent, in presets stored before it: `per-property`; `off`: no call, records unchanged), its
 * passage cap as the evidence cap per call, its `maxTokens`, and the discriminator's model;
 * `parallel` calls at once (default 1).
 */
export async function verifyByQuestions(
  input: VerificationQuestionInput,
  { preset, models, parallel }: { preset: MatrixPreset; models: PresetModels; parallel?: number },
  deps: VerificationQuestionDependencies,
): Promise<VerificationQuestionResult> {
  const batching = preset.verificationQuestions ?? 'per-property';
  if (batching === 'off') return { records: [...input.records], calls: 0, problems: [] };
  return askVerificationQuestions(
    input,
    {
      batching,
      maxEvidenceChars: preset.maxPassageChars,
      maxTokens: preset.maxTokens,
      ...(models.discriminator ? { model: models.discriminator } : {}),
      ...(parallel !== undefined ? { parallel } : {}),
    },
    deps,
  );
}
