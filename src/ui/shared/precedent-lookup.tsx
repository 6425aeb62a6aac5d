/**
 * Where the precedent card appears: `PrecedentLookup` runs one check (`runPrecedentCheck`) and
 * shows its card with Re-check; `PrecedentSection` is the side panel's and dataset page's
 * "Check precedent" section (the context menu's question, then a small form to ask another);
 * `PrecedentButton` is the "Precedent" button of a run's record, shown when a
 * `PrecedentContext` provides the database.
 */
import { createContext, useContext, useEffect, useState, type FormEvent } from 'react';
import { browser } from 'wxt/browser';
import { sendRequest } from '../../extension/send-request';
import type { PrecedentQuestion } from '../../precedent/check-precedent';
import type { AssayDatabase } from '../../store/assay-database';
import type { PrecedentRecord } from '../../precedent/cached-precedent-check';
import { PrecedentCard } from './precedent-card';
import { runPrecedentCheck, type PrecedentLiteratureOptions } from '../../precedent/cached-precedent-check';
import { readPrecedentLiterature } from '../settings/precedent-literature-settings';
import { watchPendingPrecedent, type PendingPrecedentArea } from './precedent-pending';
import type { StoredValueArea } from '../../extension/stored-settings';

/** What the precedent check needs in a page: the database, the properties it can ask about, their labels. */
export interface PrecedentServices {
  database: AssayDatabase;
  /** Property schemas offered in the form (name, label). */
  properties: ReadonlyArray<{ name: string; label: string }>;
}

/**
 * Where the literature setting is read and how `precedent-check` is sent: `browser.storage.local`
 * and `sendRequest` in an extension page; none (local sources only) where there is no extension API.
 */
export interface PrecedentLiteratureServices {
  area: StoredValueArea;
  send: PrecedentLiteratureOptions['send'];
}

function defaultLiteratureServices(): PrecedentLiteratureServices | undefined {
  const area = (browser as typeof browser | undefined)?.storage?.local;
  return area ? { area, send: sendRequest<'precedent-check'> } : undefined;
}

/** The literature options of one check: read the setting now (off → undefined). */
async function literatureFor(services: PrecedentLiteratureServices | undefined): Promise<PrecedentLiteratureOptions | undefined> {
  if (!services) return undefined;
  const choice = await readPrecedentLiterature(services.area);
  return choice && { ...choice, send: services.send };
}

/** Provides `PrecedentServices` to the records of a run (`PrecedentButton`); absent → no button. */
export const PrecedentContext = createContext<PrecedentServices | null>(null);

function labelOf(properties: PrecedentServices['properties']): (name: string) => string {
  return (name) => properties.find((property) => property.name === name)?.label ?? name;
}

type LookupState =
  | { status: 'checking'; record?: PrecedentRecord }
  | { status: 'done'; record: PrecedentRecord }
  | { status: 'failed'; message: string; record?: PrecedentRecord };

/** Check `question` (cached answer first), and show the card with Re-check. */
export function PrecedentLookup({
  database,
  question,
  label,
  literature = defaultLiteratureServices(),
}: {
  database: AssayDatabase;
  question: PrecedentQuestion;
  label?: (name: string) => string;
  /** Default `browser.storage.local` and `sendRequest` (see `PrecedentLiteratureServices`). */
  literature?: PrecedentLiteratureServices | undefined;
}) {
  const [state, setState] = useState<LookupState>({ status: 'checking' });
  const [round, setRound] = useState<{ recheck: boolean; count: number }>({ recheck: false, count: 0 });
  const { material, property } = question;

  useEffect(() => {
    let current = true;
    setState((previous) => ({ status: 'checking', ...(round.recheck && previous.record && { record: previous.record }) }));
    literatureFor(literature)
      .then((options) =>
        runPrecedentCheck(database, { material, property }, { recheck: round.recheck, ...(options && { literature: options }) }),
      )
      .then(
        (record) => current && setState({ status: 'done', record }),
        (error: unknown) =>
          current && setState({ status: 'failed', message: `The check failed: ${error instanceof Error ? error.message : String(error)}` }),
      );
    return () => {
      current = false;
    };
    // `literature` is read afresh for each check; a new object each render must not re-run it.
  }, [database, material, property, round]);

  const recheck = () => setRound((previous) => ({ recheck: true, count: previous.count + 1 }));
  return (
    <div className="precedent-lookup">
      {state.record && (
        <PrecedentCard record={state.record} {...(label && { label })} onRecheck={recheck} busy={state.status === 'checking'} />
      )}
      {state.status === 'checking' && !state.record && (
        <p className="status" role="status" data-testid="precedent-status">
          Checking {material}…
        </p>
      )}
      {state.status === 'failed' && (
        <p className="problem" role="alert" data-testid="precedent-status">
          {state.message}
        </p>
      )}
    </div>
  );
}

