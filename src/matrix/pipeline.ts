/**
 * The SLM-MATRIX pipeline end to end (SLM-MATRIX Methods; issue 4): for each property, the text
 * retrieval chooses (src/matrix/reading.ts: ranked chunks, a reading stage when they need more
 * than one call, then one focused passage; issue 11) → the MoA path (Eqs. 1–4) and the
 * generator–discriminator path (MCTS, Eqs. 5–9; discriminator, Eqs. 10–13) → dual
 * cross-verification with up to K MoA re-runs → Assay's grounding gate. Pure: the model,
 * randomness, token counting, grounding and unit/material rules are injected; progress, cancel
 * and usage accounting are part of the contract.
 */
import type { MatrixProgress, MatrixStage, NotProvided, PropertyRetrieval } from '../contracts/run-record';
import type { Article } from '../contracts/article';
import type { Triplet } from '../contracts/triplet';
import { throwIfAborted } from '../llm/abort';
import type { ReplyFailure } from '../llm/generate-object';
import { LlmError, toLlmError, type LlmPort } from '../llm/llm-port';
import { approximateTokenCount } from '../llm/token-estimate';
import { UsageMeter } from '../llm/usage-meter';
import { propertyCatalogue, type PropertyDefinition } from '../properties';
import { completeEvidence } from '../text/anchoring';
import { chunkArticle, embeddingSimilarity, lexicalSimilarity, type Chunk, type ChunkGroup } from '../text/retrieval';
import { buildArticleIndex } from '../text/article-index';
import { scanArticle } from '../text/scan';
import type { Candidate } from '../text/scan-types';
import { verifyByQuestions } from './chain-of-verification';
import { crossVerify, pathsAgree, type CrossVerifyDependencies } from './cross-verify';
import { verifyPaths, type GroundCheck } from './cross-verify-refine';
import { runGeneratorDiscriminator, toTriplet } from './gd';
import { disagreementLines, propertyBrief, runMoa, type MoaOptions, type MoaResult } from './moa';
import { moaFailure, notDecided, type FailedPart } from './not-decided';
import { buildPassage } from './passages';
import { retrievalOf } from './presets';
import { focusedPassage, planReading, quoteChunks, readGroups, type CountTokens } from './reading';
import type { Random } from './random';
import { checkedSlots } from './slots';
import { countByStatus, MatrixCancelled, MatrixInterrupted, type MatrixResult } from './run-record';
import type { PropertyRun, RunRecord } from '../contracts/run-record';
import type { MatrixPreset, PresetModels } from '../contracts/matrix-preset';
import type { VerificationRecord } from '../contracts/verification';

export interface MatrixOptions {
  properties: readonly PropertyDefinition[];
  preset: MatrixPreset;
  /** Models per role; default `preset.models`. */
  models?: PresetModels;
  /** The RNG's seed, for the run record only (the RNG itself is `deps.rng`). */
  seed?: number;
  /**
   * How a property's text is chosen: `retrieval` (default; src/matrix/reading.ts), or
   * `scan-passage`, the one scan-candidate passage of before (`buildPassage`, `maxPassageChars`),
   * kept so `assay bench --presets` can show both.
   */
  reading?: 'retrieval' | 'scan-passage';
  /**
   * The engine's parallel slots: how many independent calls of one stage run at once — the
   * reading stage's groups, the proposers of a MoA layer, the discriminator's reconstructions, the
   * Chain-of-Verification batches (src/matrix/slots.ts). Stages still follow each other, the MCTS
   * rollouts one after another (each selects by the statistics of the last), and properties in
   * order; records, votes and token counts are those of the one-slot run. Absent: one call at a
   * time, except that a MoA layer's proposers are all asked at once for the engine to order
   * (WebLLM's model scheduler groups them by loaded model; it serves one call at a time).
   */
  parallel?: number;
}

