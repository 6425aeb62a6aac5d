/**
 * Reading a Chain-of-Verification reply (model output: untrusted) and applying it to a verdict.
 * Each answer is checked alone with zod: an answer outside the question's choices, a free-text
 * answer too long to be an answer, or an answer whose quote is not in that fact's evidence does
 * not count — it is dropped and named in the run's problems, never guessed at or repaired.
 */
import { z } from 'zod';
import type { VerificationRecord } from '../../contracts/verification';
import { NOT_STATED, type VerificationAnswer, type VerificationQuestion } from '../../contracts/verification-question';
import { factLabel, MAX_FREE_TEXT_ANSWER, type QuestionedFact, type QuestionReply } from './question-prompt';

const RawAnswerSchema = z.object({ answer: z.string(), quote: z.string().optional().nullable() });
const FactNumberSchema = z.object({ fact: z.coerce.number().int().positive() });

/** Whitespace runs as one space, quotation marks and ellipses around the quote dropped, lower case. */
function normalized(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^["'“”‘’]+|["'“”‘’]+$/g, '')
    .replace(/^(\.\.\.|…)\s*|\s*(\.\.\.|…)$/g, '')
    .trim()
    .toLowerCase();
}

/** True when `quote` (non-blank) occurs in `evidence`, ignoring case, whitespace runs and surrounding quotation marks. */
export function quoteInEvidence(quote: string, evidence: string): boolean {
  const needle = normalized(quote);
  return needle !== '' && normalized(evidence).includes(needle);
}

/** The answer to `question` for `fact`, or why it does not count. */
function readAnswer(raw: unknown, question: VerificationQuestion, fact: QuestionedFact): VerificationAnswer | string {
  const parsed = RawAnswerSchema.safeParse(raw);
  if (!parsed.success) return 'no answer in the expected shape';
  const text = parsed.data.answer.trim();
  const base = {
    questionId: question.id,
    question: question.question,
    ...(question.expected.length > 0 ? { expected: [...question.expected] } : {}),
  };
  if (text.toLowerCase() === NOT_STATED) return { ...base, answer: NOT_STATED };
  let answer = text;
  if (question.choices.length > 0) {
    const choice = question.choices.find((known) => known.toLowerCase() === text.toLowerCase());
    if (!choice) return `answer ${JSON.stringify(text.slice(0, 80))} is not one of the choices`;
    answer = choice;
  } else if (text === '' || text.length > MAX_FREE_TEXT_ANSWER) {
    return text === '' ? 'empty answer' : `answer longer than ${MAX_FREE_TEXT_ANSWER} characters`;
  }
  const quote = parsed.data.quote?.trim() ?? '';
  if (quote === '') return 'no supporting quote';
  if (!quoteInEvidence(quote, fact.evidence)) return `quote ${JSON.stringify(quote.slice(0, 80))} is not in the evidence`;
  const contrary = question.expected.length > 0 && !question.expected.includes(answer);
  return { ...base, answer, quote, ...(question.expected.length > 0 ? { contrary } : {}) };
}

export interface ReadAnswers {
  /** By fact number: the answers that count, in question order. */
  answers: Map<number, VerificationAnswer[]>;
  /** Answers that did not count, in words: `GaN 3.4 eV, "origin": quote "…" is not in the evidence; ignored`. */
  problems: string[];
}

/**
 * The answers of `reply` for `facts`: each entry of `reply.facts` names its fact by number; an
 * entry without a known fact number, or a second entry for the same fact, is ignored; each
 * question's answer is read alone (`readAnswer`: choices matched case-insensitively to their
 * spelling in the schema; "not stated" needs no quote; any other answer needs a quote that occurs
 * in that fact's evidence). A question left unanswered is a problem too.
 */
export function readAnswers(
  reply: QuestionReply,
  facts: readonly QuestionedFact[],
  questions: readonly VerificationQuestion[],
): ReadAnswers {
  const byNumber = new Map(facts.map((fact) => [fact.number, fact]));
  const answers = new Map<number, VerificationAnswer[]>();
  const problems: string[] = [];
  for (const entry of reply.facts) {
    const number = FactNumberSchema.safeParse(entry);
    const fact = number.success ? byNumber.get(number.data.fact) : undefined;
    if (!fact || answers.has(fact.number)) {
      problems.push(
        `an answer for ${number.success ? `fact ${number.data.fact}` : 'no fact number'} was ignored (unknown or repeated fact)`,
      );
      continue;
    }
    const counted: VerificationAnswer[] = [];
    for (const question of questions) {
      const raw = (entry as Record<string, unknown>)[question.id];
      const answer = raw === undefined ? 'not answered' : readAnswer(raw, question, fact);
      if (typeof answer === 'string') problems.push(`${factLabel(fact)}, "${question.id}": ${answer}; ignored`);
      else counted.push(answer);
    }
    answers.set(fact.number, counted);
  }
  for (const fact of facts) if (!answers.has(fact.number)) problems.push(`${factLabel(fact)}: no answers in the reply`);
  return { answers, problems };
}

/** A contrary answer in words, for the verdict's reasons. */
export function contraryReason(answer: VerificationAnswer): string {
  const expected = (answer.expected ?? []).map((choice) => `"${choice}"`).join(' or ');
  return `verification question "${answer.question}" was answered "${answer.answer}", but this property expects ${expected}${answer.quote ? ` (evidence: "${answer.quote}")` : ''}`;
}

/**
 * `record` with its answers: stored as `verificationAnswers` (when any counted); a `verified`
 * record with a contrary answer (a choice outside the question's `expected`) becomes
 * `needs_review` with one reason per contrary answer in words. Other statuses keep their status.
 */
export function withAnswers(record: VerificationRecord, answers: readonly VerificationAnswer[]): VerificationRecord {
  if (answers.length === 0) return record;
  const contrary = answers.filter((answer) => answer.contrary);
  const demoted = record.status === 'verified' && contrary.length > 0;
  return {
    ...record,
    ...(demoted ? { status: 'needs_review' as const, reasons: [...record.reasons, ...contrary.map(contraryReason)] } : {}),
    verificationAnswers: [...answers],
  };
}
