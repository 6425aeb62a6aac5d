/**
 * Export and import on the dataset page. Export writes exactly the triplets the table shows
 * (those matching the current filters, in the table's order) in a format of the export table,
 * src/export/export-formats.ts (CSV, Assay JSON/JSONL, W3C Web Annotations, BibTeX, CSL-JSON: one
 * button each), and hands it to the browser as a download (Blob + object URL + `<a download>`).
 * Import is `ImportControl` (import-control.tsx): a job the offscreen document runs, so it
 * outlives the page.
 */
import { useId, useState } from 'react';
import type { DatasetTriplet } from '../../contracts/dataset';
import type { AssayDatabase } from '../../store/assay-database';
import { type TripletQuery } from '../../store/dataset-repository';
import { exportChoices, exportFileName, exportSubjectText, type ExportChoice } from './dataset-view-model';
import type { PropertyLabel } from '../shared/run-view-model';
import { eachShownTripletChunk } from './sorted-triplets';
import { conditionMatcher, type ConditionFilter } from '../shared/fact-conditions';
import { DEFAULT_SORT, type TripletSort } from './triplet-sort';
import { ImportControl, type ImportRequester } from './import-control';
import type { TripletIdSearch } from '../../store/search-triplets';

/** Rows per chunk of a chunked export (`eachTripletChunk`). */
const EXPORT_STEP = 5000;

/**
 * Offer `text` as a file download named `fileName`: an object URL for a Blob of `type`, clicked
 * through a temporary `<a download>` in `document`, revoked once the click has been dispatched.
 */
export function downloadText(document: Document, text: string, fileName: string, type: string): void {
  downloadParts(document, [text], fileName, type);
}

/** `downloadText` of the text `parts` joined in order (a Blob of parts: the parts are never concatenated into one string). */
export function downloadParts(document: Document, parts: readonly string[], fileName: string, type: string): void {
  const url = URL.createObjectURL(new Blob([...parts], { type: `${type};charset=utf-8` }));
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
  /** The search index, so an export of a search holds the rows the table shows. */
  search?: TripletIdSearch | undefined;
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
  const [exporting, setExporting] = useState(false);

  const runExport = async ({ format }: ExportChoice) => {
    setExporting(true);
    setExportStatus('Preparing the export…');
    try {
      const fileName = exportFileName(format.id, now());
      const chunked = format.chunk;
      // A chunked format (CSV, JSONL) is written chunk by chunk while the next chunk is read: no 100 000-row array, no 100 MB string.
      const parts: string[] = [];
      const rows: DatasetTriplet[] = [];
      let written = 0;
      const count = await eachShownTripletChunk(
        database,
        query,
        sort,
        label,
        (chunk) => {
          if (chunked) parts.push(chunked(chunk, parts.length === 0));
          else rows.push(...chunk);
          written += chunk.length;
          setExportStatus(`Preparing the export… ${written} rows`);
        },
        EXPORT_STEP,
        search,
        conditions && conditionMatcher(conditions),
      );
      if (chunked) downloadParts(document, parts.length > 0 ? parts : [chunked([], true)], fileName, format.mediaType);
      else downloadText(document, format.write(rows), fileName, format.mediaType);
      setExportStatus(`Exported ${count === 1 ? '1 triplet' : `${count} triplets`} to ${fileName}.`);
    } catch (error) {
      setExportStatus(`Export failed: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      setExporting(false);
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
            disabled={exporting}
            aria-label={`${exportSubjectText(shownCount)} as ${entry.text}`}
            onClick={() => void runExport(entry)}
          >
            {entry.text}
          </button>
        ))}
        <span role="status" className="dataset-io-status">
          {exportStatus}
        </span>
      </div>
      <ImportControl database={database} now={now} {...(requestImport && { requestImport })} />
    </div>
  );
}