export interface MatrixDependencies extends CrossVerifyDependencies {
  llm: LlmPort;
  rng: Random;
  signal?: AbortSignal;
  ground: GroundCheck;
  onProgress?: (event: MatrixProgress) => void;
  /** Monotonic clock (ms) for timings; default `performance.now`. */
  now?: () => number;
  /**
   * Called after each property is decided, with its run summary and records, and awaited before
   * the next property starts: a host that saves them here loses nothing already paid for when the
   * run is stopped or the browser closes. Not called for skipped properties.
   */
  onPropertyDone?: (property: PropertyRun, records: readonly VerificationRecord[]) => void | Promise<void>;
  /**
   * A meter over `llm` to count with, so several `runMatrix` calls (a run resumed after a lost
   * GPU device) add up in one place; default a new `UsageMeter(deps.llm)`. When given, the
   * meter's own port is used for the calls.
   */
  usage?: UsageMeter;
  /**
   * Tokens of a text for the models, for the retrieval budgets; default chars/4
   * (`approximateTokenCount`). The CLI passes the reading proposer's tokenizer's `countText`.
   */
  countTokens?: CountTokens;
  /**
   * The engine's embeddings (`EmbeddingPort` of src/llm/embeddings.ts), for MMR's chunk
   * similarity; absent → lexical similarity. Each chunk's quote is embedded once per run. A
   * failure other than an abort is noted in each property's problems and the run goes on with
   * the lexical similarity.
   */
  embeddings?: { model: string; embed(texts: readonly string[], signal?: AbortSignal): Promise<number[][]> };
}

/**
 * Run SLM-MATRIX over `article` for each of `options.properties`, in order.
 * → `{ records, run }`: every triplet's verdict (`verified` only when both paths agreed and the
 * grounding gate passed; `rejected` when they agreed but it failed; `needs_review` otherwise, with
 * both answers) and the `RunRecord`. A property with no relevant chunk abstains with no model call;
 * a property that ends with no triplet is marked "not provided" (`PropertyRun.notProvided`) with
 * what was searched — unless failed calls left it undecided (`PropertyRun.notDecided`, with the
 * failures' code and words; `notDecided` of src/matrix/not-decided.ts): the MoA path's last run or
 * the search path gave no usable answer at all, or reading calls failed (their passages unread).
 * A reply that stays unusable after its one retry (cut at max_tokens, a repetition loop, malformed:
 * `generateObject`) never stops the run; partial failures are in the property's `problems`.
 * Calls per property (no retries): up to `maxReadingCalls` reading calls
 * (only when the relevant chunks need more than one call) + L·P + 1 (MoA) + at most
 * rollouts·depth (MCTS) + at most paths (discriminator) + up to K·(L·P + 1) (refinement) + the
 * Chain-of-Verification calls (only when a triplet is verified: one per 8 verified triplets or
 * 4,000 evidence characters with `per-property` batching, one per verified triplet with
 * `per-triplet`); the early exit drops the MCTS and discriminator calls.
 * Errors: any `LlmError` from the engine (every stage absorbs unusable replies itself:
 * `isUnusableReply`) or a fired `signal` stops the run with `MatrixCancelled` (aborted) or
 * `MatrixInterrupted` (device-lost, unreachable, …), both carrying the partial result: records of
 * the properties finished before the stop. No model call starts after the signal fires, nor
 * after a stage's call failed. A `parallel` that is not a whole number ≥ 1 throws `RangeError`.
 */
export async function runMatrix(article: Article, options: MatrixOptions, deps: MatrixDependencies): Promise<MatrixResult> {
  if (options.parallel !== undefined) checkedSlots(options.parallel);
  // The run's calls listen to its own signal, fired by the caller's and when the run ends: a stage
  // stopped by one failed call (Promise.all) leaves its sibling calls in flight or queued, and
  // their sockets and timers kept `assay extract` alive for another timeout each after it had
  // printed its result (issue 27, item 5).
  const scope = new AbortController();
  const forward = (): void => scope.abort();
  if (deps.signal?.aborted) forward();
  else deps.signal?.addEventListener('abort', forward, { once: true });
  try {
    return await runMatrixWithin(article, options, { ...deps, signal: scope.signal });
  } finally {
    deps.signal?.removeEventListener('abort', forward);
    scope.abort();
  }
}

