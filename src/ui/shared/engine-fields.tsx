/**
 * The engine inputs, one component for the "Extract" form and "Settings and models", rendered
 * from the engine registry's field descriptors (src/llm/engines/): with `placement="run"` the
 * Engine fieldset — one radio button per kind the browser offers (labelled with the kind's
 * label, e.g. "OpenAI-compatible server"), then the chosen kind's inputs (e.g. "Base URL", "API
 * key (optional)", "Models"); with `placement="settings"` each kind's settings inputs under their
 * heading (e.g. "GPU memory budget"), disabled while another kind is chosen. Problems show
 * inline (`aria-invalid`, a `field-error` line); only valid settings are reported. A kind that
 * reaches a server (its `probe`) gets "Test connection" under its inputs when the host passes
 * `testConnection`: what the server is, or the refusal's heading and fix.
 */
import { Fragment, useEffect, useRef, useState } from 'react';
import type { EngineSettings } from '../../contracts/matrix-run';
import type { EngineField, EngineFieldPlacement } from '../../llm/engines/engine-kind';
import { engineRegistry, type EngineRegistry } from '../../llm/engines/registry';
import { draftFromEngine, engineFromDraft, fieldText, type EngineDraft, type EngineDraftErrors } from './engine-form';
import { runErrorHeading } from './run-view-model';

/** A form's engine draft (`useEngineDraft`): the inputs, what they describe, and the change handler. */
export interface EngineDraftState {
  draft: EngineDraft;
  result: { ok: true; engine: EngineSettings } | { ok: false; errors: EngineDraftErrors };
  placement: EngineFieldPlacement;
  registry: EngineRegistry;
  /** Change the kind or input texts; reports the settings through `onEngineChange` when they are valid. */
  update(change: Partial<EngineDraft>): void;
}

/**
 * The draft of `placement`'s inputs over `engine`. Re-fills the inputs when `engine` changes from
 * outside (read from storage, another panel), but not when it echoes what the inputs just
 * reported (that would undo half-typed text). `onEngineChange` gets every valid engine the
 * inputs describe after a change (invalid input is not reported).
 */
export function useEngineDraft(
  engine: EngineSettings,
  onEngineChange: (engine: EngineSettings) => void,
  placement: EngineFieldPlacement,
  registry: EngineRegistry = engineRegistry,
): EngineDraftState {
  const [draft, setDraft] = useState<EngineDraft>(() => draftFromEngine(engine, placement, registry));
  const reported = useRef(JSON.stringify(engine));
  useEffect(() => {
    const key = JSON.stringify(engine);
    if (key === reported.current) return;
    reported.current = key;
    setDraft(draftFromEngine(engine, placement, registry));
  }, [engine, placement, registry]);

  const update = (change: Partial<EngineDraft>) => {
    const next = { ...draft, ...change } as EngineDraft;
    setDraft(next);
    const result = engineFromDraft(next, placement, registry);
    if (result.ok) {
      reported.current = JSON.stringify(result.engine);
      onEngineChange(result.engine);
    }
  };
  return { draft, result: engineFromDraft(draft, placement, registry), placement, registry, update };
}

/** "Test connection" (`createRunControls`): what the server is, in words, or what to fix, with its code. */
export type TestConnection = (
  engine: EngineSettings,
) => Promise<{ ok: true; text: string } | { ok: false; failure: { code: string; message: string } }>;

export interface EngineFieldsProps {
  /** Prefix of the element ids (the host form's `useId`): inputs get `<id>-<idSuffix>`, the radio group `<id>-engine`. */
  id: string;
  form: EngineDraftState;
  /** With it, a kind that reaches a server (its `probe`) gets a "Test connection" button under its inputs. */
  testConnection?: TestConnection;
}

