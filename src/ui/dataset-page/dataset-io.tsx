/**
 * Export and import on the dataset page. Export writes every triplet matching the current
 * filters (read in pages) as CSV, Assay JSON/JSONL, W3C Web Annotations, BibTeX or CSL-JSON and
 * hands it to the browser as a download (Blob + object URL + `<a download>`). Import reads an
 * Assay JSON or JSONL file, validates each row (`readAssayImport`), saves the valid ones with new
 * ids and never over a saved row (`importTriplets`) with progress, and reports by line what was
 * added, merged and refused and, when a write fails, what was saved before it.
 */
import { useId, useState, type ChangeEvent } from 'react';
import type { DatasetTriplet } from '../../contracts/dataset';
import { toBibtex, toCslJson, toCsv, toJson, toJsonl, toWebAnnotations } from '../../export/dataset-export';
import { readAssayImport, type RejectedLine } from '../../export/dataset-import';
import type { AssayDatabase } from '../../store/assay-database';
import { queryTriplets, type TripletQuery } from '../../store/dataset-repository';
import { importTriplets, type ImportReport } from '../../store/import-triplets';
import type { TripletIdSearch } from '../../store/search-triplets';
import {
  exportFileName,
  exportMediaType,
  importReportSentences,
  importSummaryText,
  rejectedLineTexts,
  type ExportFormat,
} from './dataset-view-model';

const EXPORTS: ReadonlyArray<{ format: ExportFormat; text: string; testId: string; write: (rows: readonly DatasetTriplet[]) => string }> = [
  { format: 'csv', text: 'Export CSV', testId: 'export-csv', write: toCsv },
  { format: 'json', text: 'JSON', testId: 'export-json', write: toJson },
  { format: 'jsonl', text: 'JSONL', testId: 'export-jsonl', write: toJsonl },
  { format: 'annotations', text: 'Web Annotations', testId: 'export-annotations', write: (rows) => toWebAnnotations(rows) },
  { format: 'bibtex', text: 'BibTeX', testId: 'export-bibtex', write: toBibtex },
  { format: 'csl', text: 'CSL-JSON', testId: 'export-csl', write: toCslJson },
];

/**
 * Offer `text` as a file download named `fileName`: an object URL for a Blob of `type`, clicked
 * through a temporary `<a download>` in `document`, revoked once the click has been dispatched.
 */
export function downloadText(document: Document, text: string, fileName: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: `${type};charset=utf-8` }));
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

type ImportState =
  | { phase: 'idle' }
  | { phase: 'saving'; fileName: string; done: number; total: number }
  | { phase: 'done'; fileName: string; summary: string; sentences: string[]; failed: boolean; problems: string[] }
  | { phase: 'failed'; fileName: string; message: string };

/** The finished import's state: the summary line, the report's sentences and the refused lines (or the problem with the whole file). */
function doneState(
  fileName: string,
  report: ImportReport,
  rejected: readonly RejectedLine[],
  fileProblem: string | undefined,
): ImportState {
  const problems = fileProblem !== undefined ? [fileProblem] : rejectedLineTexts(rejected);
  const problemCount = fileProblem !== undefined ? 1 : rejected.length;
  return {
    phase: 'done',
    fileName,
    summary: importSummaryText({ added: report.added.length, merged: report.merged.length }, problemCount),
    sentences: importReportSentences(report),
    failed: report.failure !== undefined,
    problems,
  };
}

export interface DatasetIoProps {
  database: AssayDatabase;
  query: TripletQuery;
  /** Now, for export file names and the import time (tests pass a fixed date). */
  now?: () => Date;
  /** The search index, so an export of a search holds the rows the table shows. */
  search?: TripletIdSearch | undefined;
}

/** The export buttons and the import control with its progress and summary. */
export function DatasetIo({ database, query, now = () => new Date(), search }: DatasetIoProps) {
  const id = useId();
  const [exportStatus, setExportStatus] = useState('');
  const [exporting, setExporting] = useState(false);
  const [imported, setImported] = useState<ImportState>({ phase: 'idle' });

  const runExport = async (entry: (typeof EXPORTS)[number]) => {
    setExporting(true);
    setExportStatus('Preparing the export…');
    try {
      // One pass over the index: paging by offset re-walks the skipped rows each time (quadratic at 100 000 rows).
      const { rows } = await queryTriplets(database, query, undefined, search);
      const fileName = exportFileName(entry.format, now());
      downloadText(document, entry.write(rows), fileName, exportMediaType(entry.format));
      setExportStatus(`Exported ${rows.length === 1 ? '1 triplet' : `${rows.length} triplets`} to ${fileName}.`);
    } catch (error) {
      setExportStatus(`Export failed: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      setExporting(false);
    }
  };

  const runImport = async (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.target;
    const file = input.files?.[0];
    if (!file) return;
    setImported({ phase: 'saving', fileName: file.name, done: 0, total: 0 });
    try {
      const started = now();
      const { rows, rejected, fileProblem } = readAssayImport(await file.text(), started);
      setImported({ phase: 'saving', fileName: file.name, done: 0, total: rows.length });
      // A failed write does not throw: the report says what was saved before it.
      const report = await importTriplets(database, rows, {
        fileName: file.name,
        now: started,
        onProgress: (done, total) => setImported({ phase: 'saving', fileName: file.name, done, total }),
      });
      setImported(doneState(file.name, report, rejected, fileProblem));
    } catch (error) {
      setImported({ phase: 'failed', fileName: file.name, message: error instanceof Error ? error.message : String(error) });
    } finally {
      // Choosing the same file again should import it again.
      input.value = '';
    }
  };

  return (
    <div className="dataset-io">
      <div className="dataset-export" role="group" aria-label="Export the triplets matching the filters">
        {EXPORTS.map((entry) => (
          <button key={entry.format} type="button" data-testid={entry.testId} disabled={exporting} onClick={() => void runExport(entry)}>
            {entry.text}
          </button>
        ))}
        <span role="status" className="dataset-io-status">
          {exportStatus}
        </span>
      </div>
      <div className="dataset-import">
        <label htmlFor={`${id}-import`}>Import Assay JSON or JSONL</label>
        <input
          id={`${id}-import`}
          type="file"
          accept=".json,.jsonl"
          data-testid="import-file"
          disabled={imported.phase === 'saving'}
          onChange={(event) => void runImport(event)}
        />
        <div role="status" className="dataset-io-status">
          {imported.phase === 'saving' && (
            <>
              Importing {imported.fileName}…{' '}
              <progress max={Math.max(imported.total, 1)} value={imported.done}>
                {imported.done} of {imported.total}
              </progress>
            </>
          )}
          {imported.phase === 'done' && (
            <span className="visually-hidden">
              {imported.failed ? 'Import stopped by an error.' : 'Import finished.'} {imported.summary}
            </span>
          )}
          {imported.phase === 'failed' && (
            <p>
              Could not import {imported.fileName}: {imported.message}
            </p>
          )}
        </div>
        {imported.phase === 'done' && (
          <div data-testid="import-summary" className="import-summary" role={imported.failed ? 'alert' : undefined}>
            <p>
              {imported.fileName}: {imported.summary}
            </p>
            {imported.sentences.map((sentence, index) => (
              <p key={index} data-testid="import-report">
                {sentence}
              </p>
            ))}
            {imported.problems.length > 0 && (
              <>
                <p>Refused, with the reason:</p>
                <ul data-testid="import-refused">
                  {imported.problems.map((problem, index) => (
                    <li key={index}>{problem}</li>
                  ))}
                </ul>
              </>
            )}
          </div>
        )}
      </div>
    </div>
  );
}
