/**
 * `assay eval <dataset> [--split dev] [--data DIR] [--version pub|arxiv] [--engine NAME]
 * [--replay NAME] [--all-replays] [--reference FILE] [--limit N] [--json]`.
 * With `--json`: one JSON document on stdout; every scoring run carries, per result, `strict`
 * (the headline: top-level `precision`, `recall`, `f1` equal it) and `lenient` objects, each
 * `{ precision, recall, f1, predictions, truths, matched }`, and the run's `predictions` and
 * `truths` records (src/eval/rescorable.ts) so it can be re-scored; without `--json`, a Markdown
 * table. Progress goes to stderr. Datasets:
 * - `bandgap-200` (`--replay`, `--all-replays`, `--replay-vote A,B,C`, `--engine`, `--version
 *   pub|arxiv|both`), `supermat` and `polyie` (`--engine`): triplets, src/eval/triplet-scorer.ts;
 *   `bandgap-200 --engine NAME --halves` scores one run on the odd- and even-indexed papers side
 *   by side (a fixed split, src/eval/bandgap/bandgap-halves.ts);
 * - `sofc-exp`, `msptc` (`--engine`): value slots and relations, plus the quantity parser's spans;
 * - `measeval`, `mulms`: the quantity parser's spans (exact = strict, overlap = lenient);
 * - `llm-nerre-doping`, `llm-nerre-general`, `llm-nerre-mof` (`--predictions FILE`, `--baseline
 *   NAME`, `--engine` for general/mof): entities and links as LLM-NERRE scores them;
 * - `eunomia-water-stability` (alias `eunomia`; model engines only) and `comproscanner-piezo
 *   --texts DIR`;
 * - `cornell-tc`: precedent questions answered from a reference table (`--reference FILE`) with
 *   each question's own row and reference code left out (`"setup": "leave-one-out"`); the full
 *   table, an oracle, only with `--oracle-full-table`; `supermat-chain`: precedent answered from a
 *   dataset the engine extracted from the SuperMat PDFs.
 * `--engine <kind>` with a CLI kind of the engine registry (openai, scripted) runs the SLM-MATRIX
 * pipeline with the engine options of `assay extract` (`--base-url`, `--model ROLE=ID`,
 * `--preset`, `--script`, `--seed`, `--api-key-env`, `--concurrency`); the JSON then carries the
 * run's `llm` totals. `--context` and `--attribution` measure retrieval and attribution instead.
 */
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { captureFile } from './capture-command';
import { resolveDataRoot } from '../eval/data-root';
import type { EngineSetup } from '../eval/extractor';
import { evaluateBandgap, type BandgapEvaluation, type BandgapSource } from '../eval/bandgap/bandgap-evaluation';
import { BANDGAP_VERSIONS, REPLAY_NAMES, type BandgapVersion } from '../eval/bandgap/bandgap-dataset';
import { scoreTable, type ScoreRow } from '../eval/report-table';
import { evaluateSupermat } from '../eval/supermat/supermat-evaluation';
import type { Article } from '../contracts/article';
import type { Triplet } from '../contracts/triplet';
import { engineRegistry, type EngineRegistry } from '../llm/engines/registry';
import { MATRIX_ENGINE_OPTIONS, matrixEngineOptions, type MatrixEngineFlags } from './matrix-engines';
import { EngineUsageError } from '../llm/engines/engine-kind';
import type { ScorerDependencies } from '../eval/triplet-scorer-types';

/** What `runEval` needs from the rest of Assay; injected so tests can pass doubles. */
export interface EvalCommandDependencies {
  /** Builds the scorer's unit converter and material comparison for a data root. */
  scorerDependencies: (dataRoot: string) => Promise<ScorerDependencies>;
  /** Engines by `--engine` name (e.g. `rules`), loaded on demand; an absent name is reported as unavailable. */
  engines: Record<string, () => Promise<EngineSetup>>;
  /** Other datasets' evaluators by name (`measeval`, `mulms`), given the data root; each returns one JSON-able result. */
  datasets: Record<string, (dataRoot: string, options: { limit?: number }) => Promise<object>>;
  /** The model engine kinds `--engine <kind>` may name (their CLI part; default the engine registry of src/llm/engines/registry.ts). */
  engineRegistry?: EngineRegistry;
}

const NERRE_NEEDS_MODEL =
  'llm-nerre-doping is scored on model output: give --predictions FILE, or --engine openai|scripted once the SLM-MATRIX engine lands';

/**
 * The defaults wired in this build. Loaded lazily so that a test injecting its own doubles does
 * not load the unit table or the materials parser.
 */
export function defaultEvalDependencies(): EvalCommandDependencies {
  return {
    scorerDependencies: async (dataRoot) => (await import('../eval/scorer-dependencies')).loadScorerDependencies(dataRoot),
    engines: { rules: async () => (await import('../eval/rules-engine')).rulesEngine() },
    datasets: {
      measeval: async (dataRoot, options) =>
        (await import('../eval/measeval')).evaluateMeasEval(join(dataRoot, 'datasets', 'measeval', 'data'), options),
      mulms: async (dataRoot, options) =>
        (await import('../eval/mulms')).evaluateMulms(join(dataRoot, 'datasets', 'mulms', 'xmi'), options),
    },
  };
}

class UsageError extends Error {}

