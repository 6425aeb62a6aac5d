/**
 * The answer to one precedent question as a compact card: "<material> — <property>: Yes / No /
 * Unknown", the values that support it (Tc, or the property's values) and those that say no
 * (Tcn) in separate lists, each with its reference (a DOI as a link, else the table's code and
 * name; a literature value's DOI with its title and year) and its quote, how many of the judge's
 * claims were dropped; for Unknown, what was searched (one line per literature provider). The check's date and a Re-check button
 * close it. Table, page and model text is rendered as React text, never as HTML.
 */
import type { CheckedValue, PrecedentCheck, SearchedSource } from '../../precedent/check-precedent';
import type { PrecedentRecord } from '../../precedent/cached-precedent-check';
import { DoiLink } from './doi-link';

export interface PrecedentCardProps {
  record: PrecedentRecord;
  /** The property's label ("Tc"); default its name. */
  label?: (name: string) => string;
  /** Run the check again; without it no Re-check button is shown. */
  onRecheck?: () => void;
  /** A re-check is running (the button is disabled). */
  busy?: boolean;
}

/** "Checked 2026-11-22 06:13 UTC" from an ISO 8601 time (UTC, so every reader sees the same text). */
export function checkedText(checkedAt: string): string {
  const date = new Date(checkedAt);
  if (Number.isNaN(date.getTime())) return `Checked ${checkedAt}`;
  return `Checked ${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** "Tc = 39 K"; a Tcn value reads "Tcn = 2 K" (measured down to 2 K without superconductivity); another property "Value = 3.2 eV". */
export function valueText(value: CheckedValue): string {
  const name = value.kind === 'value' ? 'Value' : value.kind;
  return `${name} = ${value.value}${value.unit ? ` ${value.unit}` : ''}`;
}

/** The card (see the module comment). `data-answer` is the answer, for tests and styling. */
export function PrecedentCard({ record, label = (name) => name, onRecheck, busy = false }: PrecedentCardProps) {
  const { check } = record;
  const supporting = check.values.filter((value) => value.kind !== 'Tcn');
  const contradicting = check.values.filter((value) => value.kind === 'Tcn');
  return (
    <article className="precedent-card" data-testid="precedent-card" data-answer={check.answer}>
      <p className="precedent-head">
        <span className="material">{record.material}</span> — {label(record.property)}:{' '}
        <strong className={`precedent-answer precedent-${check.answer.toLowerCase()}`} data-testid="precedent-answer">
          {check.answer}
        </strong>
      </p>
      {supporting.length > 0 && <ValueList title={supportingTitle(supporting)} values={supporting} testId="precedent-supporting" />}
      {contradicting.length > 0 && (
        <ValueList title="Reported not superconducting (Tcn)" values={contradicting} testId="precedent-contradicting" />
      )}
      {check.dropped.length > 0 && (
        <p className="hint precedent-dropped" data-testid="precedent-dropped">
          {droppedText(check.dropped.length)}
        </p>
      )}
      {(check.related.length > 0 || check.phases.length > 0) && <Mentioned related={check.related} phases={check.phases} />}
      {check.answer === 'Unknown' ? (
        <div data-testid="precedent-unknown">
          {check.unknownBecause && !check.unknownBecause.startsWith('nothing answered') && (
            // A reason of its own ("No network: only local sources were searched."), not the summary of the list below.
            <p data-testid="precedent-unknown-because">{check.unknownBecause}</p>
          )}
          <p>Unknown — here is what was searched:</p>
          <SearchedList searched={check.searched} />
        </div>
      ) : (
        <details className="precedent-searched">
          <summary>What was searched</summary>
          <SearchedList searched={check.searched} />
        </details>
      )}
      <p className="precedent-footer">
        <span className="hint" data-testid="precedent-checked-at">
          {checkedText(record.checkedAt)}
        </span>{' '}
        {onRecheck && (
          <button type="button" onClick={onRecheck} disabled={busy} aria-busy={busy} data-testid="precedent-recheck">
            {busy ? 'Checking…' : 'Re-check'}
          </button>
        )}
      </p>
    </article>
  );
}

/** "1 claim dropped: not found in the retrieved text" / "2 claims dropped: …" (the judge's claims that did not ground). */
export function droppedText(count: number): string {
  return `${count} ${count === 1 ? 'claim' : 'claims'} dropped: not found in the retrieved text`;
}

function supportingTitle(values: readonly CheckedValue[]): string {
  return values.some((value) => value.kind === 'Tc') ? 'Reported superconducting (Tc)' : 'Reported values';
}

function ValueList({ title, values, testId }: { title: string; values: readonly CheckedValue[]; testId: string }) {
  return (
    <div className="precedent-values" data-testid={testId}>
      <p className="precedent-values-title">{title}</p>
      <ul>
        {values.map((value, index) => (
          <li key={index} data-kind={value.kind}>
            <span className="value">{valueText(value)}</span>
            {value.conditions && <span className="conditions"> ({value.conditions})</span>} — <ReferenceText value={value} />
            <blockquote className="quote">{value.quote}</blockquote>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** A DOI as a link (with the title and year when known: a literature value); else the table's code and name ("PRB079224524, supercon.csv"); else the title or origin. */
function ReferenceText({ value }: { value: CheckedValue }) {
  const { reference } = value;
  if (reference.doi) {
    const about = [reference.title, reference.year ? String(reference.year) : undefined]
      .filter((part): part is string => Boolean(part))
      .join(', ');
    return (
      <>
        <DoiLink doi={reference.doi} />
        {about && <span className="reference-title"> ({about})</span>}
      </>
    );
  }
  const parts = [reference.code, reference.title, value.origin].filter((part): part is string => Boolean(part));
  return <span className="reference">{parts.length > 0 ? parts.join(', ') : 'no reference given'}</span>;
}

function SearchedList({ searched }: { searched: PrecedentCheck['searched'] }) {
  return (
    <ul className="precedent-searched-list" data-testid="precedent-searched">
      {searched.map((entry: SearchedSource, index) => (
        <li key={index}>
          {entry.source}: {entry.note}
        </li>
      ))}
    </ul>
  );
}

/**
 * What the judge found mentioned beside the answer, as the reliability-gap paper's schema lists
 * it: related superconductors, and electronic or magnetic phases — a phase with its quote when it
 * was grounded, marked "not checked against a text" when the judge gave none.
 */
function Mentioned({
  related,
  phases,
}: {
  related: PrecedentCardProps['record']['check']['related'];
  phases: PrecedentCardProps['record']['check']['phases'];
}) {
  return (
    <div className="precedent-mentioned" data-testid="precedent-mentioned">
      {related.length > 0 && (
        <>
          <p>Related materials mentioned</p>
          <ul>
            {related.map((item, index) => (
              <li key={index}>
                {item.material}
                {item.note ? ` — ${item.note}` : ''}
              </li>
            ))}
          </ul>
        </>
      )}
      {phases.length > 0 && (
        <>
          <p>Electronic and magnetic phases mentioned</p>
          <ul>
            {phases.map((phase, index) => (
              <li key={index}>
                {phase.phase}
                {phase.note ? ` — ${phase.note}` : ''}
                {phase.quote ? (
                  <blockquote className="quote">{phase.quote}</blockquote>
                ) : (
                  !phase.grounded && <span className="hint"> (not checked against a text)</span>
                )}
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