async function runMatrixWithin(article: Article, options: MatrixOptions, deps: MatrixDependencies): Promise<MatrixResult> {
  const now = deps.now ?? (() => performance.now());
  const started = now();
  const meter = deps.usage ?? new UsageMeter(deps.llm, now);
  const records: VerificationRecord[] = [];
  const properties: PropertyRun[] = [];
  const models = options.models ?? options.preset.models;
  const finish = (interrupted?: LlmError): MatrixResult => {
    const usage = meter.snapshot();
    const run: RunRecord = {
      engine: 'slm-matrix',
      preset: options.preset,
      models,
      ...(options.seed === undefined ? {} : { seed: options.seed }),
      usage,
      calls: usage.total.calls,
      promptTokens: usage.total.promptTokens,
      completionTokens: usage.total.completionTokens,
      milliseconds: Math.round(now() - started),
      properties: [...properties],
      counts: countByStatus(records),
      ...(interrupted ? { interrupted: { code: interrupted.code, message: interrupted.message } } : {}),
    };
    return { records: [...records], run };
  };
  try {
    throwIfAborted(deps.signal);
    // One index of the article for the scan and the chunks: the same sentences, rows and captions.
    const index = buildArticleIndex(article, propertyCatalogue(options.properties));
    const candidates = scanArticle(index, { properties: options.properties }).candidates;
    const chunks = options.reading === 'scan-passage' ? [] : chunkArticle(article, index);
    const similarity = await chunkSimilarity(chunks, deps);
    for (const property of options.properties) {
      throwIfAborted(deps.signal);
      const outcome = await runProperty({
        article,
        property,
        candidates: candidates.filter((candidate) => candidate.property === property.name),
        context: { chunks, ...similarity },
        options: { ...options, models },
        deps,
        meter,
        now,
      });
      records.push(...outcome.records);
      properties.push(outcome.run);
      if (!outcome.run.skipped) await deps.onPropertyDone?.(outcome.run, outcome.records);
    }
  } catch (error) {
    if (!(error instanceof LlmError)) throw error;
    const partial = finish(error);
    throw error.code === 'aborted' ? new MatrixCancelled(error, partial) : new MatrixInterrupted(error, partial);
  }
  return finish();
}

/** Give every triplet the property asked for (models write "band gap" for "band_gap"; one property is asked per run). */
function asProperty(triplets: readonly Triplet[], property: string): Triplet[] {
  return triplets.map((triplet) => ({ ...triplet, property }));
}

function moaProblems(result: MoaResult, label: string): string[] {
  const problems = result.layers.flatMap((layer, index) =>
    layer.filter((answer) => answer.error).map((answer) => `${label} layer ${index + 1} proposer ${answer.proposer + 1}: ${answer.error}`),
  );
  if (result.aggregatorFallback)
    problems.push(
      `${label}: the aggregator's reply was unusable${result.aggregatorError ? ` (${result.aggregatorError.message})` : ''}; the best proposer answer by Eq. 2 was taken`,
    );
  return problems;
}

/**
 * The early exit of the browser preset: the last MoA layer's answers when every proposer answered
 * (non-empty, usable), all agree pairwise by the cross-verification rules, and every one of their
 * triplets grounds; else null. An empty unanimous answer does not qualify: the scan saw a
 * candidate, so "nothing here" deserves the second path.
 */
export function unanimousGroundedAnswer(
  result: MoaResult,
  property: string,
  article: Article,
  deps: Pick<MatrixDependencies, 'ground' | 'sameMaterial' | 'toSI' | 'tolerance'>,
): Triplet[] | null {
  const last = result.layers[result.layers.length - 1] ?? [];
  if (last.length === 0 || last.some((answer) => answer.error !== undefined || answer.triplets.length === 0)) return null;
  const answers = last.map((answer) => asProperty(answer.triplets, property));
  const [reference, ...others] = answers as [Triplet[], ...Triplet[][]];
  if (!others.every((other) => pathsAgree(crossVerify(reference, other, deps)))) return null;
  if (!answers.every((answer) => answer.every((triplet) => deps.ground(triplet, article).grounded))) return null;
  return reference;
}

