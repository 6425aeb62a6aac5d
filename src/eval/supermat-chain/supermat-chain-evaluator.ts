/**
 * `assay eval supermat-chain`: an engine (`--engine NAME`, default `rules`) extracts Tc from the
 * SuperMat PDFs into a dataset, and `checkPrecedent` answers the SuperMat materials from it alone,
 * scored 0/1/2 with the share citing the right paper (src/eval/supermat-chain/).
 */
import { defineEvaluator } from '../evaluator';

export const supermatChainEvaluator = defineEvaluator({
  name: 'supermat-chain',
  summary: 'precedent answered from a dataset the engine extracted from the SuperMat PDFs (extraction → dataset → answer)',
  flags: {},
  needs: { engine: 'extractor', texts: 'data-root' },
  async run({ dataRoot, limit, engine, capture, progress, matrixTotals }) {
    const { name, load } = engine();
    const { evaluateSupermatChain, supermatChainTable } = await import('./supermat-chain-evaluation');
    const result = await evaluateSupermatChain({ dataRoot, engine: { name, ...(await load()) }, capture, limit, progress });
    return { json: { ...result, ...matrixTotals() }, markdown: supermatChainTable(result) };
  },
});
