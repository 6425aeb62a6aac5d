/**
 * One dataset of `assay eval`: the `Evaluator` interface, the registry that holds them, and what
 * the command derives from it — the option table, the refusal of a flag a dataset does not take,
 * and the usage text. A dataset is its folder under src/eval/ plus one line in
 * src/eval/evaluators.ts; the command (src/cli/eval-command.ts) knows no dataset by name.
 *
 * Pure: no Node API here, and an evaluator module loads its heavy code inside `run`, so the
 * registry (and `assay --help`) loads no dataset, parser or engine.
 */
import type { Article } from '../contracts/article';
import type { LlmPort } from '../llm/llm-port';
import type { EngineSetup } from './extractor';
import type { ScorerDependencies } from './triplet-scorer-types';

/** A bad command line: the command prints its message on one line and exits 2. */
export class EvalUsageError extends Error {}

/** One flag of an evaluator: its `parseArgs` type, the placeholder of its value in the usage (`FILE`) and one line of help. */
export interface EvalFlag {
  type: 'string' | 'boolean';
  /** The value's placeholder in the usage, e.g. `FILE` or `pub|arxiv|both`; absent for a boolean. */
  value?: string;
  help: string;
  /**
   * Why another dataset refuses it, said before the owners (e.g. "has no recorded tools to
   * replay"): the refusal then reads "<dataset> has no recorded tools to replay (--replay applies
   * to bandgap-200 only)".
   */
  refusal?: string;
}

/** The values of `F`'s flags as `parseArgs` gives them (a string, or true for a boolean; absent when not given). */
export type EvalFlagValues<F extends Readonly<Record<string, EvalFlag>>> = {
  readonly [K in keyof F]?: F[K]['type'] extends 'boolean' ? boolean : string;
};

/** The engine options every evaluator that takes `--engine` gets (those of `assay extract`; src/cli/matrix-engines.ts). */
export interface EngineFlagValues {
  readonly engine?: string;
  readonly preset?: string;
  readonly concurrency?: string;
}

/**
 * What a dataset needs. `engine`: `extractor` takes `--engine NAME` (default `rules`) and the
 * model engine options; `model` takes only a model engine kind (its judge port); absent, no
 * engine. `texts`: where the paper texts come from (`data-root`: shipped beside the truth;
 * `flag`: the reader gives them, e.g. `--texts DIR`; `none`: the truth alone is scored).
 */
export interface EvaluatorNeeds {
  engine?: 'extractor' | 'model';
  texts: 'data-root' | 'flag' | 'none';
}

/** What a `run` gets: its flags, the data root, the limit, and the command's engines and I/O. */
export interface EvaluatorContext<F extends Readonly<Record<string, EvalFlag>> = Readonly<Record<string, EvalFlag>>> {
  /** The name asked for (an alias stays as given, e.g. `eunomia`). */
  dataset: string;
  /** The dataset's own flags, and the engine options when it needs an engine. */
  values: EvalFlagValues<F> & EngineFlagValues;
  /** The data root (`--data`, else `ASSAY_DATA`, else ../shared), absolute. */
  dataRoot: string;
  /** `--limit N` (the first N papers or records), else undefined. */
  limit: number | undefined;
  /** The engine `--engine NAME` names (default `rules`) and its loader; throws `EvalUsageError` when this build has none of that name. */
  engine(): { name: string; load: () => Promise<EngineSetup> };
  /** Every engine this build offers by name (the injected ones, then `--engine <kind>`'s model engine). */
  engines: Readonly<Record<string, () => Promise<EngineSetup>>>;
  /**
   * The model engine `--engine <kind>` names, as a judge port (`model` datasets), or undefined
   * when `--engine` names none; `choices` the kinds it may name ("scripted or openai").
   */
  judge(): Promise<{ kind: string; llm: LlmPort } | undefined>;
  judgeChoices: string;
  /** The scorer's unit converter and material comparison for the data root. */
  scorer(): Promise<ScorerDependencies>;
  /** Captures a paper file (HTML, XML, PDF, text) as the CLI does. */
  capture(path: string): Promise<Article>;
  /** The SLM-MATRIX engines' cost totals (`{}` when none ran), merged into a JSON result. */
  matrixTotals(): { llm?: object };
  /** One progress line to stderr. */
  progress(line: string): void;
}