/** The article's chunks and how MMR compares them (`chunkSimilarity`). */
interface ChunkContext {
  chunks: readonly Chunk[];
  similarity?: (a: Chunk, b: Chunk) => number;
  embeddingModel?: string;
  /** Why embeddings were not used although the engine offers them, in words. */
  problem?: string;
}

/**
 * MMR's similarity for `chunks`: `embeddingSimilarity` over `deps.embeddings`' vectors of the
 * chunk quotes (one embedding call per run; the lexical similarity for any chunk without a
 * vector), or nothing (lexical) when the engine has no embeddings or there are no chunks. An
 * embedding failure other than an abort becomes `problem`; an abort rejects with its `LlmError`.
 */
async function chunkSimilarity(chunks: readonly Chunk[], deps: MatrixDependencies): Promise<Omit<ChunkContext, 'chunks'>> {
  if (!deps.embeddings || chunks.length === 0) return {};
  try {
    const vectors = await deps.embeddings.embed(
      chunks.map((chunk) => chunk.quote),
      deps.signal,
    );
    return { similarity: embeddingSimilarity(chunks, vectors, lexicalSimilarity()), embeddingModel: deps.embeddings.model };
  } catch (error) {
    const failure = toLlmError(error, 'embeddings');
    if (failure.code === 'aborted') throw failure;
    return { problem: `embeddings from ${deps.embeddings.model} failed (${failure.message}); MMR compared chunks by their words instead` };
  }
}

/** What one property's run reads (`runProperty`). */
interface PropertyInput {
  article: Article;
  property: PropertyDefinition;
  /** The scan's candidates for this property. */
  candidates: readonly Candidate[];
  /** The article's chunks and how MMR compares them, shared by all properties of the run. */
  context: ChunkContext;
  options: MatrixOptions & { models: PresetModels };
  deps: MatrixDependencies;
  /** The run's meter; the property's calls are the difference of its counts before and after. */
  meter: UsageMeter;
  /** Monotonic clock (ms). */
  now: () => number;
}

/** One property's verdicts and its run summary, for `runMatrixWithin` to add to the run. */
interface PropertyOutcome {
  records: VerificationRecord[];
  run: PropertyRun;
}

/** The text MoA, MCTS and refinement read for a property, and what choosing it found. */
interface ChosenText {
  /** Null when there is nothing to read (see `chooseText`). */
  text: string | null;
  /** The retrieval's summary; absent for the scan passage. */
  retrieval?: PropertyRetrieval;
  blockIds: string[];
  truncatedBlockIds: string[];
  passageChars: number;
  /** The reading stage's partial failures, in words. */
  problems: string[];
  /** Reading calls whose replies stayed unusable (their groups were not read). */
  failures: ReplyFailure[];
}

/** How a property's run ended: its verdicts, or no triplet and why, and what the stages reported. */
interface PropertyEnding {
  records?: VerificationRecord[];
  problems: readonly string[];
  earlyExit?: boolean;
  verification?: { rounds: number; converged: boolean };
  /** No triplet, and no failed call to blame: the property is "not provided" for this reason. */
  notProvided?: NotProvided['reason'];
  /** No triplet because these parts' calls failed: the property is not decided. */
  notDecided?: readonly FailedPart[];
}

/**
 * One property through SLM-MATRIX: choose its text (`chooseText`, or the scan passage), MoA, the
 * early exit or the generator–discriminator search, cross-verification with refinement, the
 * records' grounding notes, then Chain-of-Verification for the verified ones. Returns the
 * property's records and its `PropertyRun` (calls, time, retrieval, problems, and `notProvided` or
 * `notDecided` when it ends with no triplet); it changes nothing of the caller's. Errors: an
 * `LlmError` from the engine or a fired signal propagates (the caller ends the run).
 */
