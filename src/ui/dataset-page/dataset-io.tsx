/**
 * Export and import on the dataset page. Export writes exactly the triplets the table shows
 * (those matching the current filters, in the table's order) in a format of the export table,
 * src/export/export-formats.ts (CSV, Assay JSON/JSONL, W3C Web Annotations, BibTeX, CSL-JSON: one
 * button each), written into a file as it is formatted, with progress and Stop, then handed to
 * the browser as a download (Blob + object URL + `<a download>`). The dataset worker writes it
 * (worker-export.ts: off this page's main thread, into the origin's private file system); without
 * a worker that can, this page does (`openExportSink`, the private file system where it has one).
 * Import is `ImportControl` (import-control.tsx): a job the offscreen document runs, so it
 * outlives the page.
 */
import { useId, useState } from 'react';
import type { DatasetTriplet } from '../../contracts/dataset';
import type { AssayDatabase } from '../../store/assay-database';
import { datasetProperties, type TripletQuery } from '../../store/dataset-repository';
import type { TripletSearch } from '../../extension/triplet-search-client';
import { exportChoices, exportFileName, exportSubjectText, type ExportChoice } from './dataset-view-model';
import type { PropertyLabel } from '../shared/run-view-model';
import { eachShownTripletChunk } from './sorted-triplets';
import { exportedFile, openExportSink } from './export-sink';
import { conditionMatcher, type ConditionFilter } from '../shared/fact-conditions';
import { DEFAULT_SORT, type TripletSort } from './triplet-sort';
import { ImportControl, type ImportRequester } from './import-control';
import type { TripletIdSearch } from '../../store/search-triplets';

/**
 * Rows per chunk of an export (`eachShownTripletChunk`): formatting 1,000 CSV rows takes about
 * 20–60 ms on a 2-core machine, so no chunk makes a long task of the page (issue 31: none over 200 ms).
 */
const EXPORT_STEP = 1000;

/**
 * Offer `text` as a file download named `fileName`: an object URL for a Blob of `type`, clicked
 * through a temporary `<a download>` in `document`, revoked once the click has been dispatched.
 */
export function downloadText(document: Document, text: string, fileName: string, type: string): void {
  downloadParts(document, [text], fileName, type);
}

/** `downloadText` of the text `parts` joined in order (a Blob of parts: the parts are never concatenated into one string). */
export function downloadParts(document: Document, parts: readonly string[], fileName: string, type: string): void {
  downloadBlob(document, new Blob([...parts], { type: `${type};charset=utf-8` }), fileName);
}

