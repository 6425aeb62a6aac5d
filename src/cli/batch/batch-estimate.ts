/**
 * `assay extract … --estimate` (issue 16, "cost before running"): how many papers, pages and
 * characters a batch holds, and the calls and tokens the SLM-MATRIX pipeline will spend on it
 * with the chosen preset and models, counted by running the real pipeline with the preset
 * bench's scripted engine (src/bench/bench-presets.ts) and no model at all.
 */
import { toCaptureFailure } from '../../capture/errors';
import type { Article } from '../../contracts/article';
import { defaultWebLlmRoster, rosterToPresetModels } from '../../llm/roster';
import type { TokenCounter } from '../../llm/tokenizers';
import type { PropertyDefinition } from '../../properties';
import { presetModelIds, scriptedPresetRun, tokenCountersFor, type BenchScenario } from '../../bench/bench-presets';
import { captureFile } from '../capture-command';
import type { MatrixPreset, PresetModels } from '../../contracts/matrix-preset';

/** A best-case and a worst-case figure. */
export interface CostRange {
  best: number;
  worst: number;
}

/** What `estimateBatch` counts; see there for what best and worst mean. */
export interface BatchEstimate {
  /** Files given. */
  papers: number;
  /** Files captured. */
  readable: number;
  /** Files capture refused, in the order given, with the capture failure's code and message. */
  unreadable: Array<{ file: string; code: string; message: string }>;
  /** PDF pages in total (`article.pageCount`); other documents have no pages. */
  pages: number;
  /** How many papers had a page count. */
  pagedPapers: number;
  /** Captured text characters in total (`article.text.length`, UTF-16 code units). */
  characters: number;
  preset: string;
  /** The model ids, distinct, in role order (proposers, aggregator, generator, discriminator). */
  models: string[];
  /** `exact` when every model's tokenizer is known, else `estimated` (chars/4 for the others). */
  tokens: 'exact' | 'estimated';
  calls: CostRange;
  promptTokens: CostRange;
  /** Of the scripts' short replies: a floor (real models write more). */
  completionTokens: CostRange;
  /** Readable papers for which the pipeline makes no call for any property (nothing relevant to read). */
  papersWithoutCandidates: number;
  /** How long the estimate took (s). */
  seconds: number;
}

/** What `estimateBatch` runs with. */
export interface BatchEstimateOptions {
  preset: MatrixPreset;
  /** Models per role; roles left out take the preset's, then the default WebLLM roster's (`defaultWebLlmRoster(true)`). */
  models: PresetModels;
  properties: readonly PropertyDefinition[];
  /** Papers captured and run at once (default 2: one file is read while another is counted). */
  concurrency?: number;
  /** Stops the estimate: checked before each paper and each run; rejects with `signal.reason`. */
  signal?: AbortSignal;
  /** Called after each paper, readable or not, with papers done and papers given. */
  onPaper?: (done: number, total: number) => void;
}

/**
 * `models` with every role filled: the caller's, then `preset.models`, then the WebLLM roster the
 * extension runs the browser preset with (the browser preset names no models of its own).
 */
export function estimateModels(preset: MatrixPreset, models: PresetModels): PresetModels {
  const roster = rosterToPresetModels(defaultWebLlmRoster(true));
  const pick = (role: 'aggregator' | 'generator' | 'discriminator') => models[role] ?? preset.models[role] ?? roster[role];
  return {
    proposers: models.proposers?.length ? models.proposers : preset.models.proposers?.length ? preset.models.proposers : roster.proposers,
    aggregator: pick('aggregator'),
    generator: pick('generator'),
    discriminator: pick('discriminator'),
  };
}

const SCENARIOS: readonly BenchScenario[] = ['best', 'worst'];

/**
 * The cost of running `options.preset` with `options.models` on each of `files`, before running
 * it, without calling a model. Each file is captured (`captureFile`), then for each property the
 * real pipeline (`runMatrix`, retrieval reading, as `assay extract` runs it) is run twice with the
 * preset bench's scripted engine, and every call's prompt and reply are counted with the call's
 * model's own tokenizer (chat template applied; src/llm/tokenizers.ts; one tokenizer loaded per
 * family). Figures are sums over papers and properties.
 *
 * - best: `bestCaseScript` — every role states the same grounded triplet (the paper's first
 *   numeric scan candidate), so the MoA and G–D paths agree at once: no refinement round, the
 *   browser preset exits early (no MCTS), and one Chain-of-Verification call follows.
 * - worst: `worstCaseScript` — the proposers of a layer disagree (no early exit), the generator's
 *   steps are never final (every rollout runs to the depth limit), and the paths agree only in
 *   the last of the K refinement rounds, so all K rounds run, then Chain-of-Verification.
 *
 * Completion tokens are a floor: the scripts reply tersely and real models write more. Not
 * modelled: repair calls (a malformed reply costs one more call, so a model that is malformed
 * every time can double calls), retries after failures, and embeddings (retrieval ranks chunks
 * lexically here; with `--embedding-model` the chunks read may differ). A paper for which the
 * pipeline finds nothing relevant to read costs no call and counts in `papersWithoutCandidates`.
 *
 * Memory: a paper is dropped once counted; at most `concurrency` articles are held at once.
 * Errors: a file capture refuses is listed in `unreadable`, never thrown; rejects with
 * `signal.reason` when aborted, and if a tokenizer package fails to load.
 */
