/**
 * `assay eval <dataset> [options]`: scores one dataset of the evaluator registry
 * (src/eval/evaluators.ts) against the shared ground truth. The option table, the refusal of a
 * flag the dataset does not take, the dispatch and the usage (`assay eval --help`, `assay eval
 * <dataset> --help`) all come from the registry; this module knows no dataset by name.
 * With `--json`: one JSON document on stdout; every scoring run carries, per result, `strict`
 * (the headline: top-level `precision`, `recall`, `f1` equal it) and `lenient` objects, each
 * `{ precision, recall, f1, predictions, truths, matched }`, and the run's `predictions` and
 * `truths` records (src/eval/rescorable.ts) so it can be re-scored; without `--json`, a Markdown
 * report. Progress goes to stderr.
 * `--engine <kind>` with a CLI kind of the engine registry (openai, scripted) runs the SLM-MATRIX
 * pipeline with the engine options of `assay extract` (`--base-url`, `--model ROLE=ID`,
 * `--preset`, `--script`, `--seed`, `--api-key-env`, `--concurrency`); the JSON then carries the
 * run's `llm` totals. `--context` and `--attribution` measure retrieval and attribution instead.
 */
import { parseArgs } from 'node:util';
import { resolveDataRoot } from '../eval/data-root';
import { EvalUsageError, type EvaluatorContext, type EvaluatorRegistry } from '../eval/evaluator';
import { EVALUATORS } from '../eval/evaluators';
import type { EngineSetup } from '../eval/extractor';
import type { ScorerDependencies } from '../eval/triplet-scorer-types';
import { engineRegistry, type EngineRegistry } from '../llm/engines/registry';
import { EngineUsageError } from '../llm/engines/engine-kind';
import { CLI_ENGINE_SOURCES, engineChoices, matrixEngineOptions, type MatrixEngineFlags } from './matrix-engines';

/** What `runEval` needs from the rest of Assay; injected so tests can pass doubles. */
export interface EvalCommandDependencies {
  /** Builds the scorer's unit converter and material comparison for a data root. */
  scorerDependencies: (dataRoot: string) => Promise<ScorerDependencies>;
  /** Engines by `--engine` name (e.g. `rules`), loaded on demand; an absent name is reported as unavailable. */
  engines: Record<string, () => Promise<EngineSetup>>;
  /** The datasets and measures (default `EVALUATORS`, src/eval/evaluators.ts); a test passes `EVALUATORS.with(itsOwn)`. */
  evaluators?: EvaluatorRegistry;
  /** The model engine kinds `--engine <kind>` may name (their CLI part; default the engine registry of src/llm/engines/registry.ts). */
  engineRegistry?: EngineRegistry;
}

/**
 * The defaults wired in this build. Loaded lazily so that a test injecting its own doubles does
 * not load the unit table or the materials parser.
 */
export function defaultEvalDependencies(): EvalCommandDependencies {
  return {
    scorerDependencies: async (dataRoot) => (await import('../eval/scorer-dependencies')).loadScorerDependencies(dataRoot),
    engines: { rules: async () => (await import('../eval/rules-engine')).rulesEngine() },
  };
}

/** How the engine options read in a usage text (those of `assay extract`). */
function engineHelp(registry: EngineRegistry): string {
  return (
    `engines: --engine ${engineChoices(registry, ['rules']).bar} (default rules); a model engine takes the options of ` +
    'assay extract (--base-url URL, --model ROLE=ID, --preset paper|browser, --script FILE, --seed N, --concurrency N, …)'
  );
}

function parseLimit(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const limit = Number(text);
  if (!Number.isInteger(limit) || limit < 1) throw new EvalUsageError(`--limit must be a positive integer, got "${text}"`);
  return limit;
}

const progress = (line: string) => process.stderr.write(line + '\n');

/**
 * `assay eval …`. Returns the exit code: 0 success (and `--help`), 1 evaluation failure, 2 bad
 * usage (no or several datasets, an unknown dataset — the message lists the registry's names — a
 * flag the dataset does not take, a bad `--split`, `--limit`, `--version`, engine or replay).
 * Reports go to stdout, progress and errors to stderr.
 */
