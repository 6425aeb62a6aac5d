/**
 * `assay eval llm-nerre-general` and `llm-nerre-mof`: recorded model output (`--predictions FILE`,
 * the set's own `{prompt, completion}` records, JSON or JSONL), a mention floor (`--baseline
 * formula-mentions|material-mentions`), or an engine (`--engine rules|scripted|openai`) whose
 * triplets' materials become formula or name entries (src/eval/nerre/nerre-entry-sources.ts says
 * what is not produced).
 */
import { resolve } from 'node:path';
import { defineEvaluator, EvalUsageError, type Evaluator } from '../evaluator';

/** The flags of the LLM-NERRE sets: recorded output or a mention floor. */
export const NERRE_FLAGS = {
  predictions: { type: 'string', value: 'FILE', help: "recorded model output: the set's own {prompt, completion} records (JSON or JSONL)" },
  baseline: {
    type: 'string',
    value: 'NAME',
    help: 'a mention floor instead of model output: formula-hosts (doping), formula-mentions|material-mentions (general, mof)',
  },
} as const;

/** The evaluator of one LLM-NERRE entry task (`general`: materials and their applications; `mof`: MOFs). */
export function nerreEntryEvaluator(task: 'general' | 'mof'): Evaluator {
  const dataset = `llm-nerre-${task}`;
  return defineEvaluator({
    name: dataset,
    summary:
      task === 'mof'
        ? 'MOF entries (name, formula, applications, guests…) in abstracts (LLM-NERRE), from recorded output, a floor or an engine'
        : 'material entries (formula, name, applications, structure…) in abstracts (LLM-NERRE), from recorded output, a floor or an engine',
    flags: NERRE_FLAGS,
    needs: { engine: 'extractor', texts: 'data-root' },
    async run({ values, dataRoot, limit, engines, matrixTotals, progress }) {
      const [dataModule, sources, evaluation] = await Promise.all([
        import('./nerre-entry-dataset'),
        import('./nerre-entry-sources'),
        import('./nerre-entry-evaluation'),
      ]);
      const floors = sources.NERRE_FLOORS.join('|');
      if ([values.predictions, values.baseline, values.engine].filter((value) => value !== undefined).length !== 1)
        throw new EvalUsageError(`${dataset}: give one of --predictions FILE, --baseline ${floors} or --engine NAME`);
      const floor = sources.NERRE_FLOORS.find((name) => name === values.baseline);
      if (values.baseline !== undefined && !floor) throw new EvalUsageError(`unknown baseline "${values.baseline}"; known: ${floors}`);
      const definition = dataModule.NERRE_TASKS[task];
      const records = async () => (await dataModule.loadNerreEntries(dataRoot, definition)).records.slice(0, limit ?? Infinity);
      let run: Pick<Parameters<typeof evaluation.evaluateNerreEntries>[0], 'predictions' | 'source' | 'status'>;
      let extra: object = {};
      if (values.predictions) {
        const { loadNerreEntryPredictions } = await import('./nerre-entry-predictions');
        const loaded = await loadNerreEntryPredictions(resolve(values.predictions), definition);
        run = { predictions: loaded.predictions, source: values.predictions, status: 'recorded' };
        extra = { malformedPredictions: loaded.malformed };
      } else if (floor) {
        run = { predictions: sources.mentionFloor(await records(), definition, floor), source: `${floor} floor`, status: 'extracted' };
      } else {
        const name = values.engine!;
        const load = engines[name];
        if (!load) throw new EvalUsageError(`engine "${name}" is not available in this build`);
        const { loadPropertySchemas } = await import('../../properties');
        const properties = loadPropertySchemas().map((schema) => schema.name);
        const engine = await sources.engineEntries(await records(), definition, (await load()).extractor, properties, progress);
        run = { predictions: engine.predictions, source: `engine ${name}`, status: 'extracted' };
        extra = { engine: name, properties, engineFailures: engine.failures, ...matrixTotals() };
      }
      const result = {
        ...(await evaluation.evaluateNerreEntries({ task, dataRoot, ...run, ...(limit === undefined ? {} : { limit }) })),
        ...extra,
      };
      return { json: result, markdown: evaluation.nerreEntryTable(result) };
    },
  });
}
