/** `assay eval supermat`: an engine (`--engine NAME`, default `rules`) on the SuperMat PDFs, scored as triplets. */
import { defineEvaluator } from '../evaluator';

export const supermatEvaluator = defineEvaluator({
  name: 'supermat',
  summary: 'superconductors (Tc) in the SuperMat PDFs, scored as triplets',
  flags: {},
  needs: { engine: 'extractor', texts: 'data-root' },
  async run({ dataRoot, limit, engine, capture, scorer, progress, matrixTotals }) {
    const { name, load } = engine();
    const [{ evaluateSupermat }, { scoreTable }] = await Promise.all([import('./supermat-evaluation'), import('../report-table')]);
    const result = await evaluateSupermat({
      dataRoot,
      engine: { name, ...(await load()) },
      capture,
      limit,
      dependencies: await scorer(),
      progress,
    });
    return { json: { ...result, ...matrixTotals() }, markdown: scoreTable([{ name, version: '-', ...result }]) };
  },
});
