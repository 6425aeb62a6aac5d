/** `assay eval polyie`: an engine (`--engine NAME`, default `rules`) on the rebuilt PolyIE documents, scored as triplets. */
import { defineEvaluator } from '../evaluator';

export const polyieEvaluator = defineEvaluator({
  name: 'polyie',
  summary: 'polymer properties in the rebuilt PolyIE documents, scored as triplets',
  flags: {},
  needs: { engine: 'extractor', texts: 'data-root' },
  async run({ dataRoot, limit, engine, scorer, progress, matrixTotals }) {
    const { name, load } = engine();
    const [{ evaluatePolyie }, { scoreTable }] = await Promise.all([import('./polyie-evaluation'), import('../report-table')]);
    const result = await evaluatePolyie({ dataRoot, engine: { name, ...(await load()) }, limit, dependencies: await scorer(), progress });
    return { json: { ...result, ...matrixTotals() }, markdown: scoreTable([{ name, version: '-', ...result }]) };
  },
});
