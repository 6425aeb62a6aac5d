/**
 * The review's small controls: Accept / Edit / Reject for one record, the inline Edit form
 * (material, value as printed, unit), and "Save verified" with its status line.
 */
import { editFromTriplet, editProblem, keptRecords } from '../../store/dataset-rows';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { ReviewDecision } from '../../contracts/dataset';
import type { MatrixRunRow, RunReview } from '../../contracts/matrix-run';
import type { VerificationRecord } from '../../contracts/verification';
import type { SaveOutcome } from './review-actions';
import { answerText, editReview, saveStatusText } from './review-model';

interface ReviewButtonsProps {
  index: number;
  decision: ReviewDecision;
  /** The Edit form of this record is open. */
  editing: boolean;
  onAccept(): void;
  onEdit(): void;
  onReject(): void;
  /** -1 in a list that is one tab stop (the buttons are reached by key and by the record's menu); default: in the tab order. */
  tabIndex?: number;
}

/** Accept / Edit / Reject; `aria-pressed` marks the current decision (a pressed Accept or Reject, clicked again, undoes it). */
export function ReviewButtons({ index, decision, editing, onAccept, onEdit, onReject, tabIndex }: ReviewButtonsProps) {
  return (
    <p className="review-buttons" role="group" aria-label="Your decision">
      <button type="button" tabIndex={tabIndex} aria-pressed={decision === 'accepted'} onClick={onAccept} data-testid={`accept-${index}`}>
        Accept
      </button>{' '}
      <button
        type="button"
        tabIndex={tabIndex}
        aria-pressed={decision === 'edited'}
        aria-expanded={editing}
        onClick={onEdit}
        data-testid={`edit-${index}`}
      >
        Edit
      </button>{' '}
      <button type="button" tabIndex={tabIndex} aria-pressed={decision === 'rejected'} onClick={onReject} data-testid={`reject-${index}`}>
        Reject
      </button>
    </p>
  );
}

/** The fields an Edit form starts from: the reader's previous edit, else the stored triplet's. */
export function initialEdit(
  record: VerificationRecord,
  previous: RunReview['edit'],
): { material: string; valueText: string; unit: string } {
  const fields = editFromTriplet(record.triplet);
  return {
    material: previous?.material ?? fields.material,
    valueText: previous?.valueText ?? fields.valueText,
    unit: previous?.unit ?? fields.unit,
  };
}

interface EditFormProps {
  index: number;
  record: VerificationRecord;
  /** The reader's previous edit of this record, if any. */
  initial: RunReview['edit'];
  /** Called with `{ decision: 'edited', edit, at }` once the fields are valid. */
  onSave(review: RunReview): void;
  /** Cancel, also called on Escape anywhere in the form. */
  onCancel(): void;
  /** Move focus into the first field when the form opens (opened by the `e` key). */
  focusOnOpen?: boolean;
}

/**
 * The inline Edit form. Save checks the fields (material and value not blank, the value text
 * readable by the dataset's `applyEdit`) and shows the problem instead of saving. The model's
 * answer stays in view ("Model said: …"). Escape cancels.
 */
export function EditForm({ index, record, initial, onSave, onCancel, focusOnOpen = false }: EditFormProps) {
  const id = useId();
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (focusOnOpen) first.current?.focus();
  }, [focusOnOpen]);
  const [fields, setFields] = useState(() => initialEdit(record, initial));
  const [problem, setProblem] = useState<string | null>(null);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const result = editReview(fields, new Date());
    if (!result.ok) return setProblem(result.message);
    const unreadable = editProblem(result.review.edit ?? {});
    if (unreadable !== null) return setProblem(unreadable);
    setProblem(null);
    onSave(result.review);
  };
  const input = (name: keyof typeof fields, text: string, testId: string) => (
    <p className="field">
      <label htmlFor={`${id}-${name}`}>{text}</label>
      <input
        ref={name === 'material' ? first : undefined}
        id={`${id}-${name}`}
        type="text"
        value={fields[name]}
        onChange={(event) => {
          const value = event.currentTarget.value;
          setFields((current) => ({ ...current, [name]: value }));
        }}
        data-testid={testId}
      />
    </p>
  );
  return (
    <form
      className="edit-form"
      onSubmit={onSubmit}
      noValidate
      aria-label="Edit this triplet"
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        event.preventDefault();
        event.stopPropagation();
        onCancel();
      }}
    >
      <p className="model-said">Model said: {answerText(record.triplet)}</p>
      {input('material', 'Material', `edit-material-${index}`)}
      {input('valueText', 'Value as printed', `edit-value-${index}`)}
      {input('unit', 'Unit', `edit-unit-${index}`)}
      {problem && (
        <p className="field-error" role="alert" data-testid={`edit-problem-${index}`}>
          {problem}
        </p>
      )}
      <p className="actions">
        <button type="submit" data-testid={`edit-save-${index}`}>
          Save edit
        </button>{' '}
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </p>
    </form>
  );
}

type SaveState = { phase: 'idle' } | { phase: 'saving' } | { phase: 'done'; outcome: SaveOutcome };

/**
 * "Save verified" (`save-verified`): saves every kept record of `row` in one click (verified and
 * not rejected by the reader, or accepted/edited by the reader), then says how many were saved
 * and merged (`save-status`), and lists kept records that could not be saved.
 */
export function SaveVerified({ row, save }: { row: MatrixRunRow; save: (row: MatrixRunRow) => Promise<SaveOutcome> }) {
  const [state, setState] = useState<SaveState>({ phase: 'idle' });
  const count = keptRecords(row).length;
  const onClick = () => {
    setState({ phase: 'saving' });
    void save(row).then((outcome) => setState({ phase: 'done', outcome }));
  };
  const outcome = state.phase === 'done' ? state.outcome : undefined;
  return (
    <div className="save-verified">
      <p className="actions">
        <button
          type="button"
          onClick={onClick}
          disabled={count === 0 || state.phase === 'saving'}
          aria-busy={state.phase === 'saving'}
          data-testid="save-verified"
        >
          {state.phase === 'saving' ? 'Saving…' : 'Save verified'}
        </button>{' '}
        <span className="hint">
          {count === 0
            ? 'Nothing to save yet: accept a record, or wait for verified ones.'
            : `${count} triplet${count === 1 ? '' : 's'} to save.`}
        </span>
      </p>
      <div
        role="status"
        aria-live="polite"
        data-testid="save-status"
        data-outcome={outcome ? (outcome.ok ? 'saved' : 'failed') : undefined}
      >
        {outcome?.ok && <p>{saveStatusText(outcome)}</p>}
        {outcome && !outcome.ok && <p className="problem">{outcome.message}</p>}
        {!outcome && row.savedAt && <p className="hint">Last saved {new Date(row.savedAt).toLocaleString()}.</p>}
      </div>
      {outcome?.ok && outcome.problems.length > 0 && (
        <ul className="problem" data-testid="save-problems">
          {outcome.problems.map((problem) => (
            <li key={problem.index}>
              Not saved: {answerText(row.records[problem.index]!.triplet)} — {problem.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
