/**
 * A verdict's Chain-of-Verification answers in the review (Eunomia's verification questions,
 * answered by the discriminator over the evidence): one line per question with the answer and
 * its supporting quote, an answer against the property's expectation marked. Model text is
 * rendered as React text, never as HTML.
 */
import type { VerificationAnswer } from '../../contracts/verification-question';

/**
 * One answer in words: `Which phase …? — wurtzite ("wurtzite GaN films")`; a contrary one ends
 * with `; expected "yes"`. Pure, for the panel and its tests.
 */
export function verificationAnswerText(answer: VerificationAnswer): string {
  const quote = answer.quote ? ` ("${answer.quote}")` : '';
  const expected =
    answer.contrary && answer.expected?.length ? `; expected ${answer.expected.map((choice) => `"${choice}"`).join(' or ')}` : '';
  return `${answer.question} — ${answer.answer}${quote}${expected}`;
}

/** The answers as a `<dt>`/`<dd>` pair for a record's `<dl>`; nothing when there are none. */
export function VerificationAnswers({ index, answers }: { index: number; answers: readonly VerificationAnswer[] | undefined }) {
  if (!answers || answers.length === 0) return null;
  return (
    <>
      <dt>Verification questions</dt>
      <dd>
        <ul className="verification-answers" data-testid={`verification-answers-${index}`}>
          {answers.map((answer) => (
            <li key={answer.questionId} data-question={answer.questionId} className={answer.contrary ? 'contrary' : undefined}>
              {verificationAnswerText(answer)}
            </li>
          ))}
        </ul>
      </dd>
    </>
  );
}
