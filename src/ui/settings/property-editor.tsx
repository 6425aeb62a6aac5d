/**
 * "Define your own property" (named apart from the picker's "Add a property" combobox, which
 * chooses among the defined ones): the reader defines a property of their own (name, label,
 * synonyms, unit, plausible range, dimension, verification questions), checked with
 * `PropertySchema` before it is stored; their properties are listed with a Remove button.
 * Storage is the caller's (`useUserProperties`).
 */
import { useId, useState, type FormEvent } from 'react';
import type { PropertyDefinition, PropertyDimension } from '../../contracts/property';
import { EMPTY_PROPERTY_DRAFT, PROPERTY_DIMENSIONS, propertyFromDraft, type PropertyDraft } from './property-editor-model';
import { QuestionFields } from './question-fields';

/** The reader's properties and how to change them (see `useUserProperties`). */
export interface UserProperties {
  list: PropertyDefinition[];
  /** Store a new property; rejects with an `Error` whose message is shown. */
  add(property: PropertyDefinition): Promise<void>;
  remove(name: string): Promise<void>;
}

export interface PropertyEditorProps {
  properties: readonly PropertyDefinition[];
  /** Names that are already used (the built-in properties). */
  takenNames: readonly string[];
  onAdd(property: PropertyDefinition): Promise<void>;
  onRemove(name: string): Promise<void>;
}

/** The form and the list. Problems (zod's, in words) are listed under the form (`property-problems`). */
export function PropertyEditor({ properties, takenNames, onAdd, onRemove }: PropertyEditorProps) {
  const id = useId();
  const [draft, setDraft] = useState<PropertyDraft>(EMPTY_PROPERTY_DRAFT);
  const [problems, setProblems] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const result = propertyFromDraft(draft, [...takenNames, ...properties.map((property) => property.name)]);
    if (!result.ok) return setProblems(result.problems);
    setBusy(true);
    onAdd(result.property).then(
      () => {
        setBusy(false);
        setProblems([]);
        setDraft(EMPTY_PROPERTY_DRAFT);
      },
      (error: unknown) => {
        setBusy(false);
        setProblems([`Not saved: ${error instanceof Error ? error.message : String(error)}`]);
      },
    );
  };
  const onRemoveClick = (name: string) => {
    onRemove(name).catch((error: unknown) => setProblems([`Not removed: ${error instanceof Error ? error.message : String(error)}`]));
  };

  const input = (
    field: Exclude<keyof PropertyDraft, 'dimension' | 'questions'>,
    label: string,
    extra: { hint?: string; type?: string } = {},
  ) => (
    <p className="field">
      <label htmlFor={`${id}-${field}`}>{label}</label>
      <input
        id={`${id}-${field}`}
        type={extra.type ?? 'text'}
        value={draft[field] ?? ''}
        onChange={(event) => {
          const value = event.currentTarget.value;
          setDraft((current) => ({ ...current, [field]: value }));
        }}
        aria-describedby={extra.hint ? `${id}-${field}-hint` : undefined}
        data-testid={`property-${field}`}
      />
      {extra.hint && (
        <span id={`${id}-${field}-hint`} className="hint">
          {extra.hint}
        </span>
      )}
    </p>
  );

  return (
    <div className="property-editor" data-testid="property-editor">
      {properties.length > 0 && (
        <>
          <h3>Your properties</h3>
          <ul className="user-properties">
            {properties.map((property) => (
              <li key={property.name}>
                {property.label}{' '}
                <span className="hint">
                  ({property.name}, {property.canonicalUnit}
                  {property.displayUnit && property.displayUnit !== property.canonicalUnit && `, shown in ${property.displayUnit}`}
                  {property.questions.length > 0 &&
                    `, ${property.questions.length} verification question${property.questions.length === 1 ? '' : 's'}`}
                  )
                </span>{' '}
                <button type="button" onClick={() => onRemoveClick(property.name)} data-testid={`remove-property-${property.name}`}>
                  Remove
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
      <details>
        <summary>Define your own property</summary>
        <form onSubmit={onSubmit} noValidate aria-label="Define your own property">
          {input('name', 'Name', { hint: 'Lower-case snake case, e.g. thermal_conductivity.' })}
          {input('label', 'Label', { hint: 'As shown in Assay, e.g. Thermal conductivity.' })}
          {input('synonyms', 'Synonyms', { hint: 'Names as written in papers, comma-separated.' })}
          {input('unit', 'Unit', { hint: 'The canonical unit values are compared in, e.g. W/(m·K).' })}
          {input('displayUnit', 'Display unit', {
            hint: 'Optional: the unit the dataset shows values in, e.g. eV for meV; blank: the unit above.',
          })}
          {input('min', 'Plausible minimum', { type: 'text' })}
          {input('max', 'Plausible maximum', { type: 'text' })}
          <p className="field">
            <label htmlFor={`${id}-dimension`}>Dimension</label>
            <select
              id={`${id}-dimension`}
              value={draft.dimension}
              onChange={(event) => {
                const value = event.currentTarget.value as PropertyDimension;
                setDraft((current) => ({ ...current, dimension: value }));
              }}
              data-testid="property-dimension"
            >
              {PROPERTY_DIMENSIONS.map((dimension) => (
                <option key={dimension} value={dimension}>
                  {dimension}
                </option>
              ))}
            </select>
          </p>
          <QuestionFields questions={draft.questions} onChange={(questions) => setDraft((current) => ({ ...current, questions }))} />
          {problems.length > 0 && (
            <ul className="field-error" role="alert" data-testid="property-problems">
              {problems.map((problem) => (
                <li key={problem}>{problem}</li>
              ))}
            </ul>
          )}
          <p className="actions">
            <button type="submit" disabled={busy} aria-busy={busy} data-testid="property-add">
              Add property
            </button>
          </p>
        </form>
      </details>
    </div>
  );
}
