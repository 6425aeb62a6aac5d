/**
 * The dataset page's import control. Choosing a file stores it as an import job
 * (src/store/import-job.ts) and asks the offscreen document to run it (`dataset-import`); the page
 * then only watches the newest job's record, which the document updates in the transaction that
 * saves each chunk. So the progress shown (lines saved, rows per second, what was added, merged
 * and refused so far) is what is on disk, and the page can be closed and reopened while the import
 * runs: it finds the job and shows it. A Stop button ends it after the chunk being saved; an
 * interrupted, stopped or failed import can be run again from its stored file (saved rows merge).
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useId, useMemo, useState, type ChangeEvent } from 'react';
import type { RequestOf, ResponseOf } from '../../contracts/messages';
import { keepStorageFromPage } from '../../extension/keep-storage';
import { sendRequest } from '../../extension/send-request';
import type { AssayDatabase } from '../../store/assay-database';
import { createImportJob, latestImportJob, restartImportJob, type ImportJob } from '../../export/import-job';
import {
  demotedLineTexts,
  importProgressText,
  importReportSentences,
  importSavedText,
  importSummaryText,
  rejectedLineTexts,
} from './dataset-view-model';

/** How the page reaches the import host: `sendRequest` in the extension; tests call the host directly. */
export type ImportRequester = (request: RequestOf<'dataset-import'>) => Promise<ResponseOf<'dataset-import'>>;

export interface ImportControlProps {
  database: AssayDatabase;
  /** Now, for the job's start time (tests pass a fixed date). */
  now?: () => Date;
  /** Default: `sendRequest` through the background to the offscreen document. */
  requestImport?: ImportRequester;
  /** Called when an import starts (rows are coming); default: ask this page's `navigator.storage` for persistent storage. */
  keepStorage?: () => void;
}

const ended = (job: ImportJob) => job.status !== 'waiting' && job.status !== 'running';

/** The finished job's summary, sentences, refused lines (or the problem with the whole file), and the lines kept for review against their claim. */
function endedView(job: ImportJob) {
  const problems = job.fileProblem !== undefined ? [job.fileProblem] : rejectedLineTexts(job.rejected ?? [], job.refused);
  const problemCount = job.fileProblem !== undefined ? 1 : job.refused;
  // An interrupted job has no report (its document died): its counters are what was saved.
  const summary = importSummaryText(
    job.report ? { added: job.report.added.length, merged: job.report.merged.length } : { added: job.added, merged: job.merged },
    problemCount,
  );
  const sentences = job.report ? importReportSentences(job.report) : [];
  if ((job.status === 'interrupted' || job.status === 'stopped') && job.message) sentences.unshift(job.message);
  if (job.status === 'failed' && !job.report && job.message) sentences.unshift(job.message);
  const demoted = demotedLineTexts(job.demoted ?? [], job.lowered ?? 0);
  return { summary, sentences, problems, demoted, alert: job.status !== 'done' };
}

/** The file input, the running import's progress with Stop, and the last import's report. */
export function ImportControl({
  database,
  now = () => new Date(),
  requestImport = sendRequest<'dataset-import'>,
  keepStorage = () => keepStorageFromPage('first-rows'),
}: ImportControlProps) {
  const id = useId();
  const job = useLiveQuery(() => latestImportJob(database), [database]);
  const [message, setMessage] = useState('');

  const ask = async (request: RequestOf<'dataset-import'>): Promise<boolean> => {
    const answer = await requestImport(request).catch((error: unknown) => ({
      ok: false as const,
      failure: { message: error instanceof Error ? error.message : String(error) },
    }));
    if (!answer.ok) setMessage(`The import could not be ${request.action === 'stop' ? 'stopped' : 'started'}: ${answer.failure.message}`);
    return answer.ok;
  };

  // Reopened while a job waits or runs: make sure the offscreen document has it (a new document
  // marks a job its dead predecessor was running as interrupted; `run` is ignored for a taken job).
  const jobId = job?.id;
  const jobStatus = job?.status;
  useEffect(() => {
    if (jobId === undefined) return;
    if (jobStatus === 'waiting') void ask({ type: 'dataset-import', action: 'run', jobId });
    else if (jobStatus === 'running') void ask({ type: 'dataset-import', action: 'check' });
    // Only when the job or its status changes, not on each progress update.
  }, [jobId, jobStatus]);

  const start = async (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.target;
    const file = input.files?.[0];
    if (!file) return;
    setMessage('');
    keepStorage();
    try {
      const created = await createImportJob(database, file, file.name, now());
      await ask({ type: 'dataset-import', action: 'run', jobId: created });
    } catch (error) {
      setMessage(`Could not import ${file.name}: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      // Choosing the same file again should import it again.
      input.value = '';
    }
  };

  const again = async (previous: ImportJob) => {
    setMessage('');
    if (await restartImportJob(database, previous.id, now())) await ask({ type: 'dataset-import', action: 'run', jobId: previous.id });
  };

  const busy = job !== undefined && !ended(job);
  // Once per job record read, not per render: a 100,000-line report takes tens of milliseconds to
  // put in words, and the page re-renders this with every filter, sort and export step.
  const view = useMemo(() => (job !== undefined && ended(job) ? endedView(job) : undefined), [job]);
  return (
    <div className="dataset-import">
      <label htmlFor={`${id}-import`}>Import Assay JSON or JSONL</label>
      <input
        id={`${id}-import`}
        type="file"
        accept=".json,.jsonl"
        data-testid="import-file"
        disabled={busy}
        onChange={(event) => void start(event)}
      />
      <div role="status" className="dataset-io-status">
        {busy && (
          <>
            <span data-testid="import-progress-text">{importProgressText(job)}</span>{' '}
            <progress
              max={Math.max(job.bytes, 1)}
              value={job.bytesDone ?? 0}
              data-saved-lines={job.done}
              aria-label={`Import of ${job.fileName}`}
            >
              {importProgressText(job)}
            </progress>{' '}
            <span>{importSavedText(job)}</span>
          </>
        )}
        {view && (
          <span className="visually-hidden">
            {view.alert ? 'Import ended early.' : 'Import finished.'} {view.summary}
          </span>
        )}
        {message && <p>{message}</p>}
      </div>
      {busy && job.status === 'running' && (
        <button type="button" data-testid="import-stop" onClick={() => void ask({ type: 'dataset-import', action: 'stop', jobId: job.id })}>
          Stop import
        </button>
      )}
      {job && view && (
        <div data-testid="import-summary" className="import-summary" role={view.alert ? 'alert' : undefined}>
          <p>
            {job.fileName}: {view.summary}
          </p>
          {view.sentences.map((sentence, index) => (
            <p key={index} data-testid="import-report">
              {sentence}
            </p>
          ))}
          {job.hasFile && job.status !== 'done' && (
            <button type="button" data-testid="import-again" onClick={() => void again(job)}>
              Import {job.fileName} again
            </button>
          )}
          {view.problems.length > 0 && (
            <>
              <p>Refused, with the reason:</p>
              <ul data-testid="import-refused">
                {view.problems.map((problem, index) => (
                  <li key={index}>{problem}</li>
                ))}
              </ul>
            </>
          )}
          {view.demoted.length > 0 && (
            <>
              <p>Marked verified in the file, but their own quote contradicts them: kept as needs review, with the reason:</p>
              <ul data-testid="import-demoted">
                {view.demoted.map((line, index) => (
                  <li key={index}>{line}</li>
                ))}
              </ul>
            </>
          )}
        </div>
      )}
    </div>
  );
}