/** Offer `blob` as a file download named `fileName` (see `downloadText`). */
export function downloadBlob(document: Document, blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoke on the next task: some browsers start reading the URL only after the click handler returns.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

export interface DatasetIoProps {
  database: AssayDatabase;
  query: TripletQuery;
  /** Now, for export file names and the import time (tests pass a fixed date). */
  now?: () => Date;
  /** How imports reach the offscreen document (`ImportControl`'s default: `sendRequest`). */
  requestImport?: ImportRequester;
  /**
   * The dataset worker (its search index and catalog, so an export holds the rows the table shows);
   * with `exportRows`, the worker writes the file and this page only downloads it.
   */
  search?: (TripletIdSearch & Pick<TripletSearch, 'exportRows'>) | undefined;
  /** The table's order, which the export keeps (default: newest first). */
  sort?: TripletSort;
  /** Spells properties as the table does (the property column sorts by it; default: the name). */
  label?: PropertyLabel;
  /** How many rows the table shows (undefined until counted), for the buttons' words. */
  shownCount?: number | undefined;
  /** The method and provenance filters (tested in memory), so an export holds the rows the table shows. */
  conditions?: ConditionFilter;
}

const byName: PropertyLabel = (name) => name;

/** The export buttons and the import control with its progress and summary. */
export function DatasetIo({
  database,
  query,
  now = () => new Date(),
  requestImport,
  search,
  sort = DEFAULT_SORT,
  label = byName,
  shownCount,
  conditions,
}: DatasetIoProps) {
  const id = useId();
  const [exportStatus, setExportStatus] = useState('');
  const [exporting, setExporting] = useState<AbortController | null>(null);

  const runExport = async (choice: ExportChoice) => {
    const controller = new AbortController();
    setExporting(controller);
    setExportStatus('Preparing the export…');
    try {
      if (search?.exportRows && (await exportInWorker(search.exportRows.bind(search), choice, controller.signal))) return;
      await exportHere(choice, controller);
    } finally {
      setExporting(null);
    }
  };

  const of = () => (shownCount !== undefined ? ` of ${shownCount.toLocaleString('en-US')}` : '');
  const exportedText = (count: number, fileName: string) => `Exported ${count === 1 ? '1 triplet' : `${count} triplets`} to ${fileName}.`;

  /**
   * The export written by the dataset worker (worker-export.ts): this page only shows its progress
   * and downloads the finished file. Resolves false when the worker cannot write one (the page
   * then writes it itself), true once the export has ended any other way.
   */
  const exportInWorker = async (exportRows: NonNullable<TripletSearch['exportRows']>, { format }: ExportChoice, signal: AbortSignal) => {
    const fileName = exportFileName(format.id, now());
    const labels = Object.fromEntries((await datasetProperties(database)).map((name) => [name, label(name)]));
    const running = exportRows({ format: format.id, query, sort, labels, ...(conditions && { conditions }) }, (written) =>
      setExportStatus(`Exporting… ${written.toLocaleString('en-US')}${of()} rows`),
    );
    const stop = () => running.stop();
    signal.addEventListener('abort', stop);
    // Stop pressed while the labels were read: the worker has just been asked, so stop it now.
    if (signal.aborted) stop();
    try {
      const result = await running.done;
      if ('file' in result) {
        downloadBlob(document, await exportedFile(result.file, `${format.mediaType};charset=utf-8`), fileName);
        setExportStatus(exportedText(result.count, fileName));
      } else if (result.outcome === 'unavailable') return false;
      else if (result.outcome === 'stopped') setExportStatus('Export stopped; no file was saved.');
      else setExportStatus(`Export failed: ${result.message}`);
    } catch (error) {
      setExportStatus(`Export failed: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      signal.removeEventListener('abort', stop);
    }
    return true;
  };

  /** The export written by this page (no worker, or one without a private file system). */
  const exportHere = async ({ format }: ExportChoice, controller: AbortController) => {
    // The text goes into a file as it is formatted (an OPFS file where the page has one): no
    // 100,000-row array and no 100 MB of strings held; a format written whole still builds its text.
    const sink = await openExportSink();
    try {
      const fileName = exportFileName(format.id, now());
      const chunked = format.chunk;
      const rows: DatasetTriplet[] = [];
      let written = 0;
      const count = await eachShownTripletChunk(
        database,
        query,
        sort,
        label,
        (chunk) => {
          // Stop: thrown inside the read, so the cursor stops too.
          if (controller.signal.aborted) throw new DOMException('The export was stopped.', 'AbortError');
          if (chunked) sink.write(chunked(chunk, written === 0));
          else rows.push(...chunk);
          written += chunk.length;
          setExportStatus(`Exporting… ${written.toLocaleString('en-US')}${of()} rows`);
        },
        EXPORT_STEP,
        search,
        conditions && conditionMatcher(conditions),
      );
      if (controller.signal.aborted) throw new DOMException('The export was stopped.', 'AbortError');
      if (!chunked) sink.write(format.write(rows));
      else if (written === 0) sink.write(chunked([], true));
      downloadBlob(document, await sink.finish(`${format.mediaType};charset=utf-8`), fileName);
      setExportStatus(exportedText(count, fileName));
    } catch (error) {
      await sink.abort();
      if (controller.signal.aborted) setExportStatus('Export stopped; no file was saved.');
      else setExportStatus(`Export failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  };

  return (
    <div className="dataset-io">
      <div className="dataset-export" role="group" aria-labelledby={`${id}-export`}>
        <span id={`${id}-export`} className="dataset-export-label">
          {exportSubjectText(shownCount)} as
        </span>
        {exportChoices().map((entry) => (
          <button
            key={entry.format.id}
            type="button"
            data-testid={entry.testId}
            disabled={exporting !== null}
            aria-label={`${exportSubjectText(shownCount)} as ${entry.text}`}
            onClick={() => void runExport(entry)}
          >
            {entry.text}
          </button>
        ))}
        {exporting && (
          <button type="button" data-testid="export-stop" onClick={() => exporting.abort()}>
            Stop export
          </button>
        )}
        <span role="status" className="dataset-io-status">
          {exportStatus}
        </span>
      </div>
      <ImportControl database={database} now={now} {...(requestImport && { requestImport })} />
    </div>
  );
}
