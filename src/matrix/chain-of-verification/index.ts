export {
  askVerificationQuestions,
  verifyByQuestions,
  batchFacts,
  MAX_FACTS_PER_CALL,
  type QuestionBatching,
  type VerificationQuestionDependencies,
  type VerificationQuestionInput,
  type VerificationQuestionOptions,
  type VerificationQuestionResult,
} from './ask-verification-questions';
export { evidenceChunkText } from './evidence-chunk';
export {
  questionMessages,
  questionReplyJsonSchema,
  questionRequestShape,
  QuestionReplySchema,
  QUESTION_REPLY_NAME,
  MAX_FREE_TEXT_ANSWER,
  factLabel,
  type QuestionedFact,
} from './question-prompt';
export { readAnswers, withAnswers, quoteInEvidence, contraryReason } from './read-answers';
