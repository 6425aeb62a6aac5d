/**
 * The Mixture-of-Agents path of SLM-MATRIX (Methods, "Multi-agent collaborative reasoning
 * path"; Eqs. 1–4): L layers of P proposers, each proposer of layer l > 1 seeing the answers of
 * layer l − 1 as references, then one aggregator that receives the last layer's answers as
 * in-context references, scored by Eq. 2 (reference-aware generative aggregation). The paper's
 * setting is three proposer layers × three proposers + one aggregator, temperature 0.7,
 * max_tokens 2048 (Experimental setup). Pure: the model comes in through `LlmPort`.
 */
import type { Article } from '../../contracts/article';
import type { Triplet } from '../../contracts/triplet';
import { generateObject, isUnusableReply, replyFailure, type ReplyFailure } from '../../llm/generate-object';
import type { LlmPort, LlmUsage } from '../../llm/llm-port';
import type { CrossVerifyDependencies } from '../cross-verify';
import type { GroundCheck } from '../cross-verify-refine';
import { aggregatorMessages, proposerMessages, type PropertyBrief } from './moa-prompts';
import { MoaAnswerSchema, toModelTriplets, toTriplets, type MoaAnswer } from './moa-schema';
import { mapInSlots } from '../slots';
import { bestCandidate, COVERAGE_WEIGHT, RELEVANCE_WEIGHT, scoreCandidates, type CandidateScore } from './moa-score';
import type { LlmErrorCode } from '../../contracts/llm';

export interface MoaInput {
  /** The paper text (passages or the whole `Article.text`). */
  text: string;
  properties: readonly PropertyBrief[];
  /** When given (with `deps.ground`), Rel of Eq. 2 counts triplets that ground rather than quotes found. */
  article?: Article;
  /** In a refinement re-run: the previous round's disagreement in words (`disagreementLines`), shown to every proposer and the aggregator. */
  disagreement?: readonly string[];
}

export interface MoaOptions {
  /** Proposer layers L (paper: 3). */
  layers: number;
  /** One entry per proposer of a layer: a model id, or undefined to let the roster pick for the role. */
  proposers: ReadonlyArray<string | undefined>;
  /** Aggregator model id (undefined: the roster's aggregator). */
  aggregator?: string;
  /** Paper: 0.7. */
  temperature?: number;
  /** Paper: 2048. */
  maxTokens?: number;
  /**
   * Proposer calls of a layer in flight at once (the server's parallel slots, `mapInSlots`);
   * default all of them, the engine's own scheduler or limit deciding (WebLLM's model scheduler
   * groups them by loaded model).
   */
  parallel?: number;
}

export interface MoaDependencies extends CrossVerifyDependencies {
  llm: LlmPort;
  signal?: AbortSignal;
  ground?: GroundCheck;
}

/** One proposer's answer in one layer; `error` (and its code) when its reply was unusable (the layer goes on without it). */
export interface ProposerAnswer {
  proposer: number;
  model?: string;
  triplets: Triplet[];
  error?: string;
  /** `truncated-output`, `repetitive-output` or `malformed-output` (`isUnusableReply`), with `error`. */
  errorCode?: LlmErrorCode;
}

export interface MoaResult {
  /** The aggregator's triplets (engine "moa"); A* of Eq. 2 when the aggregator's reply was unusable. */
  triplets: Triplet[];
  layers: ProposerAnswer[][];
  /** Eq. 2 scores of the last layer's answers, in proposer order. */
  scores: CandidateScore[];
  /** True when the aggregator failed and A* (argmax of Eq. 2) was taken instead. */
  aggregatorFallback: boolean;
  /** Why the aggregator's reply was unusable, with `aggregatorFallback`. */
  aggregatorError?: ReplyFailure;
  usage: LlmUsage;
  calls: number;
}

/** Paper defaults (Experimental setup): 3 layers × 3 proposers, temperature 0.7, max_tokens 2048. */
export const PAPER_MOA_OPTIONS: MoaOptions = { layers: 3, proposers: [undefined, undefined, undefined], temperature: 0.7, maxTokens: 2048 };