async function runProperty(input: PropertyInput): Promise<PropertyOutcome> {
  const { article, property, candidates, context, options, deps, meter, now } = input;
  const started = now();
  const { preset, models } = options;
  const callsBefore = meter.snapshot().total.calls;
  const { chunks } = context;
  const firstProblems = context.problem ? [context.problem] : [];
  const emit = (stage: MatrixStage, done: number, total: number): void =>
    deps.onProgress?.({ stage, property: property.name, done, total: Math.max(total, done) });
  /** A view of the meter counting under `meterStage` and reporting each answered call as progress of `stage`. */
  const staged = (stage: MatrixStage, meterStage: string, total: number): LlmPort => {
    const port = meter.stage(meterStage);
    let done = 0;
    return {
      complete: async (request) => {
        const reply = await port.complete(request);
        done += 1;
        emit(stage, done, total);
        return reply;
      },
    };
  };
  const chosen: ChosenText =
    options.reading === 'scan-passage' ? scanPassage(article, candidates, preset.maxPassageChars) : await chooseText(input, staged);
  /** The run summary as the property ends (`PropertyRun`, its keys in the order the record has always had). */
  const end = (ending: PropertyEnding): PropertyOutcome => {
    const calls = meter.snapshot().total.calls - callsBefore;
    const run: PropertyRun = {
      property: property.name,
      skipped: ending.notProvided !== undefined && calls === 0,
      blockIds: chosen.blockIds,
      truncatedBlockIds: chosen.truncatedBlockIds,
      passageChars: chosen.passageChars,
      candidates: candidates.length,
      earlyExit: ending.earlyExit ?? false,
      refinementRounds: ending.verification?.rounds ?? 0,
      converged: ending.verification?.converged ?? false,
      problems: [...ending.problems],
      milliseconds: Math.round(now() - started),
      ...(chosen.retrieval ? { retrieval: chosen.retrieval } : {}),
      calls,
      ...(ending.notProvided !== undefined
        ? {
            notProvided: {
              reason: ending.notProvided,
              chunksRanked: chosen.retrieval?.ranked ?? 0,
              chunksRead: chosen.retrieval?.read ?? 0,
              calls,
            },
          }
        : {}),
      ...(ending.notDecided !== undefined ? { notDecided: notDecided(ending.notDecided, calls) } : {}),
    };
    return { records: ending.records ?? [], run };
  };

  const readingProblems = [...firstProblems, ...chosen.problems];
  /** Set when reading calls failed: their groups were not read, by the reading stage or anyone after it. */
  const readingFailure: FailedPart | null =
    chosen.failures.length > 0
      ? {
          what: `${chosen.failures.length} of ${chosen.retrieval?.readingCalls ?? chosen.failures.length} reading calls failed (their passages were not read)`,
          failures: chosen.failures,
        }
      : null;
  if (chosen.text === null) {
    // A group whose call failed was not read: "nothing found" would claim more than was looked at.
    if (readingFailure) return end({ problems: readingProblems, notDecided: [readingFailure] });
    return end({ problems: readingProblems, notProvided: chosen.retrieval?.readingCalls ? 'nothing-found' : 'nothing-relevant' });
  }
  const passageText = chosen.text;

  const brief = propertyBrief(property);
  const moaOptions: MoaOptions = {
    layers: preset.layers,
    proposers: Array.from({ length: preset.proposers }, (_, index) =>
      models.proposers?.length ? models.proposers[index % models.proposers.length] : undefined,
    ),
    ...(models.aggregator ? { aggregator: models.aggregator } : {}),
    temperature: preset.temperature,
    maxTokens: preset.maxTokens,
    ...(options.parallel !== undefined ? { parallel: options.parallel } : {}),
  };
  const plannedMoaCalls = preset.layers * preset.proposers + 1;
  const moaRun = async (meterStage: string, disagreement: readonly string[] = []): Promise<MoaResult> => {
    throwIfAborted(deps.signal);
    return runMoa({ text: passageText, properties: [brief], article, ...(disagreement.length > 0 ? { disagreement } : {}) }, moaOptions, {
      llm: staged('moa', meterStage, plannedMoaCalls),
      sameMaterial: deps.sameMaterial,
      toSI: deps.toSI,
      ground: deps.ground,
      ...(deps.tolerance === undefined ? {} : { tolerance: deps.tolerance }),
      ...(deps.signal ? { signal: deps.signal } : {}),
    });
  };
  const firstMoa = await moaRun('moa');
  const moaTriplets = asProperty(firstMoa.triplets, property.name);

  const unanimous = preset.earlyExit ? unanimousGroundedAnswer(firstMoa, property.name, article, deps) : null;
  const earlyExit = unanimous !== null;
  const search = unanimous ? { triplets: unanimous, problems: [], failure: null } : await searchPath(passageText, property, input, staged);

  emit('cross-verify', 0, preset.K);
  // verifyPaths asks for the refinement rounds one after another; they are kept in order for the problems.
  const refinements: Array<{ round: number; result: MoaResult }> = [];
  const verification = await verifyPaths(
    {
      moaTriplets,
      gdTriplets: search.triplets,
      article,
      K: preset.K,
      runMoa: async (round, previous) => {
        emit('cross-verify', round - 1, preset.K);
        const result = await moaRun('refinement', disagreementLines(previous));
        refinements.push({ round, result });
        return asProperty(result.triplets, property.name);
      },
    },
    {
      sameMaterial: deps.sameMaterial,
      toSI: deps.toSI,
      ground: deps.ground,
      ...(deps.tolerance === undefined ? {} : { tolerance: deps.tolerance }),
    },
  );
  emit('cross-verify', preset.K, preset.K);
  const problems = [
    ...readingProblems,
    ...moaProblems(firstMoa, 'MoA'),
    ...search.problems,
    ...refinements.flatMap(({ round, result }) => moaProblems(result, `refinement ${round}`)),
  ];
  const ended = { problems, earlyExit, verification: { rounds: verification.rounds, converged: verification.converged } };

  const records = verification.records.map((decided) => reviewNotes(decided, earlyExit, article, deps));
  emit('ground', records.length, records.length);
  if (records.length === 0) {
    // Both paths' last answers were empty; "nothing found" only when both were answers and every
    // relevant group was read. The MoA answer compared last is the last refinement's, else the first.
    const lastMoa = refinements[refinements.length - 1]?.result ?? firstMoa;
    const failed = [readingFailure, moaFailure(lastMoa), search.failure].filter((part): part is FailedPart => part !== null);
    return failed.length > 0 ? end({ ...ended, notDecided: failed }) : end({ ...ended, notProvided: 'nothing-found' });
  }
  // Chain-of-Verification (Eunomia): the verified triplets' questions, under a stage of their own.
  throwIfAborted(deps.signal);
  const checked = await verifyByQuestions({ article, property, records, ...(chunks.length > 0 ? { chunks } : {}) }, options, {
    llm: meter.stage('verification-questions'),
    onProgress: (done, total) => emit('verification-questions', done, total),
    ...(deps.signal ? { signal: deps.signal } : {}),
  });
  return end({ ...ended, records: checked.records, problems: [...problems, ...checked.problems] });
}

