/**
 * `ExtractionPanel` wired to its live sources: the paper's latest run from the `runs` table, the
 * engine settings and the reader's own properties from extension storage, the review writes, and
 * the highlighter of the page the paper was captured from.
 */
import { useState } from 'react';
import type { AssayDatabase } from '../store/assay-database';
import { ExtractionPanel, type ExtractionPanelProps } from './extraction-panel';
import type { PageHighlighter } from './highlight-sync';
import { useUserProperties } from './property-editor-storage';
import type { ReviewActions } from './review-actions';
import { useEngineSettings } from './use-engine-settings';
import { useMatrixRun } from './use-matrix-run';

/** What the side panel's entrypoint provides for extraction. */
export interface ExtractionServices {
  database: AssayDatabase;
  properties: ExtractionPanelProps['properties'];
  start: ExtractionPanelProps['start'];
  stop: ExtractionPanelProps['stop'];
  /** Review writes and "Save verified" (`createReviewActions`); without them the verdicts are read-only. */
  review?: ReviewActions;
  /**
   * A highlighter for the page in view now (`createPageHighlighter`); called once when the
   * section appears, right after a capture, so the highlights go to the captured page.
   */
  openHighlighter?: () => PageHighlighter;
}

/** The "Extract properties" section for `paperKey`, showing its latest run live. */
export function LiveExtractionPanel({ paperKey, database, properties, start, stop, review, openHighlighter }: ExtractionServices & { paperKey: string }) {
  const run = useMatrixRun(database, paperKey);
  const { engine, setEngine } = useEngineSettings();
  const userProperties = useUserProperties();
  const [highlighter] = useState(() => openHighlighter?.());
  return (
    <ExtractionPanel
      paperKey={paperKey}
      properties={properties}
      run={run}
      engine={engine}
      onEngineChange={setEngine}
      start={start}
      stop={stop}
      review={review}
      highlighter={highlighter}
      userProperties={userProperties}
    />
  );
}
