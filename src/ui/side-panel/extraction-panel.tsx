/**
 * The side panel's "Extract properties" section: choose properties, preset and engine, start an
 * SLM-MATRIX run on the saved paper, watch its progress, stop it, read the verdicts with their
 * evidence and review them (review-results.tsx), highlight them in the page, and add properties
 * of one's own. The run itself lives elsewhere (offscreen document); this component only shows
 * the `runs` row it is given and calls `start` / `stop`. Every page or model string is rendered
 * as React text, never as HTML.
 */
import { Disclosure, DisclosureButton, DisclosurePanel } from '@headlessui/react';
import { useId, useState, type FormEvent } from 'react';
import type { EngineSettings, MatrixRunRow, MatrixRunSettings } from '../../contracts/matrix-run';
import type { PropertyDefinition } from '../../contracts/property';
import type { EngineRegistry } from '../../llm/engines/registry';
import { EngineFields, useEngineDraft, type TestConnection } from '../shared/engine-fields';
import { useRunHighlights, type CandidateLayer, type PageHighlighter } from './highlight-sync';
import { PropertyEditor, type UserProperties } from '../settings/property-editor';
import type { ReviewActions } from './review-actions';
import { RunResults } from './review-results';
import { PropertyPicker } from './property-picker';
import { runSummaryText, summaryName, type PickableProperty } from './run-summary';
import { countedLabel, defaultRunProperties, type PropertyCounts } from './run-defaults';
import { EngineSetup } from './engine-setup';
import { progressFraction, progressText, runErrorHeading, spellPropertyName } from '../shared/run-view-model';

/** The seed of every run started here (MCTS's RNG); fixed so a run can be repeated, and kept in the run record. */
export const DEFAULT_SEED = 42;

export type StartRun = (
  settings: MatrixRunSettings,
) => Promise<{ ok: true; runId: string } | { ok: false; failure: { code: string; message: string } }>;

export interface ExtractionPanelProps {
  /** The saved paper's key (`papers` table). */
  paperKey: string;
  /** The property schemas to offer, in display order (synonyms and symbols make the picker find them). */
  properties: readonly PickableProperty[];
  /** The paper's latest run (`useMatrixRun`), or undefined when it has none. */
  run: MatrixRunRow | undefined;
  engine: EngineSettings;
  /** Called with every valid engine the inputs describe (invalid input is not reported). */
  onEngineChange(engine: EngineSettings): void;
  /** Start a run; called synchronously in the click handler, so it may ask for a permission. */
  start: StartRun;
  /** Stop a run; a rejection (an `Error`, with a string `code` if it has one) is shown in the error block. */
  stop(runId: string): Promise<void>;
  /** The review writes (decisions, "Save verified"); without them the verdicts are read-only. */
  review?: ReviewActions;
  /** The page the paper was captured from, for highlights; without it nothing is highlighted. */
  highlighter?: PageHighlighter;
  /** The reader's own properties: offered beside `properties`, and sent in `settings.extraProperties`. */
  userProperties?: UserProperties;
  /** Quick-scan candidates to highlight in the run's place (see `useRunHighlights`); absent once the run's items should show. */
  candidates?: CandidateLayer;
  /** The engine kinds offered (default: the engine registry of src/llm/engines/registry.ts). */
  engineRegistry?: EngineRegistry;
  /**
   * The quick scan's candidates per property schema name: until the reader changes the
   * properties, the run starts with the found ones (`defaultRunProperties`), and the summary and
   * the picker show each one's count ("Curie temperature ×4"). Absent: Band gap.
   */
  foundCounts?: PropertyCounts;
  /**
   * Set when the reader chose no engine and WebLLM cannot run here (`chooseRunEngine`): the
   * model-server setup screen shows with `reason`, Start waits for an engine, and `onChoose` saves
   * the server the reader sets up.
   */
  engineSetup?: { reason: string; onChoose(engine: EngineSettings): void };
  /** "Test connection" under a model server's inputs; without it, no button. */
  testConnection?: TestConnection;
}

/** `at`: ISO time of the click, so a newer run started elsewhere (another panel) also ends the wait. */
type RequestState = { phase: 'idle' } | { phase: 'starting'; at: string } | { phase: 'started'; runId: string; at: string };