function parseLimit(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const limit = Number(text);
  if (!Number.isInteger(limit) || limit < 1) throw new UsageError(`--limit must be a positive integer, got "${text}"`);
  return limit;
}

function parseVersions(text: string | undefined, allowBoth: boolean): BandgapVersion[] {
  const value = text ?? 'pub';
  if (value === 'both' && allowBoth) return [...BANDGAP_VERSIONS];
  if ((BANDGAP_VERSIONS as readonly string[]).includes(value)) return [value as BandgapVersion];
  throw new UsageError(`--version must be pub or arxiv${allowBoth ? ' (or both, with --all-replays)' : ''}, got "${value}"`);
}

function toRow(result: BandgapEvaluation): ScoreRow {
  return { name: result.replay ?? result.engine ?? '?', ...result };
}

/** The flags `runEval` parses (`parseArgs`'s option table). */
const EVAL_OPTIONS = {
  json: { type: 'boolean' },
  split: { type: 'string' },
  data: { type: 'string' },
  version: { type: 'string' },
  engine: { type: 'string' },
  replay: { type: 'string' },
  'all-replays': { type: 'boolean' },
  limit: { type: 'string' },
  reference: { type: 'string' },
  'oracle-full-table': { type: 'boolean' },
  predictions: { type: 'string' },
  baseline: { type: 'string' },
  'replay-vote': { type: 'string' },
  context: { type: 'boolean' },
  k: { type: 'string' },
  'call-tokens': { type: 'string' },
  'reading-calls': { type: 'string' },
  attribution: { type: 'boolean' },
  halves: { type: 'boolean' },
  texts: { type: 'string' },
  ...MATRIX_ENGINE_OPTIONS,
} as const;

type EvalFlags = ReturnType<typeof parseArgs<{ args: string[]; allowPositionals: true; options: typeof EVAL_OPTIONS }>>['values'];

/** What one dataset's evaluator gets: the name asked for, the flags, the data root, the engines and an output. */
interface EvalContext {
  dataset: string;
  values: EvalFlags;
  dataRoot: string;
  dependencies: EvalCommandDependencies;
  /** The SLM-MATRIX engines' cost totals (`{}` when none ran). */
  matrixTotals: () => { llm?: MatrixTotals };
  /** stdout. */
  write: (text: string) => void;
}

/** One dataset of `assay eval`: its evaluator (writes its report, throws `UsageError` on bad flags). */
interface EvalDataset {
  run(context: EvalContext): Promise<void>;
  /**
   * True when the dataset ignores the other datasets' own flags (`FOREIGN_FLAGS`) rather than
   * refusing them; kept for supermat, which has always ignored them.
   */
  ignoresForeignFlags?: boolean;
}

/** Flags that belong to one dataset, refused with any other (in this order, after `--split`). */
const FOREIGN_FLAGS: ReadonlyArray<{ flags: ReadonlyArray<keyof EvalFlags>; owners: readonly string[]; message: string }> = [
  { flags: ['reference'], owners: ['cornell-tc'], message: '--reference applies to cornell-tc only' },
  { flags: ['oracle-full-table'], owners: ['cornell-tc'], message: '--oracle-full-table applies to cornell-tc only' },
  {
    flags: ['predictions', 'baseline'],
    owners: ['llm-nerre-doping', 'llm-nerre-general', 'llm-nerre-mof'],
    message: '--predictions and --baseline apply to llm-nerre-doping, llm-nerre-general and llm-nerre-mof only',
  },
  { flags: ['halves'], owners: ['bandgap-200'], message: '--halves applies to bandgap-200 only' },
];

/** The built-in datasets by name, in the order the usage error lists them; `dependencies.datasets` follow. */
const DATASETS: Record<string, EvalDataset> = {
  'bandgap-200': { run: evaluateBandgapDataset },
  supermat: { run: evaluateSupermatDataset, ignoresForeignFlags: true },
  'cornell-tc': { run: evaluateCornellTcDataset },
  'llm-nerre-doping': { run: evaluateNerreDataset },
  polyie: { run: evaluatePolyieDataset },
  'sofc-exp': { run: evaluateValueCorpusDataset },
  msptc: { run: evaluateValueCorpusDataset },
  'supermat-chain': { run: evaluateSupermatChainDataset },
  'eunomia-water-stability': { run: evaluateEunomiaDataset },
  eunomia: { run: evaluateEunomiaDataset },
  'comproscanner-piezo': { run: evaluateComproscannerPiezoDataset },
  'llm-nerre-general': { run: evaluateNerreEntryDataset },
  'llm-nerre-mof': { run: evaluateNerreEntryDataset },
};

/**
 * An injected evaluator (`measeval`, `mulms`) as a dataset: one JSON result `{ dataset, split,
 * …figures }`, indented in a Markdown code block without `--json` (nested span P/R/F1 per kind).
 */
function injectedDataset(evaluator: EvalCommandDependencies['datasets'][string]): EvalDataset {
  return {
    run: async ({ dataset, values, dataRoot, write }) => {
      const limit = parseLimit(values.limit);
      const result = { dataset, split: 'dev', ...(await evaluator(dataRoot, limit === undefined ? {} : { limit })) };
      write(values.json ? JSON.stringify(result) + '\n' : '```json\n' + JSON.stringify(result, null, 2) + '\n```\n');
    },
  };
}

