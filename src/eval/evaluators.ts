/**
 * The datasets of `assay eval`, one line each, in the order the usage lists them, and the measures
 * (`--attribution`, `--context`) that run on several of them. A new dataset is its folder under
 * src/eval/ (an `Evaluator`, src/eval/evaluator.ts) plus one line here.
 */
import { attributionMeasure } from './attribution/attribution-measure';
import { bandgapEvaluator } from './bandgap/bandgap-evaluator';
import { comproscannerPiezoEvaluator } from './comproscanner/comproscanner-evaluator';
import { contextMeasure } from './context/context-measure';
import { cornellTcEvaluator } from './cornell-tc/cornell-tc-evaluator';
import { eunomiaEvaluator } from './eunomia/eunomia-evaluator';
import { EvaluatorRegistry } from './evaluator';
import { nerreDopingEvaluator } from './nerre/nerre-doping-evaluator';
import { nerreEntryEvaluator } from './nerre/nerre-entry-evaluator';
import { polyieEvaluator } from './polyie/polyie-evaluator';
import { measevalEvaluator, mulmsEvaluator } from './span-evaluators';
import { supermatChainEvaluator } from './supermat-chain/supermat-chain-evaluator';
import { supermatEvaluator } from './supermat/supermat-evaluator';
import { valueCorpusEvaluator } from './value-corpus/value-corpus-evaluator';

export const EVALUATORS = new EvaluatorRegistry(
  [
    bandgapEvaluator,
    supermatEvaluator,
    cornellTcEvaluator,
    nerreDopingEvaluator,
    polyieEvaluator,
    valueCorpusEvaluator('sofc-exp'),
    valueCorpusEvaluator('msptc'),
    supermatChainEvaluator,
    eunomiaEvaluator,
    comproscannerPiezoEvaluator,
    nerreEntryEvaluator('general'),
    nerreEntryEvaluator('mof'),
    measevalEvaluator,
    mulmsEvaluator,
  ],
  [attributionMeasure, contextMeasure],
);
