/**
 * `assay eval measeval` and `mulms`: the quantity parser's spans against MeasEval's Quantity spans
 * and MuLMS's VALUE spans (exact = strict, overlap = lenient). The result is printed as JSON
 * `{ dataset, split, …figures }`, in a Markdown code block without `--json`.
 */
import { join } from 'node:path';
import { defineEvaluator, type Evaluator } from './evaluator';

function spanEvaluator(
  name: string,
  summary: string,
  evaluate: (dataRoot: string, limit: number | undefined) => Promise<object>,
): Evaluator {
  return defineEvaluator({
    name,
    summary,
    flags: {},
    needs: { texts: 'data-root' },
    async run({ dataset, dataRoot, limit }) {
      const result = { dataset, split: 'dev', ...(await evaluate(dataRoot, limit)) };
      return { json: result, markdown: '```json\n' + JSON.stringify(result, null, 2) + '\n```\n' };
    },
  });
}

export const measevalEvaluator = spanEvaluator(
  'measeval',
  "the quantity parser's spans against MeasEval's Quantity spans (train + trial)",
  async (dataRoot, limit) =>
    (await import('./measeval')).evaluateMeasEval(join(dataRoot, 'datasets', 'measeval', 'data'), limit === undefined ? {} : { limit }),
);

export const mulmsEvaluator = spanEvaluator('mulms', "the quantity parser's spans against MuLMS's VALUE spans", async (dataRoot, limit) =>
  (await import('./mulms')).evaluateMulms(join(dataRoot, 'datasets', 'mulms', 'xmi'), limit === undefined ? {} : { limit }),
);