/**
 * `assay eval …` (flags in the module comment). Returns the exit code: 0 success, 1 evaluation
 * failure, 2 bad usage (no or several datasets, an unknown dataset — the message lists the
 * built-in and injected names — a flag of another dataset, a bad `--split`, `--limit`,
 * `--version`, engine or replay). Reports go to stdout, progress and errors to stderr.
 */
export async function runEval(argv: string[], dependencies: EvalCommandDependencies = defaultEvalDependencies()): Promise<number> {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { ...EVAL_OPTIONS, ...matrixEngineOptions(dependencies.engineRegistry) },
    });
    const matrix = matrixEngines(values.engine, values, dependencies.engineRegistry);
    dependencies = { ...dependencies, engines: { ...matrix.engines, ...dependencies.engines } };
    const [dataset] = positionals;
    if (!dataset || positionals.length > 1)
      throw new UsageError('give exactly one dataset: assay eval <dataset> [--replay NAME | --engine NAME | --all-replays] [--json]');
    if (values['replay-vote'] !== undefined && dataset !== 'bandgap-200')
      throw new UsageError('--replay-vote applies to bandgap-200 only (its recorded tools)');
    if (values.split && values.split !== 'dev') throw new UsageError(`only the dev split exists, got --split ${values.split}`);
    const dataRoot = resolveDataRoot(values.data);
    if (values.attribution) {
      await evaluateAttributionDataset(dataset, values, dataRoot, dependencies);
      return 0;
    }
    if (values.context) {
      await evaluateContextDataset(dataset, values, dataRoot, dependencies);
      return 0;
    }

    const entry = Object.hasOwn(DATASETS, dataset)
      ? DATASETS[dataset]
      : Object.hasOwn(dependencies.datasets, dataset)
        ? injectedDataset(dependencies.datasets[dataset]!)
        : undefined;
    if (!entry?.ignoresForeignFlags)
      for (const { flags, owners, message } of FOREIGN_FLAGS)
        if (!owners.includes(dataset) && flags.some((flag) => values[flag])) throw new UsageError(message);
    if (!entry)
      throw new UsageError(
        `unknown dataset "${dataset}" (supported: ${[...Object.keys(DATASETS), ...Object.keys(dependencies.datasets)].join(', ')})`,
      );
    await entry.run({ dataset, values, dataRoot, dependencies, matrixTotals: matrix.totals, write: (text) => process.stdout.write(text) });
    return 0;
  } catch (error) {
    process.stderr.write(`assay eval: ${(error as Error).message}\n`);
    return error instanceof UsageError ||
      error instanceof EngineUsageError ||
      (error as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION'
      ? 2
      : 1;
  }
}

const progress = (line: string) => process.stderr.write(line + '\n');

/**
 * The engine `--engine NAME` names (default `rules`) and its loader; a `UsageError` when this
 * build has no engine of that name.
 */
function chosenEngine(values: EvalFlags, dependencies: EvalCommandDependencies): { name: string; load: () => Promise<EngineSetup> } {
  const name = values.engine ?? 'rules';
  const load = dependencies.engines[name];
  if (!load) throw new UsageError(`engine "${name}" is not available in this build`);
  return { name, load };
}

/**
 * `--attribution` on bandgap-200 (`--version pub|arxiv`), supermat or polyie: the attribution
 * check's acceptance of located truths and rejection of swapped ones (src/eval/attribution/).
 * JSON `{ dataset, split, version, truthAccepted, swapsRejected, truths, swaps, byKind, … }`.
 */
async function evaluateAttributionDataset(
  dataset: string,
  values: EvalFlags,
  dataRoot: string,
  dependencies: EvalCommandDependencies,
): Promise<void> {
  const { ATTRIBUTION_DATASETS, runAttributionEvaluation } = await import('../eval/attribution/attribution-datasets');
  if (!(ATTRIBUTION_DATASETS as readonly string[]).includes(dataset))
    throw new UsageError(`--attribution applies to ${ATTRIBUTION_DATASETS.join(', ')}, not ${dataset}`);
  if (values.replay || values.engine || values['all-replays'] || values['replay-vote'])
    throw new UsageError('--attribution checks the ground truth itself; --replay, --engine and --all-replays do not apply');
  if (values.version !== undefined && dataset !== 'bandgap-200') throw new UsageError('--version applies to bandgap-200 only');
  const [version] = parseVersions(values.version, false) as [BandgapVersion];
  const { defaultAttributionDependencies } = await import('../verify/attribution');
  const report = await runAttributionEvaluation({
    dataset: dataset as (typeof ATTRIBUTION_DATASETS)[number],
    dataRoot,
    version,
    limit: parseLimit(values.limit),
    capture: (path) => captureFile(path),
    convert: (await dependencies.scorerDependencies(dataRoot)).convert,
    dependencies: defaultAttributionDependencies(),
    progress,
  });
  const text = values.json
    ? JSON.stringify(report) + '\n'
    : '```json\n' + JSON.stringify({ ...report, failures: report.failures.length }, null, 2) + '\n```\n';
  process.stdout.write(text);
}

/** Chunk tokens per call of the retrieval path by preset: the browser preset's 1,200 keep a call near 1,500 prompt tokens with the instructions; the paper preset's 3,000 match its 12,000-character passage cap. */
const CALL_TOKENS: Record<string, number> = { browser: 1200, paper: 3000 };