export async function estimateBatch(files: readonly string[], options: BatchEstimateOptions): Promise<BatchEstimate> {
  const started = performance.now();
  options.signal?.throwIfAborted();
  const models = estimateModels(options.preset, options.models);
  const modelIds = presetModelIds(models);
  const counterFor = await tokenCountersFor(modelIds);
  const estimate: BatchEstimate = {
    papers: files.length,
    readable: 0,
    unreadable: [],
    pages: 0,
    pagedPapers: 0,
    characters: 0,
    preset: options.preset.name,
    models: modelIds,
    tokens: modelIds.every((id) => counterFor(id).exact) ? 'exact' : 'estimated',
    calls: { best: 0, worst: 0 },
    promptTokens: { best: 0, worst: 0 },
    completionTokens: { best: 0, worst: 0 },
    papersWithoutCandidates: 0,
    seconds: 0,
  };
  const unreadable = new Map<number, BatchEstimate['unreadable'][number]>();
  let next = 0;
  let done = 0;
  const worker = async (): Promise<void> => {
    while (next < files.length) {
      const index = next++;
      const file = files[index]!;
      options.signal?.throwIfAborted();
      let article: Article;
      try {
        article = await captureFile(file);
      } catch (error) {
        unreadable.set(index, { file, ...toCaptureFailure(error) });
        options.onPaper?.(++done, files.length);
        continue;
      }
      estimate.readable += 1;
      estimate.characters += article.text.length;
      if (article.pageCount !== undefined) {
        estimate.pages += article.pageCount;
        estimate.pagedPapers += 1;
      }
      if (!(await addPaperCost(estimate, article, options, models, counterFor))) estimate.papersWithoutCandidates += 1;
      options.onPaper?.(++done, files.length);
    }
  };
  const concurrency = Math.max(1, Math.min(options.concurrency ?? 2, files.length));
  await Promise.all(Array.from({ length: concurrency }, worker));
  estimate.unreadable = [...unreadable.keys()].sort((a, b) => a - b).map((index) => unreadable.get(index)!);
  estimate.seconds = (performance.now() - started) / 1000;
  return estimate;
}

/** Add the best- and worst-case runs of every property on `article` to `estimate`. → whether any run made a call. */
async function addPaperCost(
  estimate: BatchEstimate,
  article: Article,
  options: BatchEstimateOptions,
  models: PresetModels,
  counterFor: (modelId: string) => TokenCounter,
): Promise<boolean> {
  let called = false;
  // The best and worst runs share their chunks' counts and first prompts (the first MoA layer).
  const memo = new Map<string, number>();
  for (const property of options.properties) {
    for (const scenario of SCENARIOS) {
      options.signal?.throwIfAborted();
      const { cost } = await scriptedPresetRun(article, options.preset, property, scenario, {
        models,
        counterFor,
        memo,
        schemas: options.properties,
      });
      estimate.calls[scenario] += cost.calls;
      estimate.promptTokens[scenario] += cost.promptTokens;
      estimate.completionTokens[scenario] += cost.completionTokens;
      if (cost.calls > 0) called = true;
    }
  }
  return called;
}

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const decimal = new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** "2,400–9,800", or in millions past 10^6 at the worst end: "3.1–12.4 M". */
function formatRange(range: CostRange): string {
  if (range.worst >= 1_000_000) return `${decimal.format(range.best / 1e6)}–${decimal.format(range.worst / 1e6)} M`;
  return range.best === range.worst ? integer.format(range.best) : `${integer.format(range.best)}–${integer.format(range.worst)}`;
}

/** At most this many unreadable files are named; the rest are counted. */
const UNREADABLE_SHOWN = 5;

/**
 * A few lines for the terminal (no trailing newline): papers, unreadable and pages; preset and
 * models; calls; prompt and completion tokens (best–worst; completion tokens said to be a
 * floor); the time taken; then the first unreadable files with their reasons.
 */
export function formatEstimate(estimate: BatchEstimate): string {
  const unreadableCount = estimate.unreadable.length;
  const pages =
    estimate.pagedPapers > 0 ? `${integer.format(estimate.pages)} PDF pages in ${integer.format(estimate.pagedPapers)} PDFs` : 'no PDFs';
  const lines = [
    `${integer.format(estimate.papers)} papers (${unreadableCount} unreadable), ${pages}, ${integer.format(estimate.characters)} characters`,
    `preset ${estimate.preset} (${estimate.models.join(', ')})`,
    `${formatRange(estimate.calls)} calls (best–worst case); ${integer.format(estimate.papersWithoutCandidates)} papers with nothing to read make none`,
    `${formatRange(estimate.promptTokens)} prompt tokens (${estimate.tokens}); at least ${formatRange(estimate.completionTokens)} completion tokens (scripted replies: real models write more); repair calls not counted`,
    `estimated in ${decimal.format(estimate.seconds)} s without calling a model`,
  ];
  for (const { file, code, message } of estimate.unreadable.slice(0, UNREADABLE_SHOWN))
    lines.push(`unreadable: ${file}: ${message} [${code}]`);
  if (unreadableCount > UNREADABLE_SHOWN) lines.push(`… and ${unreadableCount - UNREADABLE_SHOWN} more unreadable`);
  return lines.join('\n');
}
