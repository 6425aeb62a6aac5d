/**
 * `assay eval eunomia-water-stability` (alias `eunomia`): a model engine (`--engine scripted
 * --script FILE` or `--engine openai --base-url URL --model judge=ID`; its judge port) classifies
 * each MOF's water stability from the paper's evidence sentences (src/eval/eunomia/). Without a
 * model engine, or with `--engine rules`, a usage error (exit 2).
 */
import { defineEvaluator, EvalUsageError } from '../evaluator';

export const eunomiaEvaluator = defineEvaluator({
  name: 'eunomia-water-stability',
  aliases: ['eunomia'],
  summary: "MOFs' water stability classified by a model from each paper's evidence sentences (Eunomia)",
  flags: {},
  needs: { engine: 'model', texts: 'data-root' },
  async run({ values, dataRoot, limit, judge, judgeChoices, progress }) {
    const [evaluation, { classifyWaterStability }] = await Promise.all([
      import('./eunomia-evaluation'),
      import('./water-stability-classifier'),
    ]);
    const model = await judge();
    if (!model)
      throw new EvalUsageError(
        `eunomia-water-stability needs a model engine to classify water stability${values.engine ? ` ("${values.engine}" is not one)` : ''}: ` +
          `use --engine ${judgeChoices} (e.g. --engine openai --base-url URL --model judge=ID)`,
      );
    const concurrency = values.concurrency === undefined ? 1 : Number(values.concurrency);
    if (!Number.isInteger(concurrency) || concurrency < 1)
      throw new EvalUsageError(`--concurrency takes a positive integer, not "${values.concurrency}"`);
    const result = await evaluation.evaluateEunomia({
      papers: await evaluation.loadEunomiaPapers(dataRoot, limit),
      engine: model.kind,
      classify: (input) => classifyWaterStability(input, { llm: model.llm }),
      concurrency,
      progress,
    });
    return { json: result, markdown: evaluation.eunomiaTable(result) };
  },
});