/** MMR's k values and per-call token budgets of the recall-versus-budget curve. */
const CURVE_K = [3, 6, 9, 12, 18, Infinity];
const CURVE_TOKENS = [600, 1200, 2400];

/**
 * `--context` on bandgap-200 (`--version pub|arxiv`), supermat, polyie or sofc-exp (all its
 * papers, with properties a reader defines: src/eval/sofc-exp/sofc-exp-evidence.ts), with `--preset
 * browser|paper` (default browser), `--reading-calls N` (the preset's cap on reading calls, for a
 * stress test: 3 instead of 7 reads a paper as if it were 2.3 times as long), `--k N` (default 9,
 * Eunomia) and `--call-tokens N` (default by preset): context recall of today's passages, the
 * retrieval path and the curve (src/eval/context/). JSON `{ contextRecall, locatable, inContext, truths, promptTokensPerCall,
 * callsPerPaper, retrieval, curve, … }`.
 */
async function evaluateContextDataset(
  dataset: string,
  values: EvalFlags,
  dataRoot: string,
  dependencies: EvalCommandDependencies,
): Promise<void> {
  const { CONTEXT_DATASETS } = await import('../eval/evidence/evidence-datasets');
  if (!(CONTEXT_DATASETS as readonly string[]).includes(dataset))
    throw new UsageError(`--context applies to ${CONTEXT_DATASETS.join(', ')}, not ${dataset}`);
  if (values.replay || values.engine || values['all-replays'] || values['replay-vote'] || values.attribution)
    throw new UsageError('--context measures what the models would read; --replay, --engine, --all-replays and --attribution do not apply');
  if (values.version !== undefined && dataset !== 'bandgap-200') throw new UsageError('--version applies to bandgap-200 only');
  const [version] = parseVersions(values.version, false) as [BandgapVersion];
  const presetName = values.preset ?? 'browser';
  const [{ presetByName, retrievalOf }, { loadPropertySchemas }, { tokenCounterFor }, { runContextEvaluation }] = await Promise.all([
    import('../matrix/presets'),
    import('../properties'),
    import('../llm/tokenizers'),
    import('../eval/context/context-evaluation'),
  ]);
  const named = presetByName(presetName);
  if (!named) throw new UsageError(`unknown preset "${presetName}"; presets: paper, browser`);
  const readingCalls = values['reading-calls'] === undefined ? undefined : Number(values['reading-calls']);
  if (readingCalls !== undefined && !(Number.isInteger(readingCalls) && readingCalls > 0))
    throw new UsageError(`--reading-calls takes a positive integer, not "${values['reading-calls']}"`);
  // A cap of n reading calls reads a paper as the preset's own cap reads one (cap ÷ n) times as long.
  const preset = readingCalls === undefined ? named : { ...named, retrieval: { ...retrievalOf(named), maxReadingCalls: readingCalls } };
  const k = values.k === undefined ? 9 : Number(values.k);
  if (!(Number.isInteger(k) && k > 0)) throw new UsageError(`--k takes a positive integer, not "${values.k}"`);
  const callTokens = values['call-tokens'] === undefined ? CALL_TOKENS[preset.name]! : Number(values['call-tokens']);
  if (!(Number.isInteger(callTokens) && callTokens > 0))
    throw new UsageError(`--call-tokens takes a positive integer, not "${values['call-tokens']}"`);
  const counter = await tokenCounterFor('Qwen2.5-1.5B-Instruct-q4f16_1-MLC');
  const report = await runContextEvaluation({
    dataset: dataset as (typeof CONTEXT_DATASETS)[number],
    dataRoot,
    version,
    limit: parseLimit(values.limit),
    capture: (path) => captureFile(path),
    schemas: loadPropertySchemas(),
    progress,
    preset,
    convert: (await dependencies.scorerDependencies(dataRoot)).convert,
    count: counter,
    budget: { k, maxTokensPerCall: callTokens },
    curve: [
      ...CURVE_K.map((curveK) => ({ k: curveK, maxTokensPerCall: callTokens })),
      ...CURVE_TOKENS.map((tokens) => ({ k, maxTokensPerCall: tokens })),
    ],
  });
  process.stdout.write(values.json ? JSON.stringify(report) + '\n' : '```json\n' + JSON.stringify(report, null, 2) + '\n```\n');
}

/** `supermat`: an engine (`--engine NAME`, default `rules`) on the SuperMat PDFs. */
async function evaluateSupermatDataset({ values, dataRoot, dependencies, matrixTotals, write }: EvalContext): Promise<void> {
  if (values.replay || values['all-replays']) throw new UsageError('supermat has no recorded tools to replay; use --engine NAME');
  const { name, load } = chosenEngine(values, dependencies);
  const result = await evaluateSupermat({
    dataRoot,
    engine: { name, ...(await load()) },
    capture: (path) => captureFile(path),
    limit: parseLimit(values.limit),
    dependencies: await dependencies.scorerDependencies(dataRoot),
    progress,
  });
  write(values.json ? JSON.stringify({ ...result, ...matrixTotals() }) + '\n' : scoreTable([{ name, version: '-', ...result }]));
}

