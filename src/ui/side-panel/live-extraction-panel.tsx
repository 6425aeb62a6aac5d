/**
 * `ExtractionPanel` wired to its live sources: the paper's latest run from the `runs` table, the
 * engine settings and the reader's own properties from extension storage, the review writes, and
 * the highlighter of the page the paper was captured from. Until the paper has a run with
 * records, that page shows the quick scan's candidates (`useCandidateHighlights`), with a line
 * (`candidate-status`) saying how many were highlighted, and the candidates' fact list
 * (`CandidateFactList`).
 */
import { useEffect, useMemo, useState } from 'react';
import type { ResponseOf } from '../../contracts/messages';
import { loadPropertySchemas } from '../../properties';
import type { PropertyDefinition } from '../../contracts/property';
import type { AssayDatabase } from '../../store/assay-database';
import { candidateStatusCode, candidateStatusText, showsCandidates } from './candidate-highlights';
import type { TestConnection } from '../shared/engine-fields';
import { ExtractionPanel, type ExtractionPanelProps } from './extraction-panel';
import { CandidateFactList } from './candidate-fact-list';
import type { PageHighlighter } from './highlight-sync';
import type { PanelTarget } from '../../extension/panel-target';
import { useUserProperties } from '../settings/property-editor-storage';
import type { ReviewActions } from './review-actions';
import { useCandidateHighlights } from './use-candidate-highlights';
import { useEngineSettings } from '../settings/use-engine-settings';
import { unreadableRunsText, useLatestRun, useUnreadableRunCount } from './use-matrix-run';
import { chooseRunEngine, type WebGpuState } from './run-defaults';
import { DEFAULT_ENGINE } from '../shared/engine-form';

/** What the side panel's entrypoint provides for extraction. */
export interface ExtractionServices {
  database: AssayDatabase;
  properties: ExtractionPanelProps['properties'];
  start: ExtractionPanelProps['start'];
  stop: ExtractionPanelProps['stop'];
  /** Review writes and "Save verified" (`createReviewActions`); without them the verdicts are read-only. */
  review?: ReviewActions;
  /**
   * A highlighter for the page in view now (`createPageHighlighter`): `target`'s tab when the
   * panel follows one, else the tab in view. Called once when the section appears (right after a
   * capture, or when the panel opens on a captured page or moves to one), so the highlights go
   * to that page and never to a page shown later. Without it nothing is highlighted and no quick
   * scan runs.
   */
  openHighlighter?: (target?: PanelTarget) => PageHighlighter;
  /** The built-in schemas the quick scan looks for (the reader's own are added); default `loadPropertySchemas()`. */
  schemas?: readonly PropertyDefinition[];
  /**
   * The `webgpu-check` request: with it, a reader who chose no engine gets WebLLM only where
   * WebGPU can run it, else the model-server setup (`chooseRunEngine`). Without it, WebLLM.
   */
  checkWebGpu?: () => Promise<ResponseOf<'webgpu-check'>>;
  /** "Test connection" under a model server's inputs (`createRunControls`); without it, no button. */
  testConnection?: TestConnection;
}

/** The `checkWebGpu` answer as a `WebGpuState`, asked once when the panel mounts (`unknown` without a checker). */
function useWebGpuState(checkWebGpu: (() => Promise<ResponseOf<'webgpu-check'>>) | undefined): WebGpuState {
  const [state, setState] = useState<WebGpuState>(checkWebGpu ? { phase: 'checking' } : { phase: 'unknown' });
  useEffect(() => {
    if (!checkWebGpu) return;
    let current = true;
    checkWebGpu().then(
      (answer) =>
        current &&
        setState(answer.ok ? { phase: 'done', capability: answer.capability } : { phase: 'failed', message: answer.failure.message }),
      (error: unknown) => current && setState({ phase: 'failed', message: error instanceof Error ? error.message : String(error) }),
    );
    return () => {
      current = false;
    };
  }, [checkWebGpu]);
  return state;
}

/**
 * The "Extract properties" section for `paperKey`, showing its latest run live, preceded by the
 * quick scan's `candidate-status` while candidates are the page's highlights. `capturedAt` (the
 * paper's latest capture) makes a new capture of the same paper scan again.
 */
export function LiveExtractionPanel({
  paperKey,
  capturedAt,
  database,
  properties,
  start,
  stop,
  review,
  openHighlighter,
  schemas,
  target,
  checkWebGpu,
  testConnection,
}: ExtractionServices & { paperKey: string; capturedAt?: string; target?: PanelTarget }) {
  const run = useLatestRun(database, paperKey);
  const unreadable = unreadableRunsText(useUnreadableRunCount(database, paperKey));
  const { engine, chosen, setEngine, loaded } = useEngineSettings();
  const webGpu = useWebGpuState(checkWebGpu);
  // Until storage is read the reader's choice is not known: keep the stored-or-default engine meanwhile.
  const engineChoice = loaded ? chooseRunEngine(chosen, webGpu, DEFAULT_ENGINE) : ({ phase: 'engine', engine, why: 'chosen' } as const);
  const userProperties = useUserProperties();
  const [highlighter] = useState(() => openHighlighter?.(target));

  // Once a run of this paper has shown records, candidates do not come back (`showsCandidates`).
  const [recordsSeen, setRecordsSeen] = useState(false);
  if (!recordsSeen && run && run.records.length > 0) setRecordsSeen(true);
  const wanted = highlighter !== undefined && showsCandidates(run, recordsSeen);

  const builtIn = useMemo(() => schemas ?? loadPropertySchemas(), [schemas]);
  const scanned = useMemo(() => {
    const names = new Set(builtIn.map((schema) => schema.name));
    return [...builtIn, ...userProperties.list.filter((schema) => !names.has(schema.name))];
  }, [builtIn, userProperties.list]);
  const candidates = useCandidateHighlights(database, paperKey, capturedAt, scanned, wanted);

  return (
    <>
      {unreadable && (
        <p className="problem" role="status" data-testid="unreadable-runs">
          {unreadable}
        </p>
      )}
      {wanted && candidates.state && (
        <p
          className="status"
          role="status"
          aria-live="polite"
          data-testid="candidate-status"
          data-status={candidateStatusCode(candidates.state)}
        >
          {candidateStatusText(candidates.state)}
        </p>
      )}
      {wanted && highlighter && candidates.state?.phase === 'ready' && (
        <CandidateFactList state={candidates.state} highlighter={highlighter} />
      )}
      <ExtractionPanel
        paperKey={paperKey}
        properties={properties}
        run={run ?? undefined}
        engine={engineChoice.phase === 'engine' ? engineChoice.engine : engine}
        onEngineChange={setEngine}
        engineSetup={engineChoice.phase === 'setup' ? { reason: engineChoice.reason, onChoose: setEngine } : undefined}
        foundCounts={candidates.counts}
        start={start}
        stop={stop}
        {...(testConnection ? { testConnection } : {})}
        review={review}
        highlighter={highlighter}
        userProperties={userProperties}
        candidates={candidates.layer}
      />
    </>
  );
}
