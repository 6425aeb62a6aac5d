/**
 * `assay eval sofc-exp` and `msptc`: an engine (`--engine NAME`, default `rules`) on the dev
 * papers' text and the quantity parser, against SOFC-Exp's experiment frames' value slots or
 * MSPTC's material–number–unit relations (src/eval/value-corpus/).
 */
import { defineEvaluator, type Evaluator } from '../evaluator';

/** The evaluator of one value corpus. */
export function valueCorpusEvaluator(dataset: 'sofc-exp' | 'msptc'): Evaluator {
  return defineEvaluator({
    name: dataset,
    summary:
      dataset === 'msptc'
        ? "MSPTC's material–number–unit relations, scored as value slots and relations, plus the quantity parser's spans"
        : "SOFC-Exp's experiment frames (fuel cells), scored as value slots and relations, plus the quantity parser's spans",
    flags: {},
    needs: { engine: 'extractor', texts: 'data-root' },
    async run({ dataRoot, limit, engine, scorer, progress, matrixTotals }) {
      const { name, load } = engine();
      const [evaluate, { valueCorpusTable }] = await Promise.all([
        dataset === 'msptc'
          ? import('../msptc/msptc-evaluation').then((module) => module.evaluateMsptc)
          : import('../sofc-exp/sofc-exp-evaluation').then((module) => module.evaluateSofcExp),
        import('./value-corpus-table'),
      ]);
      const result = await evaluate({ dataRoot, engine: { name, ...(await load()) }, limit, dependencies: await scorer(), progress });
      return { json: { ...result, ...matrixTotals() }, markdown: valueCorpusTable(result) };
    },
  });
}