/** `polyie`: an engine (`--engine NAME`, default `rules`) on the rebuilt PolyIE documents, scored as triplets. */
async function evaluatePolyieDataset({ values, dataRoot, dependencies, matrixTotals, write }: EvalContext): Promise<void> {
  if (values.replay || values['all-replays'] || values.version !== undefined)
    throw new UsageError('polyie has no recorded tools or versions; use --engine NAME');
  const { name, load } = chosenEngine(values, dependencies);
  const { evaluatePolyie } = await import('../eval/polyie/polyie-evaluation');
  const result = await evaluatePolyie({
    dataRoot,
    engine: { name, ...(await load()) },
    limit: parseLimit(values.limit),
    dependencies: await dependencies.scorerDependencies(dataRoot),
    progress,
  });
  write(values.json ? JSON.stringify({ ...result, ...matrixTotals() }) + '\n' : scoreTable([{ name, version: '-', ...result }]));
}

/** `llm-nerre-doping`: recorded model output (`--predictions FILE`) or the formula-mention floor (`--baseline formula-hosts`). */
async function evaluateNerreDataset({ values, dataRoot, write }: EvalContext): Promise<void> {
  if (values.replay || values['all-replays'])
    throw new UsageError('llm-nerre-doping has no recorded tools to replay; give --predictions FILE');
  // No NERRE model engine exists in this build (the triplet engines do not extract hosts/dopants).
  if (values.engine || (!values.predictions && !values.baseline)) throw new UsageError(NERRE_NEEDS_MODEL);
  if (values.predictions && values.baseline) throw new UsageError('give --predictions FILE or --baseline formula-hosts, not both');
  if (values.baseline && values.baseline !== 'formula-hosts')
    throw new UsageError(`unknown baseline "${values.baseline}"; known: formula-hosts`);
  const limit = parseLimit(values.limit);
  const nerre = await import('../eval/nerre/nerre-evaluation');
  let predictions;
  let source: string;
  let malformedPredictions = 0;
  if (values.predictions) {
    const loaded = await (await import('../eval/nerre/nerre-predictions')).loadNerrePredictions(resolve(values.predictions));
    predictions = loaded.predictions;
    malformedPredictions = loaded.malformed;
    source = values.predictions;
  } else {
    const { records } = await (await import('../eval/nerre/nerre-doping-dataset')).loadNerreDoping(dataRoot);
    predictions = nerre.formulaHostFloor(records.slice(0, limit ?? records.length));
    source = 'formula-hosts floor (every formula mention is a host)';
  }
  const result = {
    ...(await nerre.evaluateNerreDoping({
      dataRoot,
      predictions,
      source,
      status: values.predictions ? 'recorded' : 'extracted',
      ...(limit === undefined ? {} : { limit }),
    })),
    malformedPredictions,
  };
  // The doping set's one file read is upstream's train.json (nerreDopingPath).
  write(values.json ? JSON.stringify({ split: 'train', ...result }) + '\n' : nerre.nerreTable(result));
}

/**
 * `cornell-tc`: the precedent dev set answered from a local Tc/Tcn table (`--reference FILE`),
 * scored 0/1/2; leave-one-out by default, the whole table with `--oracle-full-table`.
 */
async function evaluateCornellTcDataset({ values, dataRoot, write }: EvalContext): Promise<void> {
  if (values.replay || values['all-replays'] || values.engine)
    throw new UsageError('cornell-tc answers from the reference table; --engine/--replay are not supported');
  const limit = parseLimit(values.limit);
  // Loaded here: the materials parser is only needed for this dataset.
  const { evaluateCornellTc, cornellTcTable } = await import('../eval/cornell-tc/cornell-tc-evaluation');
  const result = await evaluateCornellTc({
    dataRoot,
    ...(limit === undefined ? {} : { limit }),
    ...(values.reference ? { referencePath: resolve(values.reference) } : {}),
    setup: values['oracle-full-table'] ? 'oracle-full-table' : 'leave-one-out',
  });
  write(values.json ? JSON.stringify(result) + '\n' : cornellTcTable(result));
}

/** The distinct `split`s of several results, joined by "," ("dev"). */
function splitsOf(results: readonly { split: string }[]): string {
  return [...new Set(results.map((result) => result.split))].join(',');
}