/**
 * Run the MoA path. Proposers of one layer run concurrently, `options.parallel` at a time
 * (default all; a scheduler inside the `LlmPort` may serialise them); answers stay in proposer order. A proposer whose reply stays unusable after the one retry
 * (`isUnusableReply`: cut at max_tokens, a repetition loop, malformed) is recorded with its error
 * and code and left out of the references; so is the aggregator's (`aggregatorError`); any other `LlmError`
 * (aborted, device lost, …) rejects the run. Calls: L·P proposer calls + 1 aggregator call
 * (+ repair calls made inside `generateObject`).
 */
export async function runMoa(input: MoaInput, options: MoaOptions, deps: MoaDependencies): Promise<MoaResult> {
  if (options.layers < 1 || options.proposers.length < 1) throw new RangeError('runMoa needs at least one layer and one proposer');
  const usage: LlmUsage = { promptTokens: 0, completionTokens: 0 };
  let calls = 0;
  const settings = {
    ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
    ...(options.maxTokens === undefined ? {} : { maxTokens: options.maxTokens }),
    ...(deps.signal ? { signal: deps.signal } : {}),
  };
  const ask = async (
    role: 'proposer' | 'aggregator',
    model: string | undefined,
    messages: ReturnType<typeof proposerMessages>,
  ): Promise<MoaAnswer> => {
    calls += 1;
    const reply = await generateObject(deps.llm, { role, ...(model ? { model } : {}), messages, ...settings }, MoaAnswerSchema);
    usage.promptTokens += reply.usage.promptTokens;
    usage.completionTokens += reply.usage.completionTokens;
    return reply.value;
  };
  const unusable = (error: unknown): ReplyFailure => {
    if (!isUnusableReply(error)) throw error;
    if (error.details.usage) {
      usage.promptTokens += error.details.usage.promptTokens;
      usage.completionTokens += error.details.usage.completionTokens;
    }
    return replyFailure(error);
  };

  const layers: ProposerAnswer[][] = [];
  let references: MoaAnswer[] = [];
  for (let layer = 0; layer < options.layers; layer += 1) {
    const answers = await mapInSlots(
      options.proposers,
      options.parallel ?? options.proposers.length,
      async (model, proposer): Promise<ProposerAnswer> => {
        try {
          const answer = await ask('proposer', model, proposerMessages(input.text, input.properties, references, input.disagreement));
          return { proposer, ...(model ? { model } : {}), triplets: toTriplets(answer, `moa-l${layer + 1}-p${proposer + 1}`) };
        } catch (error) {
          const failure = unusable(error);
          return { proposer, ...(model ? { model } : {}), triplets: [], error: failure.message, errorCode: failure.code };
        }
      },
      deps.signal,
    );
    layers.push(answers);
    const usable = answers.filter((answer) => answer.error === undefined);
    // A layer in which every proposer failed passes the older references on unchanged.
    if (usable.length > 0) references = usable.map((answer) => toModelTriplets(answer.triplets));
  }

  const last = layers[layers.length - 1]!.filter((answer) => answer.error === undefined);
  const scores = scoreCandidates(
    last.map((answer) => answer.triplets),
    input.text,
    deps,
  );
  if (input.article && deps.ground) {
    // Rel by the grounding gate itself when the article is at hand (stricter than a quote search).
    last.forEach((answer, index) => {
      const grounded = answer.triplets.filter((triplet) => deps.ground!(triplet, input.article!).grounded).length;
      const rel = answer.triplets.length === 0 ? 0 : grounded / answer.triplets.length;
      const score = scores[index]!;
      scores[index] = { relevance: rel, coverage: score.coverage, score: RELEVANCE_WEIGHT * rel + COVERAGE_WEIGHT * score.coverage };
    });
  }
  let triplets: Triplet[];
  let aggregatorFallback = false;
  let aggregatorError: ReplyFailure | undefined;
  try {
    const answer = await ask(
      'aggregator',
      options.aggregator,
      aggregatorMessages(
        input.text,
        input.properties,
        last.map((candidate, index) => ({ answer: toModelTriplets(candidate.triplets), score: scores[index]!.score })),
        input.disagreement,
      ),
    );
    triplets = toTriplets(answer, 'moa');
  } catch (error) {
    aggregatorError = unusable(error);
    aggregatorFallback = true;
    const best = bestCandidate(scores);
    triplets = best === -1 ? [] : last[best]!.triplets.map((triplet) => ({ ...triplet, engine: 'moa' }));
  }
  return { triplets, layers, scores, aggregatorFallback, ...(aggregatorError ? { aggregatorError } : {}), usage, calls };
}
