/**
 * One paper's page in the dataset (route `#paper=<key>`): its citation and every triplet saved
 * from it, with its conditions and provenance, the quote that supports it, the page, the machine status, and — for a reader's
 * edit — the model's original answer beside the reader's value.
 */
import { describeValue } from '../../text/quantities/format-quantity';
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useId, useRef } from 'react';
import type { DatasetTriplet, SourcePaper } from '../../contracts/dataset';
import type { AssayDatabase } from '../../store/assay-database';
import { queryTriplets } from '../../store/dataset-repository';
import { getPaper } from '../../store/paper-repository';
import { citationText, originalText, statusText } from './dataset-view-model';
import { DoiLink } from '../shared/doi-link';
import { FactConditions } from '../shared/fact-conditions-view';
import { type PropertyLabel } from '../shared/run-view-model';

export interface PaperViewProps {
  database: AssayDatabase;
  paperKey: string;
  label: PropertyLabel;
  onClose: () => void;
}

/** The paper panel; focuses its heading when opened so keyboard and screen-reader users land in it; Close or Escape closes it. */
export function PaperView({ database, paperKey, label, onClose }: PaperViewProps) {
  const id = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const loaded = useLiveQuery(async () => {
    const [{ rows }, record] = await Promise.all([queryTriplets(database, { paperKey }), getPaper(database, paperKey)]);
    return { rows, record };
  }, [database, paperKey]);
  useEffect(() => headingRef.current?.focus(), [paperKey]);

  const paper: SourcePaper | undefined = loaded?.rows[0]?.paper ?? loaded?.record;
  return (
    <section
      className="paper-view"
      aria-labelledby={`${id}-heading`}
      data-testid="paper-view"
      data-key={paperKey}
      // Escape closes it from anywhere inside, as Close does.
      onKeyDown={(event) => {
        if (event.key === 'Escape') onClose();
      }}
    >
      <h2 id={`${id}-heading`} ref={headingRef} tabIndex={-1}>
        {paper?.title ?? 'Paper'}
      </h2>
      <button type="button" className="paper-view-close" onClick={onClose}>
        Close
      </button>
      {loaded === undefined ? (
        <p role="status">Loading the paper…</p>
      ) : paper === undefined ? (
        <p>No saved paper or triplet has the key “{paperKey}”.</p>
      ) : (
        <>
          <Citation paper={paper} />
          {loaded.rows.length === 0 ? (
            <p>No triplets saved from this paper yet.</p>
          ) : (
            <ol className="paper-view-triplets">
              {loaded.rows.map((row) => (
                <PaperTriplet key={row.id} row={row} label={label} />
              ))}
            </ol>
          )}
        </>
      )}
    </section>
  );
}

function Citation({ paper }: { paper: SourcePaper }) {
  return (
    <p className="paper-citation" data-testid="paper-citation">
      {citationText(paper)}
      {paper.doi && (
        <>
          {' '}
          DOI: <DoiLink doi={paper.doi} />
        </>
      )}
      {!paper.doi && paper.url && (
        <>
          {' '}
          <a href={paper.url} target="_blank" rel="noopener noreferrer">
            {paper.url}
          </a>
        </>
      )}
    </p>
  );
}

function PaperTriplet({ row, label }: { row: DatasetTriplet; label: PropertyLabel }) {
  const original = row.review.decision === 'edited' ? row.review.original : undefined;
  return (
    <li data-id={row.id}>
      <p>
        <strong>{row.material}</strong> · {label(row.property)} · {describeValue(row)}
        <FactConditions conditions={row.conditions} provenance={row.provenance} />
      </p>
      <p className="paper-triplet-meta">
        Status: {statusText(row.status)} · Decision: {row.review.decision}
        {row.evidence?.page !== undefined && <> · Page {row.evidence.page}</>}
      </p>
      {original && (
        <p className="paper-triplet-edit">
          Model said: {originalText(original)} · reader’s value: {row.material}, {describeValue(row)}
        </p>
      )}
      {row.evidence ? <blockquote>{row.evidence.quote.exact}</blockquote> : <p>No quote kept.</p>}
    </li>
  );
}
