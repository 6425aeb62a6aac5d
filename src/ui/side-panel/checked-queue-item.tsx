/**
 * A record in the adjudication queue that the two paths agreed on but a check sent to review (a
 * Chain-of-Verification answer against the property's expectation): there are no two answers to
 * choose between, so the panel shows the one answer, why it needs the reader (in words), the
 * evidence and the verification answers, with Accept / Edit / Reject. Text, never HTML.
 */
import type { ReactNode } from 'react';
import type { VerificationRecord } from '../../contracts/verification';
import { answerText } from './review-model';
import { EvidenceQuote } from './evidence-quote';
import { VerificationAnswers } from './verification-answers';

export interface CheckedQueueItemProps {
  index: number;
  record: VerificationRecord;
  onAccept(): void;
  onEdit(): void;
  onReject(): void;
  editForm: ReactNode;
}

/** The queue item (see the module comment); Accept writes `accepted`, Edit opens `editForm`, Reject writes `rejected`. */
export function CheckedQueueItem({ index, record, onAccept, onEdit, onReject, editForm }: CheckedQueueItemProps) {
  const quote = record.triplet.evidence?.quote.exact;
  return (
    <li className="queue-item" data-status={record.status} data-decision="pending" data-index={index} data-testid={`queue-${index}`}>
      <dl>
        <dt>Answer</dt>
        <dd>{answerText(record.triplet)}</dd>
        {record.reasons.length > 0 && (
          <>
            <dt>Why it needs you</dt>
            <dd>
              <ul className="reasons">
                {record.reasons.map((reason, reasonIndex) => (
                  <li key={reasonIndex}>{reason}</li>
                ))}
              </ul>
            </dd>
          </>
        )}
        {quote && (
          <>
            <dt>Evidence</dt>
            <dd>
              <EvidenceQuote quote={quote} triplet={record.triplet} />
            </dd>
          </>
        )}
        <VerificationAnswers index={index} answers={record.verificationAnswers} />
      </dl>
      <p className="review-buttons">
        <button type="button" onClick={onAccept} data-testid={`queue-accept-${index}`}>
          Accept
        </button>{' '}
        <button type="button" onClick={onEdit} data-testid={`queue-edit-${index}`}>
          Edit
        </button>{' '}
        <button type="button" onClick={onReject} data-testid={`queue-reject-${index}`}>
          Reject
        </button>
      </p>
      {editForm}
    </li>
  );
}