/** The engine inputs of `form.placement` (see the module comment). */
export function EngineFields({ id, form, testConnection }: EngineFieldsProps) {
  const { draft, result, registry } = form;
  const kinds = registry.offered('browser');
  const errors = result.ok ? {} : result.errors;
  const input = (field: EngineField, active: boolean, hint: string | undefined) => (
    <FieldInput
      key={field.name}
      id={`${id}-${field.idSuffix}`}
      field={field}
      text={fieldText(draft, field.name)}
      error={active ? errors[field.name] : undefined}
      disabled={!active}
      hint={hint}
      onText={(text) => form.update({ [field.name]: text })}
    />
  );

  if (form.placement === 'settings')
    return (
      <>
        {kinds.flatMap((kind) =>
          kind
            .browser!.fields.filter((field) => field.placement === 'settings')
            .map((field) => {
              const active = draft.kind === kind.kind;
              return (
                <Fragment key={`${kind.kind}-${field.name}`}>
                  {field.heading && <h3>{field.heading}</h3>}
                  {input(field, active, active ? field.hint : (field.inactiveHint ?? field.hint))}
                </Fragment>
              );
            }),
        )}
      </>
    );

  const chosen = kinds.find((kind) => kind.kind === draft.kind);
  const fields = chosen?.browser!.fields.filter((field) => field.placement === 'run') ?? [];
  return (
    <fieldset>
      <legend>Engine</legend>
      {kinds.map((kind) => (
        <label key={kind.kind} className="choice">
          <input
            type="radio"
            name={`${id}-engine`}
            value={kind.kind}
            checked={draft.kind === kind.kind}
            onChange={() => form.update({ kind: kind.kind })}
          />{' '}
          {kind.label}
        </label>
      ))}
      {fields.length > 0 && (
        <div className="server" data-engine-kind={draft.kind}>
          {fields.map((field) => input(field, true, field.hint))}
          {testConnection && chosen?.browser?.probe && (
            <ConnectionTest
              // A new address or model starts afresh: what was found was about the old one.
              key={result.ok ? JSON.stringify(result.engine) : draft.kind}
              engine={result.ok ? result.engine : null}
              testConnection={testConnection}
            />
          )}
        </div>
      )}
    </fieldset>
  );
}

type ConnectionState =
  { phase: 'idle' } | { phase: 'testing' } | { phase: 'found'; text: string } | { phase: 'failed'; code: string; message: string };

/**
 * "Test connection" and what it found, in a polite live region (`connection-status`, with
 * `data-status` idle|testing|found|failed and, on failure, `data-error-code`). The button is a
 * plain button (it must not submit the run form) and is disabled while the inputs are invalid or
 * a test is going; `testConnection` is called in the click (it may ask for a permission).
 */
export function ConnectionTest({ engine, testConnection }: { engine: EngineSettings | null; testConnection: TestConnection }) {
  const [state, setState] = useState<ConnectionState>({ phase: 'idle' });
  const onClick = () => {
    if (!engine) return;
    setState({ phase: 'testing' });
    testConnection(engine).then(
      (answer) =>
        setState(
          answer.ok
            ? { phase: 'found', text: answer.text }
            : { phase: 'failed', code: answer.failure.code, message: answer.failure.message },
        ),
      (error: unknown) => setState({ phase: 'failed', code: 'internal', message: error instanceof Error ? error.message : String(error) }),
    );
  };
  return (
    <>
      <p className="actions">
        <button type="button" onClick={onClick} disabled={!engine || state.phase === 'testing'} data-testid="test-connection">
          Test connection
        </button>
      </p>
      <div
        role="status"
        aria-live="polite"
        className={state.phase === 'failed' ? 'problem' : 'hint'}
        data-testid="connection-status"
        data-status={state.phase}
        data-error-code={state.phase === 'failed' ? state.code : undefined}
      >
        {state.phase === 'testing' && <p>Asking the server…</p>}
        {state.phase === 'found' && <p>{state.text}</p>}
        {state.phase === 'failed' && (
          <>
            <p>
              <strong>{runErrorHeading(state.code)}</strong>
            </p>
            <p>{state.message}</p>
          </>
        )}
      </div>
    </>
  );
}

/** One input with its label, help text and problem (ids: `id`, `<id>-hint`, `<id>-error`). */
function FieldInput({
  id,
  field,
  text,
  error,
  disabled,
  hint,
  onText,
}: {
  id: string;
  field: EngineField;
  text: string;
  error: string | undefined;
  disabled: boolean;
  hint: string | undefined;
  onText(text: string): void;
}) {
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error !== undefined ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter((part) => part !== undefined).join(' ');
  return (
    <p className="field">
      <label htmlFor={id}>{field.label}</label>
      <input
        id={id}
        type={field.input}
        value={text}
        placeholder={field.placeholder}
        autoComplete={field.autoComplete}
        min={field.min}
        step={field.step}
        disabled={disabled}
        aria-invalid={error !== undefined}
        aria-describedby={describedBy === '' ? undefined : describedBy}
        onChange={(event) => onText(event.currentTarget.value)}
        data-testid={field.testId}
      />
      {hint && (
        <span id={hintId} className="hint">
          {hint}
        </span>
      )}
      {error !== undefined && (
        <span id={errorId} className="field-error" data-testid={field.testId ? `${field.testId}-error` : undefined}>
          {error}
        </span>
      )}
    </p>
  );
}
