/**
 * Chain-of-Verification (Eunomia, ../shared/seeds/001_*, Methods 5.1.2): a property schema
 * carries verification questions, and after cross-verification the discriminator answers each
 * one for every verified triplet over that triplet's evidence. Eunomia's CoV differs from the
 * original (Dhuliawala et al. 2023) in that the questions are written by people, not generated
 * by the model; here the schema (built-in or the reader's) holds them. This module holds the
 * shapes: the question as a schema stores it, and the answer as a verdict stores it.
 */
import { z } from 'zod';
import { boundedList, boundedText, TEXT_LIMITS } from './text-limits';

/** The answer every question allows: the evidence does not say. Never counts against an expectation. */
export const NOT_STATED = 'not stated';

/** Questions and choices are capped like the answers that repeat them (`TEXT_LIMITS.question`), so a stored answer always fits. */
const nonBlank = boundedText(TEXT_LIMITS.question).trim().min(1, 'must not be blank');

export const VerificationQuestionSchema = z
  .object({
    /** Identifier within the property, lower-case snake case, e.g. "origin"; a key of the model's JSON reply. */
    id: z.string().regex(/^[a-z][a-z0-9_]*$/, 'id must be lower-case snake case, e.g. "origin"'),
    /** The question as the model reads it, about one fact and its evidence: "Is the value measured or computed?" */
    question: nonBlank,
    /**
     * The answers allowed, as an enum in the reply's JSON schema (small models answer a closed
     * question far more reliably than an open one); `NOT_STATED` is always allowed besides them.
     * Empty: a short free-text answer ("wurtzite"), or `NOT_STATED`.
     */
    choices: z.array(nonBlank).default([]),
    /**
     * The answers the schema expects, among `choices`: a verified triplet answered with another
     * choice goes to review. Empty: anything goes (the answer is only recorded).
     */
    expected: z.array(nonBlank).default([]),
  })
  .superRefine((question, context) => {
    const choices = question.choices.map((choice) => choice.toLowerCase());
    if (choices.includes(NOT_STATED))
      context.addIssue({ code: 'custom', path: ['choices'], message: `"${NOT_STATED}" is always allowed; do not list it` });
    if (new Set(choices).size !== choices.length)
      context.addIssue({ code: 'custom', path: ['choices'], message: 'choices must differ from each other' });
    if (question.expected.length > 0 && question.choices.length === 0)
      context.addIssue({ code: 'custom', path: ['expected'], message: 'an expected answer needs a list of choices' });
    for (const expected of question.expected) {
      if (!question.choices.includes(expected))
        context.addIssue({ code: 'custom', path: ['expected'], message: `expected answer "${expected}" is not one of the choices` });
    }
  });
export type VerificationQuestion = z.infer<typeof VerificationQuestionSchema>;
export type VerificationQuestionInput = z.input<typeof VerificationQuestionSchema>;

/** One question answered for one triplet, as stored with its verdict and exported with its dataset row. */
export const VerificationAnswerSchema = z.object({
  /** `VerificationQuestion.id`. */
  questionId: boundedText(TEXT_LIMITS.questionId),
  /** The question as it was asked (so a stored row reads without its schema). */
  question: boundedText(TEXT_LIMITS.question),
  /** One of the question's choices, a free-text answer, or `NOT_STATED`. */
  answer: boundedText(TEXT_LIMITS.question),
  /** Words copied from the evidence that support the answer; absent for `NOT_STATED`. */
  quote: boundedText(TEXT_LIMITS.quote).optional(),
  /** The schema's expected answers when it had some. */
  expected: boundedList(boundedText(TEXT_LIMITS.question), TEXT_LIMITS.answers).optional(),
  /** True when the answer is a choice outside `expected` (the triplet then went to review). */
  contrary: z.boolean().optional(),
});
export type VerificationAnswer = z.infer<typeof VerificationAnswerSchema>;
