/**
 * `assay eval comproscanner-piezo --texts DIR`: an engine (`--engine NAME`, default `rules`)
 * extracts d33 from the papers captured in DIR, scored against ComProScanner's ground truth
 * (src/eval/comproscanner/). Without `--texts`, a usage error (exit 2).
 */
import { resolve } from 'node:path';
import { defineEvaluator, EvalUsageError } from '../evaluator';

export const comproscannerPiezoEvaluator = defineEvaluator({
  name: 'comproscanner-piezo',
  summary: "piezoelectric d33 in papers you captured, against ComProScanner's ground truth (no texts ship with it)",
  flags: {
    texts: {
      type: 'string',
      value: 'DIR',
      help: 'the papers (HTML, XML, PDF or text), named by DOI with "/" as "_" or carrying their DOI',
    },
  },
  needs: { engine: 'extractor', texts: 'flag' },
  async run({ values, dataRoot, limit, engine, capture, scorer, progress, matrixTotals }) {
    if (values.texts === undefined)
      throw new EvalUsageError(
        'comproscanner-piezo ships no paper texts: give --texts DIR, a folder of the papers you captured (HTML, XML, PDF or text; named by DOI with "/" as "_", or carrying their DOI)',
      );
    const { name, load } = engine();
    const [{ evaluatePiezo }, { scoreTable }] = await Promise.all([import('./piezo-evaluation'), import('../report-table')]);
    const result = await evaluatePiezo({
      dataRoot,
      textsDir: resolve(values.texts),
      engine: { name, ...(await load()) },
      capture,
      limit,
      dependencies: await scorer(),
      progress,
    });
    return { json: { ...result, ...matrixTotals() }, markdown: scoreTable([{ name, version: '-', ...result }]) };
  },
});
