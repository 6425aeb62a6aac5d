/**
 * The side panel: a "Capture this page" button, a live status line, the captured paper, and
 * (when the entrypoint provides it) the "Extract properties" section for that paper, and the
 * "Settings and models" section.
 */
import type { ResponseOf } from '../contracts/messages';
import { failureHeading } from './failure-heading';
import { LiveExtractionPanel, type ExtractionServices } from './live-extraction-panel';
import { PaperSummaryView } from './paper-summary-view';
import { LiveSettingsPanel, type SettingsServices } from './settings-panel';
import { useCapture, type CaptureState } from './use-capture';

export interface CapturePanelProps {
  /** Capture and save the page the panel is for (see `requestCapture`). */
  captureActivePage: () => Promise<ResponseOf<'capture-tab'>>;
  /** URL of the dataset page. */
  datasetUrl: string;
  /** Database, property schemas, start and stop for SLM-MATRIX runs; without it no "Extract" section is shown. */
  extraction?: ExtractionServices;
  /** WebGPU check, model cache and storage for "Settings and models"; without it that section is not shown. */
  settings?: SettingsServices;
}

/** The whole side panel. */
export function CapturePanel({ captureActivePage, datasetUrl, extraction, settings }: CapturePanelProps) {
  const { state, capture } = useCapture(captureActivePage);
  const busy = state.status === 'busy';
  return (
    <main className="panel">
      <h1>Assay</h1>
      <button type="button" onClick={() => void capture()} disabled={busy} aria-busy={busy}>
        {busy ? 'Capturing…' : 'Capture this page'}
      </button>
      <div role="status" aria-live="polite" className="status" data-testid="capture-status" data-status={state.status}>
        <StatusLine state={state} />
      </div>
      {state.status === 'saved' && <PaperSummaryView paper={state.paper} warnings={state.warnings} />}
      {state.status === 'saved' && extraction && <LiveExtractionPanel key={state.paper.key} paperKey={state.paper.key} {...extraction} />}
      <p>
        <a href={datasetUrl} target="_blank" rel="noopener">
          Open your dataset
        </a>
      </p>
      {settings && <LiveSettingsPanel services={settings} />}
    </main>
  );
}

function StatusLine({ state }: { state: CaptureState }) {
  switch (state.status) {
    case 'idle':
      return null;
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