/**
 * A decided record as stored: its evidence completed with the selectors a reader's tools re-anchor
 * by, the search path's vote named `proposers` after an early exit (the unanimous proposers stood
 * in for it), and for a `needs_review` record the grounding gate's doubts as reasons.
 */
function reviewNotes(
  decided: VerificationRecord,
  earlyExit: boolean,
  article: Article,
  deps: Pick<MatrixDependencies, 'ground'>,
): VerificationRecord {
  // Models quote bare sentences; store the selectors a reader's tools re-anchor by (position, prefix, suffix, block, page).
  const record = decided.triplet.evidence
    ? { ...decided, triplet: { ...decided.triplet, evidence: completeEvidence(article, decided.triplet.evidence) } }
    : decided;
  const relabelled = earlyExit ? { ...record, votes: record.votes.map((vote) => (vote === 'gd' ? 'proposers' : vote)) } : record;
  if (relabelled.status !== 'needs_review') return relabelled;
  // Not decided by the gate, but a reviewer should see whether the kept quote holds up.
  const grounding = deps.ground(relabelled.triplet, article);
  if (!grounding.grounded)
    return { ...relabelled, reasons: [...relabelled.reasons, ...grounding.reasons.map((reason) => `not grounded: ${reason}`)] };
  // And the fact check's doubts about a quote that holds up (a value outside its property's range, issue 27).
  const doubts = (grounding.fact?.reasons ?? []).filter((reason) => !relabelled.reasons.includes(reason));
  return doubts.length === 0 ? relabelled : { ...relabelled, reasons: [...relabelled.reasons, ...doubts] };
}

