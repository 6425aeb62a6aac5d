/**
 * `assay eval llm-nerre-doping`: recorded model output (`--predictions FILE`) or the
 * formula-mention floor (`--baseline formula-hosts`), scored on hosts, dopants and their links as
 * LLM-NERRE scores them (src/eval/nerre/nerre-evaluation.ts).
 */
import { resolve } from 'node:path';
import { defineEvaluator, EvalUsageError } from '../evaluator';
import { NERRE_FLAGS } from './nerre-entry-evaluator';

/** No engine of this build extracts hosts and dopants (the triplet engines extract material–property–value–unit). */
const NEEDS_RECORDED_OUTPUT =
  'llm-nerre-doping is scored on model output: give --predictions FILE or --baseline formula-hosts (no engine of this build extracts hosts and dopants)';

export const nerreDopingEvaluator = defineEvaluator({
  name: 'llm-nerre-doping',
  summary: 'hosts, dopants and their links in abstracts (LLM-NERRE), from recorded model output or a floor',
  flags: NERRE_FLAGS,
  needs: { texts: 'data-root' },
  refusals: { engine: NEEDS_RECORDED_OUTPUT },
  async run({ values, dataRoot, limit }) {
    if (!values.predictions && !values.baseline) throw new EvalUsageError(NEEDS_RECORDED_OUTPUT);
    if (values.predictions && values.baseline) throw new EvalUsageError('give --predictions FILE or --baseline formula-hosts, not both');
    if (values.baseline && values.baseline !== 'formula-hosts')
      throw new EvalUsageError(`unknown baseline "${values.baseline}"; known: formula-hosts`);
    const nerre = await import('./nerre-evaluation');
    let predictions;
    let source: string;
    let malformedPredictions = 0;
    if (values.predictions) {
      const loaded = await (await import('./nerre-predictions')).loadNerrePredictions(resolve(values.predictions));
      predictions = loaded.predictions;
      malformedPredictions = loaded.malformed;
      source = values.predictions;
    } else {
      const { records } = await (await import('./nerre-doping-dataset')).loadNerreDoping(dataRoot);
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
    return { json: { split: 'train', ...result }, markdown: nerre.nerreTable(result) };
  },
});