/**
 * What a `run` returns: `json`, the one JSON document `--json` prints (a scoring run's result
 * carries the shared figures of src/eval/rescorable.ts: `precision`, `recall`, `f1`, `strict`,
 * `lenient`), and `markdown`, the report printed without `--json`.
 */
export interface EvalReport {
  json: object;
  markdown: string;
}

/** One dataset of `assay eval`. */
export interface Evaluator<F extends Readonly<Record<string, EvalFlag>> = Readonly<Record<string, EvalFlag>>> {
  name: string;
  /** Other names it answers to (`eunomia`). */
  aliases?: readonly string[];
  /** One line: what is scored against what. */
  summary: string;
  /** Its own flags; another dataset refuses them. Two evaluators may share a flag only with the same type. */
  flags: F;
  needs: EvaluatorNeeds;
  /** Its own words for refusing a flag it does not take (`--engine` on a dataset scored from a table), by flag. */
  refusals?: Readonly<Record<string, string>>;
  run(context: EvaluatorContext<F>): Promise<EvalReport>;
}

/** Declares an evaluator with its flags' types kept for `run` (an identity, for inference). */
export function defineEvaluator<const F extends Readonly<Record<string, EvalFlag>>>(evaluator: Evaluator<F>): Evaluator {
  return evaluator as unknown as Evaluator;
}

/** The flags every dataset takes, with their help. */
export const COMMON_EVAL_FLAGS = {
  data: { type: 'string', value: 'DIR', help: 'the data root (default: ASSAY_DATA, else ../shared beside the project)' },
  split: { type: 'string', value: 'dev', help: 'the split to score (only dev exists)' },
  limit: { type: 'string', value: 'N', help: 'score the first N papers or records only' },
  json: { type: 'boolean', help: 'one JSON document on stdout instead of a Markdown report' },
  help: { type: 'boolean', help: 'this text' },
} as const satisfies Record<string, EvalFlag>;

/**
 * A measure that runs on several datasets instead of scoring an extraction (`--context`,
 * `--attribution`): its switch, its own flags, the datasets it covers, and its run (which refuses
 * the flags that do not apply to it itself).
 */
export interface EvalMeasure<F extends Readonly<Record<string, EvalFlag>> = Readonly<Record<string, EvalFlag>>> {
  /** The boolean flag that asks for it, e.g. `context`. */
  flag: string;
  summary: string;
  flags: F;
  /** The dataset names it covers (in src/eval/, beside the code that reads them). */
  datasets: readonly string[];
  run(context: EvaluatorContext<F & typeof REFUSED_BY_MEASURES>): Promise<EvalReport>;
}

/**
 * Flags a measure's run reads only to refuse them (the other measure's switch, bandgap-200's
 * replays), typed for it; declared by their owners, not here.
 */
const REFUSED_BY_MEASURES = {
  context: { type: 'boolean', help: 'context recall of what the models read' },
  attribution: { type: 'boolean', help: 'the attribution check on the ground truth' },
  replay: { type: 'string', help: '' },
  'all-replays': { type: 'boolean', help: '' },
  'replay-vote': { type: 'string', help: '' },
} as const;

/** Declares a measure with its flags' types kept for `run` (an identity, for inference). */
export function defineMeasure<const F extends Readonly<Record<string, EvalFlag>>>(measure: EvalMeasure<F>): EvalMeasure {
  return measure as unknown as EvalMeasure;
}

/** Joins names as prose: "a", "a and b", "a, b and c". */
function prose(names: readonly string[]): string {
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : (names[0] ?? '');
}

/** `--flag VALUE` or `--flag` as the usage writes it. */
function synopsis(flag: string, spec: EvalFlag): string {
  return spec.value ? `--${flag} ${spec.value}` : `--${flag}`;
}

/** Help lines `  --flag VALUE   help`, the help column aligned at `width`. */
function flagLines(flags: Readonly<Record<string, EvalFlag>>, indent: string, width = 30): string[] {
  return Object.entries(flags).map(([flag, spec]) => {
    const left = `${indent}${synopsis(flag, spec)}`;
    return `${left.padEnd(Math.max(width, left.length + 2))}${spec.help}`;
  });
}

/** The engine part of a dataset's synopsis. */
function engineSynopsis(needs: EvaluatorNeeds): string[] {
  if (needs.engine === 'extractor') return ['[--engine NAME]'];
  if (needs.engine === 'model') return ['--engine KIND'];
  return [];
}