/** The scan-candidate passage (`buildPassage`) as the chosen text; null text when it is empty. */
function scanPassage(article: Article, candidates: readonly Candidate[], maxChars: number): ChosenText {
  const passage = buildPassage(article, candidates, maxChars);
  return {
    text: passage.text === '' ? null : passage.text,
    blockIds: passage.blockIds,
    truncatedBlockIds: passage.truncatedBlockIds,
    passageChars: passage.text.length,
    problems: [],
    failures: [],
  };
}

/**
 * The generator–discriminator path for `property` over `passage` (MCTS, then the discriminator):
 * its triplets, its partial failures in words, and the failed part when it gave no usable
 * trajectory because its generator calls failed (else null).
 */
async function searchPath(
  passage: string,
  property: PropertyDefinition,
  { article, options, deps }: PropertyInput,
  staged: (stage: MatrixStage, meterStage: string, total: number) => LlmPort,
): Promise<{ triplets: Triplet[]; problems: string[]; failure: FailedPart | null }> {
  const { preset, models } = options;
  throwIfAborted(deps.signal);
  const generator = staged('mcts', 'mcts', preset.mcts.rollouts * preset.mcts.depth);
  const discriminator = staged('discriminator', 'discriminator', preset.mcts.paths);
  const router: LlmPort = {
    complete: (request) =>
      (request.role === 'discriminator' ? discriminator : generator).complete({ ...request, ...(modelFor(request.role, models) ?? {}) }),
  };
  const gd = await runGeneratorDiscriminator(
    { passage, property: property.name, propertyDescription: `${property.label}, in ${property.units.join(' or ')}` },
    { ...preset.mcts, scoreWeights: preset.scoreWeights, ...(options.parallel !== undefined ? { parallel: options.parallel } : {}) },
    {
      llm: router,
      rng: deps.rng,
      ground: (triplet) => deps.ground({ ...triplet, property: property.name }, article).grounded,
      sameMaterial: deps.sameMaterial,
      ...(deps.signal ? { signal: deps.signal } : {}),
    },
  );
  const problems = gdProblems(gd.mcts.failures, gd.mcts.generatorSteps, gd.scored);
  let failure: FailedPart | null = null;
  if (!gd.best) {
    problems.push('the MCTS path produced no usable trajectory');
    if (gd.mcts.failures.length > 0)
      failure = {
        what: `the search path gave no usable trajectory (${gd.mcts.failures.length} of ${gd.mcts.generatorSteps} generator replies failed)`,
        failures: gd.mcts.failures,
      };
  }
  const triplets = asProperty(
    gd.triplets.map((triplet) => toTriplet(triplet, 'mcts')),
    property.name,
  );
  return { triplets, problems, failure };
}

/**
 * The text MoA, MCTS and refinement read for `input.property` (src/matrix/reading.ts) and what
 * choosing it found: the retrieval summary, the blocks read and left out, the passage's length.
 * The one group when every relevant chunk fits in one call; else the reading stage's calls
 * (through `staged('reading', …)`) and the focused passage. → `text` null when there is nothing
 * to read (no relevant chunk), or when the reading stage found no triplet and the scan no
 * candidate (two independent signals that the paper does not state the property; the MoA, MCTS
 * calls are saved); `failures`: the reading calls whose replies stayed unusable (their groups
 * were not read).
 */