/** `bandgap-200`: one replay or engine (`--replay`/`--engine`), every replay and engine (`--all-replays`), or a vote (`--replay-vote`). */
async function evaluateBandgapDataset({ dataset, values, dataRoot, dependencies, matrixTotals, write }: EvalContext): Promise<void> {
  const limit = parseLimit(values.limit);
  const scorer = await dependencies.scorerDependencies(dataRoot);
  if (values.halves) return evaluateBandgapHalvesDataset({ dataset, values, dataRoot, dependencies, matrixTotals, write }, scorer, limit);

  if (values['replay-vote'] !== undefined) {
    if (values.replay || values.engine || values['all-replays'])
      throw new UsageError('give --replay-vote A,B,C on its own, without --replay, --engine or --all-replays');
    const names = values['replay-vote']
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean);
    const unknown = names.filter((name) => !REPLAY_NAMES.includes(name));
    if (unknown.length || names.length < 2)
      throw new UsageError(`--replay-vote takes two or more replay names from: ${REPLAY_NAMES.join(', ')}`);
    const { evaluateReplayVote, replayVoteRows } = await import('../eval/replay-vote');
    const voteDependencies = await replayVoteDependencies();
    const results = [];
    for (const version of parseVersions(values.version, true)) {
      progress(`assay eval: ${version} vote(${names.join(',')})`);
      results.push(
        await evaluateReplayVote({
          dataRoot,
          version,
          names,
          limit,
          dependencies: { scorer, capture: (path) => captureFile(path), ...voteDependencies },
          progress,
        }),
      );
    }
    const summary = (evaluation: BandgapEvaluation) => {
      const { papers: _papers, at: _at, ...rest } = evaluation;
      return rest;
    };
    write(
      values.json
        ? JSON.stringify({
            dataset,
            split: splitsOf(results.map((result) => result.verified)),
            replayVote: names,
            results: results.map((result) => ({
              verified: summary(result.verified),
              verifiedWithoutAttribution: summary(result.verifiedWithoutAttribution),
              verifiedWithoutFactCheck: summary(result.verifiedWithoutFactCheck),
              agreed: summary(result.agreed),
              tools: result.tools.map(summary),
              counts: result.counts,
              minVotes: result.minVotes,
            })),
          }) + '\n'
        : scoreTable(results.flatMap(replayVoteRows)),
    );
    return;
  }

  if (values['all-replays']) {
    const results: BandgapEvaluation[] = [];
    for (const version of parseVersions(values.version, true)) {
      for (const name of REPLAY_NAMES) {
        progress(`assay eval: ${version} ${name}`);
        results.push(await evaluateBandgap({ dataRoot, version, source: { kind: 'replay', name }, limit, dependencies: scorer }));
      }
      for (const [name, load] of Object.entries(dependencies.engines)) {
        results.push(
          await evaluateBandgap({
            dataRoot,
            version,
            source: { kind: 'engine', name, ...(await load()), capture: (path) => captureFile(path) },
            limit,
            dependencies: scorer,
            progress,
          }),
        );
      }
    }
    const summaries = results.map(({ papers: _papers, at: _at, ...summary }) => summary);
    write(values.json ? JSON.stringify({ dataset, split: splitsOf(results), results: summaries }) + '\n' : scoreTable(results.map(toRow)));
    return;
  }

  const [version] = parseVersions(values.version, false) as [BandgapVersion];
  if (values.replay && values.engine) throw new UsageError('give --replay or --engine, not both');
  let source: BandgapSource;
  if (values.replay) {
    if (!REPLAY_NAMES.includes(values.replay)) throw new UsageError(`unknown replay "${values.replay}"; known: ${REPLAY_NAMES.join(', ')}`);
    source = { kind: 'replay', name: values.replay };
  } else {
    const name = values.engine ?? 'rules';
    const load = dependencies.engines[name];
    if (!load) throw new UsageError(`engine "${name}" is not available in this build; use --replay NAME (${REPLAY_NAMES.join(', ')})`);
    source = { kind: 'engine', name, ...(await load()), capture: (path) => captureFile(path) };
  }
  const result = await evaluateBandgap({ dataRoot, version, source, limit, dependencies: scorer, progress });
  write(values.json ? JSON.stringify({ ...result, ...matrixTotals() }) + '\n' : scoreTable([toRow(result)]));
}

/** The whole gate (grounding, attribution, fact check), material equality and SI conversion for `--replay-vote`, loaded on use. */
async function replayVoteDependencies() {
  const [{ gateFact }, { defaultFactCheckDependencies }, { sameMaterial }, { toSI }] = await Promise.all([
    import('../verify/grounding-gate'),
    import('../verify/fact-check'),
    import('../text/materials'),
    import('../text/units'),
  ]);
  // One catalogue and one article index cache for the whole replay: each paper is indexed once.
  const gate = defaultFactCheckDependencies();
  return {
    ground: (triplet: Triplet, article: Article) => gateFact(triplet, article, gate),
    sameMaterial: (a: string, b: string) => sameMaterial(a, b),
    toSI,
  };
}

/** What the SLM-MATRIX engines cost over an evaluation (sums of the per-paper run records). */
interface MatrixTotals {
  /** The engine kind's id, e.g. "openai". */
  engine: string;
  preset: string;
  papers: number;
  calls: number;
  promptTokens: number;
  completionTokens: number;
}

/**
 * The SLM-MATRIX engine `--engine <kind>` asks for when `registry` offers the CLI that kind,
 * built from the engine options on first use (`createMatrixEngine`), and `totals()`: `{ llm:
 * MatrixTotals }` once a paper ran, else `{}`. An engine of the same name in the injected map
 * wins (tests, other builds).
 */
function matrixEngines(
  name: string | undefined,
  flags: MatrixEngineFlags,
  registry: EngineRegistry = engineRegistry,
): { engines: Record<string, () => Promise<EngineSetup>>; totals: () => { llm?: MatrixTotals } } {
  if (name === undefined || !registry.get(name, 'cli')) return { engines: {}, totals: () => ({}) };
  let totals: MatrixTotals | undefined;
  const load = async (): Promise<EngineSetup> => {
    const [{ createMatrixEngine }, { matrixEngineSetup }] = await Promise.all([
      import('./matrix-engines'),
      import('../eval/matrix-engine'),
    ]);
    const engine = await createMatrixEngine(name, flags, registry);
    totals = { engine: name, preset: engine.preset.name, papers: 0, calls: 0, promptTokens: 0, completionTokens: 0 };
    const sum = totals;
    return matrixEngineSetup({
      ...engine,
      onRun: (run) => {
        sum.papers += 1;
        sum.calls += run.calls;
        sum.promptTokens += run.promptTokens;
        sum.completionTokens += run.completionTokens;
      },
    });
  };
  return { engines: { [name]: load }, totals: () => (totals && totals.papers > 0 ? { llm: totals } : {}) };
}