/**
 * The datasets of `assay eval`, looked up by name or alias, in the order they were registered
 * (which the usage and the "unknown dataset" message keep). The constructor checks that no name
 * is taken twice, that a measure names only registered datasets, and that a flag shared by two
 * evaluators (or a measure) has one type.
 */
export class EvaluatorRegistry {
  readonly #byName = new Map<string, Evaluator>();
  readonly #evaluators: readonly Evaluator[];
  readonly #measures: readonly EvalMeasure[];

  constructor(evaluators: readonly Evaluator[], measures: readonly EvalMeasure[] = []) {
    this.#evaluators = evaluators;
    this.#measures = measures;
    for (const evaluator of evaluators)
      for (const name of [evaluator.name, ...(evaluator.aliases ?? [])]) {
        if (this.#byName.has(name)) throw new Error(`two evaluators are named "${name}"`);
        this.#byName.set(name, evaluator);
      }
    for (const measure of measures)
      for (const name of measure.datasets)
        if (!this.#byName.has(name)) throw new Error(`--${measure.flag} names "${name}", which no evaluator is`);
    const types = new Map<string, string>();
    for (const flags of [COMMON_EVAL_FLAGS, ...evaluators.map((e) => e.flags), ...measures.map((m) => m.flags)])
      for (const [flag, spec] of Object.entries(flags)) {
        if ((types.get(flag) ?? spec.type) !== spec.type) throw new Error(`flag --${flag} is declared with two types`);
        types.set(flag, spec.type);
      }
  }

  /** A registry with `evaluator` added after these (a test's own dataset, or a build's). */
  with(evaluator: Evaluator): EvaluatorRegistry {
    return new EvaluatorRegistry([...this.#evaluators, evaluator], this.#measures);
  }

  /** The evaluator of a name or alias, else undefined. */
  get(name: string): Evaluator | undefined {
    return this.#byName.get(name);
  }

  list(): readonly Evaluator[] {
    return this.#evaluators;
  }

  measures(): readonly EvalMeasure[] {
    return this.#measures;
  }

  /** Every name and alias, in registration order. */
  names(): string[] {
    return [...this.#byName.keys()];
  }

  /** The `parseArgs` option table of every flag: the common ones, every evaluator's, every measure's and its switch. */
  options(): Record<string, { type: 'string' | 'boolean' }> {
    const options: Record<string, { type: 'string' | 'boolean' }> = {};
    const add = (flags: Readonly<Record<string, EvalFlag>>) => {
      for (const [flag, spec] of Object.entries(flags)) options[flag] = { type: spec.type };
    };
    add(COMMON_EVAL_FLAGS);
    for (const evaluator of this.#evaluators) add(evaluator.flags);
    for (const measure of this.#measures) {
      options[measure.flag] = { type: 'boolean' };
      add(measure.flags);
    }
    return options;
  }

  /**
   * Throws `EvalUsageError` for the first flag in `given` that `evaluator` does not take (the
   * common flags, its own, and the engine options when it needs an engine are taken): its own
   * words for it, else the flag's refusal, else which datasets do take it — flags of the same
   * owners named together ("--predictions and --baseline apply to a, b and c only").
   */
  refuseForeignFlags(evaluator: Evaluator, dataset: string, given: readonly string[], engineFlags: readonly string[]): void {
    const taken = (flag: string) =>
      Object.hasOwn(COMMON_EVAL_FLAGS, flag) ||
      Object.hasOwn(evaluator.flags, flag) ||
      (evaluator.needs.engine && engineFlags.includes(flag));
    const flag = given.find((name) => !taken(name));
    if (flag === undefined) return;
    const own = evaluator.refusals?.[flag];
    if (own) throw new EvalUsageError(own);
    if (engineFlags.includes(flag)) throw new EvalUsageError(`${dataset} runs no engine; --${flag} does not apply`);
    const owners = this.#evaluators.filter((other) => Object.hasOwn(other.flags, flag));
    if (owners.length === 0) {
      const measures = this.#measures.filter((measure) => Object.hasOwn(measure.flags, flag)).map((measure) => `--${measure.flag}`);
      throw new EvalUsageError(`--${flag} applies to ${measures.length ? prose(measures) : 'no dataset'} only`);
    }
    const ownerNames = owners.map((owner) => owner.name);
    // A family of flags several datasets share (LLM-NERRE's --predictions and --baseline) is named as one.
    const family =
      owners.length > 1
        ? Object.keys(owners[0]!.flags).filter(
            (other) =>
              this.#evaluators
                .filter((e) => Object.hasOwn(e.flags, other))
                .map((e) => e.name)
                .join() === ownerNames.join(),
          )
        : [flag];
    const named = family.length > 1 ? `${prose(family.map((name) => `--${name}`))} apply` : `--${flag} applies`;
    const where = `${named} to ${prose(ownerNames)} only`;
    const reason = owners.map((owner) => owner.flags[flag]?.refusal).find(Boolean);
    throw new EvalUsageError(reason ? `${dataset} ${reason} (${where})` : where);
  }

  /** `assay eval --help`: every dataset with its synopsis and summary, the measures, the common flags. */
  usage(engineHelp: string): string {
    const lines = ['usage: assay eval <dataset> [options]   (assay eval <dataset> --help: its flags)', '', 'datasets:'];
    for (const evaluator of this.#evaluators) {
      const aliases = evaluator.aliases?.length ? ` (alias ${evaluator.aliases.join(', ')})` : '';
      lines.push(`  ${evaluator.name}${aliases}  ${this.#synopsis(evaluator)}`, `      ${evaluator.summary}`);
    }
    lines.push('', 'instead of scoring an extraction:');
    for (const measure of this.#measures) {
      lines.push(`  ${measure.datasets.join('|')} --${measure.flag}`, `      ${measure.summary}`);
      lines.push(...flagLines(measure.flags, '      ', 36));
    }
    lines.push('', 'common:', ...flagLines(COMMON_EVAL_FLAGS, '  '), '', engineHelp, '');
    return lines.join('\n');
  }

  /** `assay eval <name> --help`: the dataset's summary, what it needs, its flags, the measures it takes and the common flags. */
  datasetUsage(evaluator: Evaluator, engineHelp: string): string {
    const needs = [
      evaluator.needs.engine === 'extractor' ? 'an engine (--engine NAME, default rules)' : undefined,
      evaluator.needs.engine === 'model' ? 'a model engine (--engine KIND with its options)' : undefined,
      { 'data-root': 'paper texts from the data root', flag: 'paper texts you give', none: 'no paper texts' }[evaluator.needs.texts],
      'the ground truth under the data root',
    ].filter(Boolean);
    const lines = [
      `usage: assay eval ${evaluator.name} ${this.#synopsis(evaluator)}`,
      '',
      evaluator.summary,
      ...(evaluator.aliases?.length ? [`also named: ${evaluator.aliases.join(', ')}`] : []),
      `needs: ${needs.join('; ')}`,
    ];
    if (Object.keys(evaluator.flags).length) lines.push('', 'flags:', ...flagLines(evaluator.flags, '  '));
    for (const measure of this.#measures.filter((m) => m.datasets.includes(evaluator.name)))
      lines.push('', `--${measure.flag}: ${measure.summary}`, ...flagLines(measure.flags, '  '));
    lines.push('', 'common:', ...flagLines(COMMON_EVAL_FLAGS, '  '));
    if (evaluator.needs.engine) lines.push('', engineHelp);
    return lines.join('\n') + '\n';
  }

  /** The eval lines of `assay --help` (indented six spaces under the `eval` line). */
  summaryLines(): string[] {
    return [
      ...this.#evaluators.map(
        (evaluator) => `      ${[evaluator.name, ...(evaluator.aliases ?? [])].join('|')} ${this.#synopsis(evaluator)}`,
      ),
      ...this.#measures.map((measure) => `      ${measure.datasets.join('|')} --${measure.flag}   ${measure.summary}`),
      `      common: ${Object.entries(COMMON_EVAL_FLAGS)
        .filter(([flag]) => flag !== 'help')
        .map(([flag, spec]) => `[${synopsis(flag, spec)}]`)
        .join(' ')}; assay eval <dataset> --help for its flags`,
    ];
  }

  #synopsis(evaluator: Evaluator): string {
    const parts = [
      ...engineSynopsis(evaluator.needs),
      ...Object.entries(evaluator.flags).map(([flag, spec]) => `[${synopsis(flag, spec)}]`),
    ];
    return parts.length ? parts.join(' ') : '(no flags of its own)';
  }
}
