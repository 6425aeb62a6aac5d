/**
 * The side panel: a "Capture this page" button, a live status line, the captured paper, and
 * (when the entrypoint provides it) the "Extract properties" section for that paper, and the
 * "Settings and models" section. When the panel opens on a page already in the dataset
 * (`findCurrentPaper`), that paper and its latest run are shown at once, and the button reads
 * "Capture again". With `precedent`, a "Check precedent" section comes first (the context menu's
 * question, see precedent-lookup.tsx), each run record gets a "Precedent" button, and
 * "Reference tables" follows the settings.
 */
import type { ResponseOf } from '../../contracts/messages';
import { capturedOnText, type CurrentPaper } from './current-paper';
import { failureHeading } from '../shared/failure-heading';
import { LiveExtractionPanel, type ExtractionServices } from './live-extraction-panel';
import { PaperSummaryView } from './paper-summary-view';
import { PrecedentContext, PrecedentSection, type PrecedentSectionProps } from '../shared/precedent-lookup';
import { ReferenceTablesSection } from './precedent-reference-tables';
import { LiveSettingsPanel, type SettingsServices } from '../settings/settings-panel';
import { useCapture, type CaptureState } from './use-capture';
import { useCurrentPaper, type WatchPapers } from './use-current-paper';
import type { PanelTarget } from '../../extension/panel-target';
import { usePanelTarget, type WatchPanelTarget } from './use-panel-target';

export interface CapturePanelProps {
  /** Capture and save the page the panel is for: `target`'s tab when the panel follows one, else the tab `requestCapture` finds. */
  captureActivePage: (target?: PanelTarget) => Promise<ResponseOf<'capture-tab'>>;
  /** URL of the dataset page. */
  datasetUrl: string;
  /** URL of the bundled example article (src/extension/example-article.ts), offered while the panel is empty. */
  exampleUrl?: string;
  /** Database, property schemas, start and stop for SLM-MATRIX runs; without it no "Extract" section is shown. */
  extraction?: ExtractionServices;
  /** WebGPU check, model cache and storage for "Settings and models"; without it that section is not shown. */
  settings?: SettingsServices;
  /**
   * The saved paper of the page the panel is for (`currentPaperFinder`), looked up when the
   * panel opens and when its page changes; without it, or when it finds none, the panel offers
   * "Capture this page".
   */
  findCurrentPaper?: (target?: PanelTarget) => Promise<CurrentPaper | undefined>;
  /**
   * The page the panel follows (`watchPanelTarget`): on a tab switch, a navigation or a reload the
   * panel forgets the earlier page's capture, paper, run view and highlighter and looks the new
   * page up. Without it the panel stays on the page it opened on.
   */
  watchTarget?: WatchPanelTarget;
  /** Changes of the saved papers (`papersChanged`): while none is found, each change looks the page up again. */
  watchPapers?: WatchPapers;
  /** Database, properties and `storage.session` for the precedent check; without it no precedent section or button is shown. */
  precedent?: PrecedentSectionProps;
}

/**
 * The whole side panel. The paper shown is the one this session captured, else the one found
 * for the page when the panel opened (kept while a new capture runs or fails, since it is still
 * saved). `capture-status` keeps `data-status` = the capture's state ("idle" for a found paper),
 * so waiting for "saved" still means a capture finished.
 */
export function CapturePanel({
  captureActivePage,
  datasetUrl,
  exampleUrl,
  extraction,
  settings,
  findCurrentPaper,
  watchPapers,
  watchTarget,
  precedent,
}: CapturePanelProps) {
  const { target, key: targetKey } = usePanelTarget(watchTarget);
  const { state, capture } = useCapture(captureActivePage, target, targetKey);
  const current = useCurrentPaper(findCurrentPaper, watchPapers, target, targetKey);
  const noTab = target?.tabId === null;
  const busy = state.status === 'busy';
  const shown =
    state.status === 'saved' ? { paper: state.paper, warnings: state.warnings } : current.status === 'found' ? current : undefined;
  return (
    <PrecedentContext.Provider value={precedent ?? null}>
      <main className="panel">
        <header className="panel-head">
          <h1>Assay</h1>
          <button
            type="button"
            className={shown ? undefined : 'primary'}
            onClick={() => void capture()}
            disabled={busy || noTab || targetKey === 'pending'}
            aria-busy={busy}
          >
            {busy ? 'Capturing…' : shown ? 'Capture again' : 'Capture this page'}
          </button>
        </header>
        {precedent && <PrecedentSection {...precedent} />}
        <div
          role="status"
          aria-live="polite"
          className="status"
          data-testid="capture-status"
          data-status={state.status}
          data-page={targetKey}
        >
          {noTab ? (
            <p>This window has no tab to capture: open a paper’s page.</p>
          ) : (
            <StatusLine state={state} found={current.status === 'found'} />
          )}
        </div>
        {!shown && !noTab && state.status === 'idle' && current.status === 'none' && (
          <p className="empty-state" data-testid="panel-empty">
            Open a paper’s page and choose Capture this page: Assay reads it here, in this browser, and finds its materials’ properties.
            {exampleUrl && (
              <>
                {' '}
                New to Assay?{' '}
                <a href={exampleUrl} target="_blank" rel="noopener">
                  Try it on the example article
                </a>
                , which works offline.
              </>
            )}
          </p>
        )}
        {shown && <PaperSummaryView paper={shown.paper} warnings={shown.warnings} capturedText={capturedOnText(shown.paper.capturedAt)} />}
        {shown && extraction && (
          <LiveExtractionPanel
            // A new page (even of the same paper: a reload) gets its own highlighter and candidate scan.
            key={`${targetKey}|${shown.paper.key}`}
            paperKey={shown.paper.key}
            capturedAt={shown.paper.capturedAt}
            target={target}
            {...extraction}
          />
        )}
        <p className="dataset-link">
          <a href={datasetUrl} target="_blank" rel="noopener">
            Open your dataset
          </a>
        </p>
        {settings && <LiveSettingsPanel services={settings} />}
        {precedent && <ReferenceTablesSection database={precedent.database} />}
      </main>
    </PrecedentContext.Provider>
  );
}

function StatusLine({ state, found }: { state: CaptureState; found: boolean }) {
  switch (state.status) {
    case 'idle':
      return found ? <p>This page is already in your dataset.</p> : null;
    case 'busy':
      return <p>Capturing the page…</p>;
    case 'saved':
      return <p>Saved to your dataset.</p>;
    case 'failed':
      return (
        <div className="problem" data-failure-code={state.failure.code}>
          <p>
            <strong>{failureHeading(state.failure)}</strong>
          </p>
          <p>{state.failure.message}</p>
        </div>
      );
  }
}
