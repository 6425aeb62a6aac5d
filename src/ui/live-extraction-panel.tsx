/**
 * `ExtractionPanel` wired to its live sources: the paper's latest run from the `runs` table and
 * the engine settings from extension storage.
 */
import type { AssayDatabase } from '../store/assay-database';
import { ExtractionPanel, type ExtractionPanelProps } from './extraction-panel';
import { useEngineSettings } from './use-engine-settings';
import { useMatrixRun } from './use-matrix-run';

/** What the side panel's entrypoint provides for extraction. */
export interface ExtractionServices {
  database: AssayDatabase;
  properties: ExtractionPanelProps['properties'];
  start: ExtractionPanelProps['start'];
  stop: ExtractionPanelProps['stop'];
}

/** The "Extract properties" section for `paperKey`, showing its latest run live. */
export function LiveExtractionPanel({ paperKey, database, properties, start, stop }: ExtractionServices & { paperKey: string }) {
  const run = useMatrixRun(database, paperKey);
  const { engine, setEngine } = useEngineSettings();
  return <ExtractionPanel paperKey={paperKey} properties={properties} run={run} engine={engine} onEngineChange={setEngine} start={start} stop={stop} />;
}