/** Material, property and Check. `initial` fills the fields (the last question asked). */
export function PrecedentForm({
  properties,
  initial,
  onAsk,
}: {
  properties: PrecedentServices['properties'];
  initial?: PrecedentQuestion;
  onAsk: (question: PrecedentQuestion) => void;
}) {
  const [material, setMaterial] = useState(initial?.material ?? '');
  const [property, setProperty] = useState(
    initial?.property ?? properties.find((entry) => entry.name === 'tc')?.name ?? properties[0]?.name ?? 'tc',
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = material.trim();
    if (trimmed !== '') onAsk({ material: trimmed, property });
  };
  return (
    <form className="precedent-form" onSubmit={submit}>
      <label>
        Material{' '}
        <input
          type="text"
          value={material}
          onChange={(event) => setMaterial(event.target.value)}
          placeholder="MgB2"
          maxLength={200}
          data-testid="precedent-material"
        />
      </label>{' '}
      <label>
        Property{' '}
        <select value={property} onChange={(event) => setProperty(event.target.value)} data-testid="precedent-property">
          {properties.map((entry) => (
            <option key={entry.name} value={entry.name}>
              {entry.label}
            </option>
          ))}
        </select>
      </label>{' '}
      <button type="submit" disabled={material.trim() === ''} data-testid="precedent-submit">
        Check
      </button>
    </form>
  );
}

export interface PrecedentSectionProps extends PrecedentServices {
  /** `storage.session`: the context menu's question is shown when the panel opens or the menu is used again. */
  pending?: PendingPrecedentArea;
}

/**
 * "Check precedent": the card of the current question (from the menu or the form) above the form;
 * folded (a `<details>` with the heading as its summary) until there is a question, so it takes one
 * line of the side panel until the reader asks or the context menu does.
 */
export function PrecedentSection({ database, properties, pending }: PrecedentSectionProps) {
  const [question, setQuestion] = useState<(PrecedentQuestion & { at: string }) | null>(null);
  useEffect(() => {
    if (!pending) return;
    return watchPendingPrecedent(pending, ({ material, property, at }) => setQuestion({ material, property, at }));
  }, [pending]);
  const label = labelOf(properties);
  const form = (
    <PrecedentForm
      key={question ? `${question.at}|${question.material}` : 'empty'}
      properties={properties}
      {...(question && { initial: question })}
      onAsk={(asked) => setQuestion({ ...asked, at: new Date().toISOString() })}
    />
  );
  // Folded until asked: a question (the context menu's, or one typed here) opens the section.
  if (!question)
    return (
      <section className="precedent-section" data-testid="precedent-section" aria-labelledby="precedent-heading">
        <details className="precedent-ask">
          <summary>
            <h2 id="precedent-heading">Check precedent</h2>
          </summary>
          {form}
        </details>
      </section>
    );
  return (
    <section className="precedent-section" data-testid="precedent-section" aria-labelledby="precedent-heading">
      <h2 id="precedent-heading">Check precedent</h2>
      <PrecedentLookup
        key={`${question.at}|${question.material}|${question.property}`}
        database={database}
        question={question}
        label={label}
      />
      {form}
    </section>
  );
}

/** A run record's "Precedent" button and, once pressed, its card; nothing without a `PrecedentContext`. `tabIndex` -1 in a one-tab-stop list. */
export function PrecedentButton({ index, question, tabIndex }: { index: number; question: PrecedentQuestion; tabIndex?: number }) {
  const services = useContext(PrecedentContext);
  const [open, setOpen] = useState(false);
  if (!services) return null;
  return (
    <>
      <button
        type="button"
        className="precedent-button"
        tabIndex={tabIndex}
        aria-expanded={open}
        onClick={() => setOpen((shown) => !shown)}
        data-testid={`precedent-${index}`}
      >
        Precedent
      </button>
      {open && <PrecedentLookup database={services.database} question={question} label={labelOf(services.properties)} />}
    </>
  );
}
