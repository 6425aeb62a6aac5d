/**
 * The verification questions of "Define your own property" (Eunomia's user-defined Chain-of-Verification
 * questions): each with its text, its answers (comma-separated; blank for a free-text answer) and
 * the answers the reader's dataset expects. The built-in questions (is it this property; measured
 * or computed; phase; conditions) are asked anyway and are listed above the reader's for reference.
 * Checked with the property when the form is submitted (`propertyFromDraft`).
 */
import { useId } from 'react';
import { builtInQuestions } from '../../properties';
import { EMPTY_QUESTION_DRAFT, type QuestionDraft } from './property-editor-model';

export interface QuestionFieldsProps {
  questions: readonly QuestionDraft[];
  onChange(questions: QuestionDraft[]): void;
}

const fields: { field: keyof QuestionDraft; label: string; hint: string }[] = [
  { field: 'question', label: 'Question', hint: 'About one value and its evidence, e.g. Was the value measured on a single crystal?' },
  {
    field: 'choices',
    label: 'Answers',
    hint: 'Comma-separated, e.g. yes, no; blank for a short free-text answer. "not stated" is always allowed.',
  },
  {
    field: 'expected',
    label: 'Expected',
    hint: 'Comma-separated answers your dataset expects; another answer sends the value to review. Blank: any.',
  },
];

/** The list of question drafts with Add a question / Remove; `onChange` gets the whole new list. */
export function QuestionFields({ questions, onChange }: QuestionFieldsProps) {
  const id = useId();
  const update = (index: number, field: keyof QuestionDraft, value: string) =>
    onChange(questions.map((question, at) => (at === index ? { ...question, [field]: value } : question)));
  return (
    <fieldset className="verification-questions" data-testid="property-questions">
      <legend>Verification questions</legend>
      <p className="hint">
        Asked of every value that passes cross-verification, answered from its evidence. Always asked:{' '}
        {builtInQuestions({ label: 'property' })
          .map((question) => question.id.replace(/_/g, ' '))
          .join('; ')}
        .
      </p>
      {questions.map((question, index) => (
        <div className="question-draft" key={index} data-testid={`property-question-${index}`}>
          {fields.map(({ field, label, hint }) => (
            <p className="field" key={field}>
              <label htmlFor={`${id}-${index}-${field}`}>
                {label} {index + 1}
              </label>
              <input
                id={`${id}-${index}-${field}`}
                type="text"
                value={question[field]}
                onChange={(event) => update(index, field, event.currentTarget.value)}
                aria-describedby={`${id}-${index}-${field}-hint`}
                data-testid={`property-question-${index}-${field}`}
              />
              <span id={`${id}-${index}-${field}-hint`} className="hint">
                {hint}
              </span>
            </p>
          ))}
          <button
            type="button"
            onClick={() => onChange(questions.filter((_, at) => at !== index))}
            data-testid={`property-question-${index}-remove`}
          >
            Remove question {index + 1}
          </button>
        </div>
      ))}
      <p className="actions">
        <button type="button" onClick={() => onChange([...questions, EMPTY_QUESTION_DRAFT])} data-testid="property-question-add">
          Add a question
        </button>
      </p>
    </fieldset>
  );
}