/**
 * `sofc-exp` and `msptc`: an engine on the dev papers' text and the quantity parser, against
 * SOFC-Exp's experiment frames' value slots or MSPTC's material–number–unit relations
 * (src/eval/value-corpus/).
 */
async function evaluateValueCorpusDataset({ dataset, values, dataRoot, dependencies, matrixTotals, write }: EvalContext): Promise<void> {
  if (values.replay || values['all-replays']) throw new UsageError(`${dataset} has no recorded tools to replay; use --engine NAME`);
  const { name, load } = chosenEngine(values, dependencies);
  const [evaluate, { valueCorpusTable }] = await Promise.all([
    dataset === 'msptc'
      ? import('../eval/msptc/msptc-evaluation').then((module) => module.evaluateMsptc)
      : import('../eval/sofc-exp/sofc-exp-evaluation').then((module) => module.evaluateSofcExp),
    import('../eval/value-corpus/value-corpus-table'),
  ]);
  const result = await evaluate({
    dataRoot,
    engine: { name, ...(await load()) },
    limit: parseLimit(values.limit),
    dependencies: await dependencies.scorerDependencies(dataRoot),
    progress,
  });
  write(values.json ? JSON.stringify({ ...result, ...matrixTotals() }) + '\n' : valueCorpusTable(result));
}

/**
 * `supermat-chain`: an engine (`--engine NAME`, default `rules`) extracts Tc from the SuperMat
 * PDFs into a dataset, and `checkPrecedent` answers the SuperMat materials from it alone, scored
 * 0/1/2 with the share citing the right paper (src/eval/supermat-chain/).
 */
async function evaluateSupermatChainDataset({ values, dataRoot, dependencies, matrixTotals, write }: EvalContext): Promise<void> {
  if (values.replay || values['all-replays']) throw new UsageError('supermat-chain has no recorded tools to replay; use --engine NAME');
  const { name, load } = chosenEngine(values, dependencies);
  const { evaluateSupermatChain, supermatChainTable } = await import('../eval/supermat-chain/supermat-chain-evaluation');
  const result = await evaluateSupermatChain({
    dataRoot,
    engine: { name, ...(await load()) },
    capture: (path) => captureFile(path),
    limit: parseLimit(values.limit),
    progress,
  });
  write(values.json ? JSON.stringify({ ...result, ...matrixTotals() }) + '\n' : supermatChainTable(result));
}

/**
 * `eunomia-water-stability` (alias `eunomia`): a model engine (`--engine scripted --script FILE`
 * or `--engine openai --base-url URL --model judge=ID`; its judge port) classifies each MOF's
 * water stability from the paper's evidence sentences (src/eval/eunomia/). Without a model
 * engine, or with `--engine rules`, a usage error (exit 2).
 */
async function evaluateEunomiaDataset({ values, dataRoot, dependencies, write }: EvalContext): Promise<void> {
  if (values.replay || values['all-replays'])
    throw new UsageError('eunomia-water-stability has no recorded tools to replay; use --engine with a model engine');
  const [{ CLI_ENGINE_SOURCES, engineChoices }, evaluation, { classifyWaterStability }] = await Promise.all([
    import('./matrix-engines'),
    import('../eval/eunomia/eunomia-evaluation'),
    import('../eval/eunomia/water-stability-classifier'),
  ]);
  const registry = dependencies.engineRegistry ?? engineRegistry;
  const kind = values.engine === undefined ? undefined : registry.get(values.engine, 'cli');
  if (!kind?.cli)
    throw new UsageError(
      `eunomia-water-stability needs a model engine to classify water stability${values.engine ? ` ("${values.engine}" is not one)` : ''}: ` +
        `use --engine ${engineChoices(registry).or} (e.g. --engine openai --base-url URL --model judge=ID)`,
    );
  const llm = await kind.cli.judge(values, CLI_ENGINE_SOURCES);
  const concurrency = values.concurrency === undefined ? 1 : Number(values.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1)
    throw new UsageError(`--concurrency takes a positive integer, not "${values.concurrency}"`);
  const result = await evaluation.evaluateEunomia({
    papers: await evaluation.loadEunomiaPapers(dataRoot, parseLimit(values.limit)),
    engine: kind.kind,
    classify: (input) => classifyWaterStability(input, { llm }),
    concurrency,
    progress,
  });
  write(values.json ? JSON.stringify(result) + '\n' : evaluation.eunomiaTable(result));
}

/**
 * `comproscanner-piezo --texts DIR`: an engine (`--engine NAME`, default `rules`) extracts d33
 * from the papers captured in DIR, scored against ComProScanner's ground truth
 * (src/eval/comproscanner/). Without `--texts`, a usage error (exit 2).
 */
async function evaluateComproscannerPiezoDataset({ values, dataRoot, dependencies, matrixTotals, write }: EvalContext): Promise<void> {
  if (values.replay || values['all-replays'])
    throw new UsageError('comproscanner-piezo has no recorded tools to replay; use --engine NAME');
  if (values.texts === undefined)
    throw new UsageError(
      'comproscanner-piezo ships no paper texts: give --texts DIR, a folder of the papers you captured (HTML, XML, PDF or text; named by DOI with "/" as "_", or carrying their DOI)',
    );
  const { name, load } = chosenEngine(values, dependencies);
  const { evaluatePiezo } = await import('../eval/comproscanner/piezo-evaluation');
  const result = await evaluatePiezo({
    dataRoot,
    textsDir: resolve(values.texts),
    engine: { name, ...(await load()) },
    capture: (path) => captureFile(path),
    limit: parseLimit(values.limit),
    dependencies: await dependencies.scorerDependencies(dataRoot),
    progress,
  });
  write(values.json ? JSON.stringify({ ...result, ...matrixTotals() }) + '\n' : scoreTable([{ name, version: '-', ...result }]));
}