async function chooseText(
  { article, property, candidates, context, options, deps }: PropertyInput,
  staged: (stage: MatrixStage, meterStage: string, total: number) => LlmPort,
): Promise<ChosenText> {
  const { preset, models } = options;
  const budget = retrievalOf(preset);
  const countTokens = deps.countTokens ?? approximateTokenCount;
  const { chunks } = context;
  const plan = planReading(chunks, property, candidates, budget, countTokens, context.similarity);
  const read = plan.groups.reduce((sum, group) => sum + group.chunks.length, 0);
  const retrieval: PropertyRetrieval = {
    chunks: plan.chunks,
    ranked: plan.ranked.length,
    read,
    groups: plan.groups.length,
    readingCalls: plan.reading ? plan.groups.length : 0,
    readingTriplets: 0,
    focusedChunks: 0,
    leftOut: plan.leftOut.map((entry) => entry.chunk.id),
    quotesLeftOut: [],
    similarity: context.embeddingModel ? 'embedding' : 'lexical',
    ...(context.embeddingModel ? { embeddingModel: context.embeddingModel } : {}),
  };
  const truncatedBlockIds = [...new Set(plan.leftOut.map((entry) => entry.chunk.blockId))];
  const nothing = { text: null, blockIds: [], truncatedBlockIds, passageChars: 0 };
  if (plan.groups.length === 0) return { ...nothing, retrieval, problems: [], failures: [] };
  if (!plan.reading) return chosenGroup(plan.groups[0]!, retrieval, truncatedBlockIds, [], []);
  throwIfAborted(deps.signal);
  const reading = await readGroups(
    plan.groups,
    propertyBrief(property),
    {
      ...(models.proposers?.[0] ? { model: models.proposers[0] } : {}),
      temperature: preset.temperature,
      maxTokens: preset.maxTokens,
      ...(options.parallel !== undefined ? { parallel: options.parallel } : {}),
    },
    { llm: staged('reading', 'reading', plan.groups.length), ...(deps.signal ? { signal: deps.signal } : {}) },
  );
  const afterReading = { ...retrieval, readingTriplets: reading.triplets.length };
  if (reading.triplets.length === 0 && candidates.length === 0)
    return { ...nothing, retrieval: afterReading, problems: reading.problems, failures: reading.failures };
  const focused = focusedPassage(plan, quoteChunks(article, chunks, reading.triplets), budget, countTokens);
  return chosenGroup(
    focused.group,
    { ...afterReading, quotesLeftOut: focused.quotesLeftOut.map((chunk) => chunk.id) },
    truncatedBlockIds,
    reading.problems,
    reading.failures,
  );
}

/** The chosen text when `group` is read: its text, blocks and length, and the retrieval with its focused chunks. */
function chosenGroup(
  group: ChunkGroup,
  retrieval: PropertyRetrieval,
  truncatedBlockIds: string[],
  problems: string[],
  failures: ReplyFailure[],
): ChosenText {
  return {
    text: group.text,
    retrieval: { ...retrieval, focusedChunks: group.chunks.length },
    blockIds: [...new Set(group.chunks.map((entry) => entry.chunk.blockId))],
    truncatedBlockIds,
    passageChars: group.text.length,
    problems,
    failures,
  };
}

/**
 * The search path's partial failures in words: generator replies that stayed unusable (each ended
 * its branch with reward 0) and reconstructions the discriminator could not give (consistency 0).
 * Empty when there were none.
 */
function gdProblems(
  failures: readonly ReplyFailure[],
  steps: number,
  scored: ReadonlyArray<{ reconstructionFailure?: ReplyFailure }>,
): string[] {
  const problems: string[] = [];
  if (failures.length > 0)
    problems.push(
      `MCTS: ${failures.length} of ${steps} generator replies were unusable and ended their branch (first: ${failures[0]!.message})`,
    );
  scored.forEach((entry, index) => {
    if (entry.reconstructionFailure)
      problems.push(`discriminator, path ${index + 1}: ${entry.reconstructionFailure.message}; its consistency counts 0`);
  });
  return problems;
}

/** The model of a G–D role from the preset (`{ model }`), or undefined to let the engine's roster pick. */
function modelFor(role: string, models: PresetModels): { model: string } | undefined {
  const model = role === 'generator' ? models.generator : role === 'discriminator' ? models.discriminator : undefined;
  return model ? { model } : undefined;
}