export async function runEval(argv: string[], dependencies: EvalCommandDependencies = defaultEvalDependencies()): Promise<number> {
  const evaluators = dependencies.evaluators ?? EVALUATORS;
  const registry = dependencies.engineRegistry ?? engineRegistry;
  try {
    const engineOptions = matrixEngineOptions(dependencies.engineRegistry);
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { ...evaluators.options(), help: { type: 'boolean', short: 'h' }, ...engineOptions, engine: { type: 'string' } },
    });
    const flags = values as Record<string, string | boolean | string[] | undefined>;
    const [dataset] = positionals;
    if (values.help) {
      const evaluator = dataset === undefined ? undefined : evaluators.get(dataset);
      if (dataset !== undefined && !evaluator)
        throw new EvalUsageError(`unknown dataset "${dataset}" (supported: ${evaluators.names().join(', ')})`);
      process.stdout.write(evaluator ? evaluators.datasetUsage(evaluator, engineHelp(registry)) : evaluators.usage(engineHelp(registry)));
      return 0;
    }
    if (!dataset || positionals.length > 1)
      throw new EvalUsageError('give exactly one dataset: assay eval <dataset> [options] (assay eval --help lists them)');
    if (flags.split && flags.split !== 'dev') throw new EvalUsageError(`only the dev split exists, got --split ${String(flags.split)}`);
    const dataRoot = resolveDataRoot(typeof flags.data === 'string' ? flags.data : undefined);
    const limit = parseLimit(typeof flags.limit === 'string' ? flags.limit : undefined);
    const context = evaluatorContext(dataset, flags, dataRoot, limit, dependencies);
    const write = (report: { json: object; markdown: string }) =>
      process.stdout.write(flags.json ? JSON.stringify(report.json) + '\n' : report.markdown);

    const measure = evaluators.measures().find((candidate) => flags[candidate.flag]);
    if (measure) {
      if (!measure.datasets.includes(dataset))
        throw new EvalUsageError(`--${measure.flag} applies to ${measure.datasets.join(', ')}, not ${dataset}`);
      write(await measure.run(context));
      return 0;
    }
    const evaluator = evaluators.get(dataset);
    if (!evaluator) throw new EvalUsageError(`unknown dataset "${dataset}" (supported: ${evaluators.names().join(', ')})`);
    const given = Object.keys(flags).filter((flag) => flags[flag] !== undefined && flags[flag] !== false);
    evaluators.refuseForeignFlags(evaluator, dataset, given, [...Object.keys(engineOptions), 'engine']);
    write(await evaluator.run(context));
    return 0;
  } catch (error) {
    process.stderr.write(`assay eval: ${(error as Error).message}\n`);
    return error instanceof EvalUsageError ||
      error instanceof EngineUsageError ||
      (error as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION'
      ? 2
      : 1;
  }
}

/**
 * What a dataset's `run` gets from the command: the flags, the data root and limit, the injected
 * engines with `--engine <kind>`'s model engine, the scorer, capture and progress.
 */
function evaluatorContext(
  dataset: string,
  flags: Record<string, string | boolean | string[] | undefined>,
  dataRoot: string,
  limit: number | undefined,
  dependencies: EvalCommandDependencies,
): EvaluatorContext {
  const registry = dependencies.engineRegistry ?? engineRegistry;
  const engineName = typeof flags.engine === 'string' ? flags.engine : undefined;
  const matrix = matrixEngines(engineName, flags as MatrixEngineFlags, dependencies.engineRegistry);
  const engines = { ...matrix.engines, ...dependencies.engines };
  return {
    dataset,
    values: flags as EvaluatorContext['values'],
    dataRoot,
    limit,
    engines,
    engine: () => {
      const name = engineName ?? 'rules';
      const load = engines[name];
      if (!load) throw new EvalUsageError(`engine "${name}" is not available in this build`);
      return { name, load };
    },
    judge: async () => {
      const kind = engineName === undefined ? undefined : registry.get(engineName, 'cli');
      return kind?.cli ? { kind: kind.kind, llm: await kind.cli.judge(flags as MatrixEngineFlags, CLI_ENGINE_SOURCES) } : undefined;
    },
    judgeChoices: engineChoices(registry).or,
    scorer: () => dependencies.scorerDependencies(dataRoot),
    capture: async (path) => (await import('./capture-command')).captureFile(path),
    matrixTotals: matrix.totals,
    progress,
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