/**
 * `llm-nerre-general` and `llm-nerre-mof`: recorded model output (`--predictions FILE`, the set's
 * own `{prompt, completion}` records, JSON or JSONL), a mention floor (`--baseline
 * formula-mentions|material-mentions`), or an engine (`--engine rules|scripted|openai`) whose
 * triplets' materials become formula or name entries (src/eval/nerre/nerre-entry-sources.ts says
 * what is not produced).
 */
async function evaluateNerreEntryDataset({ dataset, values, dataRoot, dependencies, matrixTotals, write }: EvalContext): Promise<void> {
  if (values.replay || values['all-replays']) throw new UsageError(`${dataset} has no recorded tools to replay; give --predictions FILE`);
  const [dataModule, sources, evaluation] = await Promise.all([
    import('../eval/nerre/nerre-entry-dataset'),
    import('../eval/nerre/nerre-entry-sources'),
    import('../eval/nerre/nerre-entry-evaluation'),
  ]);
  const floors = sources.NERRE_FLOORS.join('|');
  if ([values.predictions, values.baseline, values.engine].filter((value) => value !== undefined).length !== 1)
    throw new UsageError(`${dataset}: give one of --predictions FILE, --baseline ${floors} or --engine NAME`);
  const floor = sources.NERRE_FLOORS.find((name) => name === values.baseline);
  if (values.baseline !== undefined && !floor) throw new UsageError(`unknown baseline "${values.baseline}"; known: ${floors}`);
  const task = dataset === 'llm-nerre-mof' ? 'mof' : 'general';
  const limit = parseLimit(values.limit);
  const definition = dataModule.NERRE_TASKS[task];
  const records = async () => (await dataModule.loadNerreEntries(dataRoot, definition)).records.slice(0, limit ?? Infinity);
  let run: Pick<Parameters<typeof evaluation.evaluateNerreEntries>[0], 'predictions' | 'source' | 'status'>;
  let extra: object = {};
  if (values.predictions) {
    const { loadNerreEntryPredictions } = await import('../eval/nerre/nerre-entry-predictions');
    const loaded = await loadNerreEntryPredictions(resolve(values.predictions), definition);
    run = { predictions: loaded.predictions, source: values.predictions, status: 'recorded' };
    extra = { malformedPredictions: loaded.malformed };
  } else if (floor) {
    run = { predictions: sources.mentionFloor(await records(), definition, floor), source: `${floor} floor`, status: 'extracted' };
  } else {
    const name = values.engine!;
    const load = dependencies.engines[name];
    if (!load) throw new UsageError(`engine "${name}" is not available in this build`);
    const { loadPropertySchemas } = await import('../properties');
    const properties = loadPropertySchemas().map((schema) => schema.name);
    const engine = await sources.engineEntries(await records(), definition, (await load()).extractor, properties, progress);
    run = { predictions: engine.predictions, source: `engine ${name}`, status: 'extracted' };
    extra = { engine: name, properties, engineFailures: engine.failures, ...matrixTotals() };
  }
  const result = {
    ...(await evaluation.evaluateNerreEntries({ task, dataRoot, ...run, ...(limit === undefined ? {} : { limit }) })),
    ...extra,
  };
  write(values.json ? JSON.stringify(result) + '\n' : evaluation.nerreEntryTable(result));
}

/**
 * `bandgap-200 --halves`: one engine (`--engine NAME`, default `rules`) on the odd- and
 * even-indexed halves of the dev split side by side (src/eval/bandgap/bandgap-halves.ts). JSON
 * `{ dataset, split, version, engine, halving, all, halves: [{ name: 'odd', …result }, { name: 'even', … }] }`.
 */
async function evaluateBandgapHalvesDataset(
  { values, dataRoot, dependencies, matrixTotals, write }: EvalContext,
  scorer: ScorerDependencies,
  limit: number | undefined,
): Promise<void> {
  if (values.replay || values['all-replays'] || values['replay-vote'] !== undefined)
    throw new UsageError('--halves scores one engine run (--engine NAME); --replay, --all-replays and --replay-vote do not apply');
  const [version] = parseVersions(values.version, false) as [BandgapVersion];
  const { name, load } = chosenEngine(values, dependencies);
  const { evaluateBandgapHalves } = await import('../eval/bandgap/bandgap-halves');
  const result = await evaluateBandgapHalves({
    dataRoot,
    version,
    source: { kind: 'engine', name, ...(await load()), capture: (path) => captureFile(path) },
    limit,
    dependencies: scorer,
    progress,
  });
  write(
    values.json
      ? JSON.stringify({ ...result, ...matrixTotals() }) + '\n'
      : scoreTable([
          { ...result.all, name: `${name} (all)` },
          ...result.halves.map((half) => ({ ...half, name: `${name} (${half.name})` })),
        ]),
  );
}