/**
 * The "Extract properties" section. The run controls are one line — a summary ("Curie temperature
 * ×4, Tc ×1 · browser preset · WebLLM", `run-summary`), "Change" and Start — with the property picker, the
 * preset and the engine fields folded below it (a Headless UI Disclosure; kept mounted while
 * folded, so the form keeps its state). Start (`extract-button`) is disabled while this paper's run
 * is going, while a start is pending, and while the form is incomplete; Stop (`stop-button`)
 * exists only while the run goes. `run-status` carries `data-status` = the row's status,
 * "starting" between the click and the new row, or "idle".
 */
export function ExtractionPanel({
  paperKey,
  properties: builtIn,
  run,
  engine,
  onEngineChange,
  start,
  stop,
  review,
  highlighter,
  userProperties,
  candidates,
  engineRegistry,
  foundCounts,
  engineSetup,
  testConnection,
}: ExtractionPanelProps) {
  const extra: readonly PropertyDefinition[] = userProperties?.list ?? [];
  const properties = offeredProperties(builtIn, extra);
  const id = useId();
  // The reader's own choice of properties, once they change it: a later scan never overrides it.
  const [chosen, setSelected] = useState<string[] | null>(null);
  const selected =
    chosen ??
    defaultRunProperties(
      foundCounts,
      properties.map((property) => property.name),
    );
  const [preset, setPreset] = useState<MatrixRunSettings['preset']>('browser');
  const [request, setRequest] = useState<RequestState>({ phase: 'idle' });
  const [requestFailure, setRequestFailure] = useState<{ code: string; message: string } | null>(null);
  const [stoppingRunId, setStoppingRunId] = useState<string | null>(null);

  const engineForm = useEngineDraft(engine, onEngineChange, 'run', engineRegistry);
  const engineResult = engineForm.result;
  const awaitingRow =
    request.phase === 'starting' || (request.phase === 'started' && run?.id !== request.runId && !(run && run.startedAt >= request.at));
  const shown = awaitingRow ? undefined : run;
  const running = shown?.status === 'running';
  const status = awaitingRow ? 'starting' : (shown?.status ?? 'idle');
  const ordered = properties.filter((property) => selected.includes(property.name)).map((property) => property.name);
  const canStart = !running && !awaitingRow && ordered.length > 0 && engineResult.ok && !engineSetup;

  const engineLabel = engineSetup
    ? 'no engine set up'
    : (engineForm.registry.offered('browser').find((kind) => kind.kind === engineForm.draft.kind)?.label ?? engineForm.draft.kind);
  const labels = new Map(properties.map((property) => [property.name, property.label]));
  const label = (name: string) => labels.get(name) ?? spellPropertyName(name);
  const highlights = useRunHighlights(shown, label, highlighter, candidates);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!canStart || !engineResult.ok) return;
    const extraProperties = extra.filter((property) => ordered.includes(property.name));
    const settings: MatrixRunSettings = {
      paperKey,
      properties: ordered,
      ...(extraProperties.length > 0 && { extraProperties }),
      preset,
      engine: engineResult.engine,
      seed: DEFAULT_SEED,
    };
    setRequestFailure(null);
    const at = new Date().toISOString();
    setRequest({ phase: 'starting', at });
    // No await before `start`: it may call permissions.request, which needs this user gesture.
    start(settings).then(
      (result) => {
        if (result.ok) setRequest({ phase: 'started', runId: result.runId, at });
        else {
          setRequest({ phase: 'idle' });
          setRequestFailure(result.failure);
        }
      },
      (error: unknown) => {
        setRequest({ phase: 'idle' });
        setRequestFailure({ code: 'internal', message: error instanceof Error ? error.message : String(error) });
      },
    );
  };

  const onStop = (runId: string) => {
    setStoppingRunId(runId);
    setRequestFailure(null);
    stop(runId).catch((error: unknown) => {
      setStoppingRunId(null); // Stop can be pressed again
      const code = error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : 'internal';
      setRequestFailure({ code, message: error instanceof Error ? error.message : String(error) });
    });
  };

  const error = requestFailure ?? (shown ? runError(shown) : undefined);
  const fraction = shown ? progressFraction(shown) : null;
  const text = awaitingRow ? 'Starting…' : shown ? progressText(shown, label) : '';

  return (
    <section aria-labelledby={`${id}-heading`} className="extraction" data-testid="extraction-panel">
      <h2 id={`${id}-heading`}>Extract properties</h2>
      {/* The form holds only the one line: the details panel holds "Define your own property", a
          form of its own, and forms cannot nest. The preset and engine are React state, so Start
          reads them wherever they stand. */}
      <Disclosure as="div" className="run-controls">
        <form onSubmit={onSubmit} noValidate className="run-line">
          <p className="run-summary" data-testid="run-summary">
            {runSummaryText(
              properties
                .filter((property) => selected.includes(property.name))
                // Most quick-scan candidates first (a stable sort keeps the display order otherwise).
                .sort((a, b) => (foundCounts?.get(b.name) ?? 0) - (foundCounts?.get(a.name) ?? 0))
                .map((property) => countedLabel(summaryName(property), foundCounts?.get(property.name))),
              preset,
              engineLabel,
            )}
          </p>
          <DisclosureButton className="link-button" data-testid="run-details-button">
            Change<span className="visually-hidden"> properties, preset and engine</span>
          </DisclosureButton>
          <button type="submit" className="primary" data-testid="extract-button" disabled={!canStart} aria-busy={awaitingRow}>
            {awaitingRow ? 'Starting…' : 'Start'}
          </button>
          {running && shown && (
            <button type="button" data-testid="stop-button" onClick={() => onStop(shown.id)} disabled={stoppingRunId === shown.id}>
              {stoppingRunId === shown.id ? 'Stopping…' : 'Stop'}
            </button>
          )}
        </form>
        {!engineResult.ok && !engineSetup && <p className="hint">The engine settings are incomplete: choose Change to finish them.</p>}
        <DisclosurePanel unmount={false} className="run-details" data-testid="run-details">
          <PropertyPicker properties={properties} selected={selected} onChange={setSelected} counts={foundCounts} />
          {userProperties && (
            <PropertyEditor
              properties={userProperties.list}
              takenNames={builtIn.map((property) => property.name)}
              onAdd={async (property) => {
                await userProperties.add(property);
                setSelected((names) => {
                  const base = names ?? selected;
                  return base.includes(property.name) ? base : [...base, property.name];
                });
              }}
              onRemove={userProperties.remove}
            />
          )}

          <p className="field">
            <label htmlFor={`${id}-preset`}>Preset</label>
            <select
              id={`${id}-preset`}
              value={preset}
              onChange={(event) => setPreset(event.currentTarget.value === 'paper' ? 'paper' : 'browser')}
            >
              <option value="browser">Browser: small models, quick (default)</option>
              <option value="paper">Paper: the SLM-MATRIX paper's settings</option>
            </select>
          </p>

          <EngineFields id={id} form={engineForm} {...(testConnection ? { testConnection } : {})} />
        </DisclosurePanel>
      </Disclosure>
      {engineSetup && (
        <EngineSetup reason={engineSetup.reason} onChoose={engineSetup.onChoose} {...(testConnection ? { testConnection } : {})} />
      )}

      <div role="status" aria-live="polite" className="status" data-testid="run-status" data-status={status}>
        {text && <p>{text}</p>}
      </div>
      {status !== 'idle' && (
        <progress data-testid="run-progress" max={1} value={fraction ?? undefined} aria-label="Run progress" aria-valuetext={text} />
      )}
      {running && shown?.progress !== null && shown?.engineStatus && (
        <p className="hint" data-testid="engine-status">
          {shown.engineStatus}
        </p>
      )}

      {error && (
        <div className="problem" data-testid="run-error" data-error-code={error.code}>
          <p>
            <strong>{runErrorHeading(error.code)}</strong>
          </p>
          {error.message && <p>{error.message}</p>}
        </div>
      )}

      {shown && <RunResults row={shown} label={label} review={review} highlights={highlighter ? highlights : undefined} />}
    </section>
  );
}

/** The row's error; an interrupted or cancelled row without one still gets a heading. */
function runError(row: MatrixRunRow): { code: string; message: string } | undefined {
  if (row.error) return row.error;
  if (row.status === 'interrupted') return { code: 'interrupted', message: row.run?.interrupted?.message ?? '' };
  if (row.status === 'cancelled') return { code: 'aborted', message: 'Results of the properties finished before the stop are kept.' };
  return undefined;
}

/** The picker's properties: the built-in ones in their order, then the reader's (a reader's property never shadows a built-in one: the editor refuses their names). */
function offeredProperties(builtIn: ExtractionPanelProps['properties'], extra: readonly PropertyDefinition[]): readonly PickableProperty[] {
  const names = new Set(builtIn.map((property) => property.name));
  return [
    ...builtIn,
    ...extra
      .filter((property) => !names.has(property.name))
      .map(({ name, label, synonyms, symbols }) => ({ name, label, synonyms, symbols })),
  ];
}
