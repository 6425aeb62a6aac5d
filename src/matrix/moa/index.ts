export { dataBlock } from '../passage-first';
export {
  runMoa,
  PAPER_MOA_OPTIONS,
  type MoaInput,
  type MoaOptions,
  type MoaDependencies,
  type MoaResult,
  type ProposerAnswer,
} from './run-moa';
export {
  MoaAnswerSchema,
  MoaTripletSchema,
  parseModelValue,
  toTriplets,
  toModelTriplets,
  type MoaAnswer,
  type MoaTriplet,
} from './moa-schema';
export { proposerMessages, aggregatorMessages, disagreementLines, propertyBrief, type PropertyBrief } from './moa-prompts';
export { scoreCandidates, bestCandidate, relevance, RELEVANCE_WEIGHT, COVERAGE_WEIGHT, type CandidateScore } from './moa-score';
