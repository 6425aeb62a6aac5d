/**
 * A run's verdicts with the reader's review: the adjudication queue ("Needs your decision"),
 * the verdicts grouped by property with Accept / Edit / Reject per record, the properties the
 * paper does not provide and those failed model calls left undecided, "Save verified", and the
 * records the page could not highlight. The verdict list is one tab stop (roving tabindex): keys
 * move, decide, locate and open each record's menu of actions, whose buttons are no Tab stops, so
 * "Save verified" is a few Tabs away however many verdicts there are. Each verdict line is the whole fact: value, conditions
 * (method first) and provenance ("2.31 eV · HSE06 · indirect · computed", a cited value tagged
 * "cited [19]"). Every decision is written as it is made
 * (`ReviewActions.review`); the row then comes back through the live query. Page and model text
 * is rendered as React text, never as HTML.
 */
import { printedValue } from '../../text/quantities/format-quantity';
import { describeValueWithDisplay, type DisplayUnitSchema } from '../../properties/display-unit';
import { decisionOf, keptAnswer, type AdjudicationPath } from '../../store/dataset-rows';
import { useContext, useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import type { ReviewDecision } from '../../contracts/dataset';
import type { MatrixRunRow, RunReview } from '../../contracts/matrix-run';
import type { VerificationRecord } from '../../contracts/verification';
import { failureLines } from './highlight-items';
import { runDisplayUnits } from './run-display-units';
import { PrecedentButton, PrecedentContext } from '../shared/precedent-lookup';
import { ConditionList, FactConditions } from '../shared/fact-conditions-view';
import type { RunHighlights } from './highlight-sync';
import type { ReviewActions } from './review-actions';
import { ReviewButtons, EditForm, SaveVerified } from './review-controls';
import { adjudicationQueue, answerText, disagreementText, keepAnswerReview } from './review-model';
import { factEntries, factRecords } from '../../matrix/fact-entries';
import { EvidenceQuote } from './evidence-quote';
import { foldEvidence } from './evidence-fold';
import { FactVotes } from './fact-votes';
import { VerificationAnswers } from './verification-answers';
import { CheckedQueueItem } from './checked-queue-item';
import { decisionAnnouncement, factText, reviewedCount, reviewKeyAction } from './keyboard-review';
import { openRecordMenu, RecordMenu, type RecordMenuAction } from './record-menu';
import { statusCountsText, type ListedFact } from './fact-list-model';
import {
  countsText,
  groupByMaterial,
  groupRecords,
  notDecidedText,
  notProvidedText,
  statusLabel,
  usageText,
  votesText,
} from '../shared/run-view-model';
import { runReportFileName, toRunReport } from '../../export/run-report';
import { downloadText } from '../dataset-page/dataset-io';

export interface RunResultsProps {
  row: MatrixRunRow;
  label: (name: string) => string;
  /** The review writes; without them the verdicts are shown read-only. */
  review?: ReviewActions;
  /** The page's highlights; without them material and value are plain text. */
  highlights?: RunHighlights;
}

/** Where an Edit form is open: in the queue or in the list (one form at a time); `byKey`: opened by `e`, so focus goes into it. */
type Editing = { index: number; place: 'queue' | 'list'; byKey?: boolean } | null;

/** Why there are no verdicts: still running, stopped before any property was decided, or none found. */
function emptyResultsText(row: MatrixRunRow): string {
  if (row.status === 'running') return 'Results appear as each property finishes.';
  if (row.status === 'done') return 'No values were found.';
  return 'No property was decided before the run stopped.';
}

/** The run's verdicts and their review (see the module comment). */
export function RunResults({ row, label, review, highlights }: RunResultsProps) {
  const [editing, setEditing] = useState<Editing>(null);
  const [writeProblem, setWriteProblem] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [active, setActive] = useState<number | null>(null);
  const items = useRef(new Map<number, HTMLLIElement>());
  /** The record whose item takes focus after the next render (an Edit form closed, a key moved). */
  const focusNext = useRef<number | null>(null);
  useEffect(() => {
    if (focusNext.current === null) return;
    items.current.get(focusNext.current)?.focus();
    focusNext.current = null;
  });
  // One fact, one entry: records that state the same fact are listed once, by the record that stands for it.
  const entries = factEntries(row.records);
  const entryOf = new Map(entries.map((entry) => [entry.primary, entry]));
  const groups = groupRecords(factRecords(row.records), row.settings.properties);
  // The catalogue the run used, the reader's own properties included: each value's display unit comes from it.
  const displayUnits = runDisplayUnits(row.settings);
  const notProvided = (row.run?.properties ?? []).flatMap((property) => {
    const text = notProvidedText(property, label);
    return text ? [{ property: property.property, text }] : [];
  });
  const notDecided = (row.run?.properties ?? []).flatMap((property) => {
    const text = notDecidedText(property, label);
    return text && property.notDecided ? [{ property: property.property, code: property.notDecided.code, text }] : [];
  });
  const indexOf = new Map(row.records.map((record, index) => [record, index]));
  const queue = review ? adjudicationQueue(row, entries) : [];

  // Listed by property, then by material within it (`groupByMaterial`), as the candidates' fact list is.
  const sections = groups.map((group) => ({ ...group, materials: groupByMaterial(group.records) }));
  // Keyboard order: the records as listed, group after group; the roving tab stop is `active` (default the first).
  const order = sections.flatMap((section) =>
    section.materials.flatMap((material) => material.records.map((record) => indexOf.get(record) ?? -1)),
  );
  const current = active !== null && order.includes(active) ? active : order[0];

  const decide = (index: number, next: RunReview) => {
    if (!review) return;
    setWriteProblem(null);
    const record = row.records[index];
    review.review(row.id, index, next).then(
      (written) => {
        if (written) {
          setEditing((open) => {
            if (open?.index !== index) return open;
            if (open.place === 'list') focusNext.current = index;
            return null;
          });
          if (record) setAnnouncement(decisionAnnouncement(next, record, label, reviewedCount(row, index, next.decision), entries.length));
        } else setWriteProblem('Your decision could not be saved: this run or record is no longer stored.');
      },
      (error: unknown) => setWriteProblem(`Your decision could not be saved: ${error instanceof Error ? error.message : String(error)}`),
    );
  };
  const toggle = (index: number, decision: Exclude<ReviewDecision, 'pending' | 'edited'>) =>
    decide(index, { decision: decisionOf(row, index) === decision ? 'pending' : decision, at: new Date().toISOString() });
  const toggleEdit = (index: number, place: 'queue' | 'list') =>
    setEditing((open) => (open?.index === index && open.place === place ? null : { index, place }));
  const closeEdit = () => {
    if (editing?.place === 'list') focusNext.current = editing.index;
    setEditing(null);
  };

  /** Scroll the page to record `index`'s highlight, when there are highlights and the record has evidence. */
  const locate = (index: number) => {
    if (highlights && row.records[index]?.triplet.evidence) highlights.scrollTo(String(index));
  };

  /** One-key review in the verdict list (`reviewKeyAction`): the record is the one holding focus. */
  const onListKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const target = event.target as HTMLElement;
    // An open menu has its own keys (arrows, type-ahead): a letter there is not a decision.
    if (target.closest('[role="menu"]')) return;
    const item = target.closest<HTMLElement>('li.record');
    const index = item ? Number(item.dataset.index) : current;
    if (index === undefined || !review) return;
    const action = reviewKeyAction(
      {
        key: event.key,
        ctrlKey: event.ctrlKey,
        metaKey: event.metaKey,
        altKey: event.altKey,
        targetTag: target.tagName,
        targetEditable: target.isContentEditable,
      },
      order.indexOf(index),
      order.length,
    );
    if (action.kind === 'none') return;
    event.preventDefault();
    if (action.kind === 'move') {
      const to = order[action.position]!;
      setActive(to);
      items.current.get(to)?.focus();
      if (to !== index) locate(to);
    } else if (action.kind === 'locate') locate(index);
    else if (action.kind === 'menu') openRecordMenu(items.current.get(index), index);
    else if (action.kind === 'decide') decide(index, { decision: action.decision, at: new Date().toISOString() });
    else setEditing({ index, place: 'list', byKey: true });
  };

  const editFormFor = (index: number, record: VerificationRecord, place: 'queue' | 'list') =>
    editing?.index === index && editing.place === place ? (
      <EditForm
        index={index}
        record={record}
        initial={row.reviews?.[index]?.edit}
        onSave={(next) => decide(index, next)}
        onCancel={closeEdit}
        focusOnOpen={editing.byKey === true}
      />
    ) : null;

  return (
    <div className="run-results" data-testid="run-records">
      {writeProblem && (
        <p className="problem" role="alert" data-testid="review-problem">
          {writeProblem}
        </p>
      )}
      {queue.length > 0 && (
        <section className="adjudication" data-testid="adjudication-queue">
          <h3>Needs your decision ({queue.length})</h3>
          <ul className="records">
            {queue.map((index) => {
              const record = row.records[index]!;
              return (
                <QueueItem
                  key={index}
                  index={index}
                  record={record}
                  onKeep={(path) => decide(index, keepAnswerReview(record, path, new Date()))}
                  onAccept={() => toggle(index, 'accepted')}
                  onEdit={() => toggleEdit(index, 'queue')}
                  onReject={() => toggle(index, 'rejected')}
                  editForm={editFormFor(index, record, 'queue')}
                />
              );
            })}
          </ul>
        </section>
      )}
      {groups.length > 0 && (
        <p className="status-counts" data-testid="verdict-counts">
          {statusCountsText(verdictFacts(row, highlights))}
        </p>
      )}
      {groups.length === 0 && notProvided.length === 0 && notDecided.length === 0 && <p>{emptyResultsText(row)}</p>}
      {groups.length > 0 && review && (
        <p className="hint key-hint" data-testid="key-hint">
          Review by keyboard in the list: <kbd>j</kbd> / <kbd>k</kbd> move, <kbd>a</kbd> accept, <kbd>e</kbd> edit, <kbd>r</kbd> reject,{' '}
          <kbd>Enter</kbd> show in the page, <kbd>m</kbd> all actions.
        </p>
      )}
      {/* Keys reach this handler from the focused record or its buttons; the records are the focusable parts. */}
      <div className="verdict-list" data-testid="verdict-list" onKeyDown={review ? onListKey : undefined}>
        {sections.map((group) => (
          <section key={group.property} className="property-verdicts" data-property={group.property}>
            <h3>{label(group.property)}</h3>
            <p className="counts">{countsText(group.counts)}</p>
            {group.materials.map((material) => (
              <div key={material.material} className="material-verdicts" data-material={material.material}>
                <h4 className="material-heading">{material.material || 'Material not given'}</h4>
                <ul className="records">
                  {material.records.map((record) => {
                    const index = indexOf.get(record) ?? -1;
                    return (
                      <RecordItem
                        key={index}
                        index={index}
                        label={label}
                        displayUnits={displayUnits}
                        roving={
                          review
                            ? {
                                tabIndex: index === current ? 0 : -1,
                                ref: (element) => {
                                  if (element) items.current.set(index, element);
                                  else items.current.delete(index);
                                },
                                onFocus: () => setActive(index),
                              }
                            : undefined
                        }
                        record={record}
                        votes={<FactVotes records={row.records} entry={entryOf.get(index)} />}
                        review={row.reviews?.[index]}
                        decision={decisionOf(row, index)}
                        onLocate={highlights && record.triplet.evidence ? () => highlights.scrollTo(String(index)) : undefined}
                        menu={
                          review
                            ? [
                                ...(highlights && record.triplet.evidence ? [{ label: 'Show in the page', run: () => locate(index) }] : []),
                                { label: 'Accept', run: () => toggle(index, 'accepted') },
                                { label: 'Edit', run: () => setEditing({ index, place: 'list', byKey: true }) },
                                { label: 'Reject', run: () => toggle(index, 'rejected') },
                              ]
                            : undefined
                        }
                      >
                        {review && (
                          <>
                            <ReviewButtons
                              tabIndex={-1}
                              index={index}
                              decision={decisionOf(row, index)}
                              editing={editing?.index === index && editing.place === 'list'}
                              onAccept={() => toggle(index, 'accepted')}
                              onEdit={() => toggleEdit(index, 'list')}
                              onReject={() => toggle(index, 'rejected')}
                            />
                            {editFormFor(index, record, 'list')}
                          </>
                        )}
                      </RecordItem>
                    );
                  })}
                </ul>
              </div>
            ))}
          </section>
        ))}
      </div>
      {review && (
        <p role="status" aria-live="polite" className="review-announcement" data-testid="review-announcement">
          {announcement}
        </p>
      )}
      {notProvided.length > 0 && (
        <ul className="not-provided" data-testid="not-provided">
          {notProvided.map((line) => (
            <li key={line.property} data-property={line.property}>
              {line.text}
            </li>
          ))}
        </ul>
      )}
      {notDecided.length > 0 && (
        <ul className="not-decided" data-testid="not-decided">
          {notDecided.map((line) => (
            <li key={line.property} data-property={line.property} data-code={line.code}>
              {line.text}
            </li>
          ))}
        </ul>
      )}
      {review && row.records.length > 0 && <SaveVerified row={row} save={review.saveVerified} />}
      {highlights?.note && (
        <p className="hint" data-testid="highlight-note">
          {highlights.note}
        </p>
      )}
      {highlights && highlights.failures.length > 0 && (
        <div className="highlight-failures" data-testid="highlight-failures">
          <p>Not marked in the page:</p>
          <ul>
            {failureLines(row, highlights.failures).map((line) => (
              <li key={line.id} data-id={line.id}>
                {line.what} — {line.reason}
              </li>
            ))}
          </ul>
        </div>
      )}
      {row.run && row.status !== 'running' && (
        <p className="usage" data-testid="run-usage">
          {usageText(row.run)}
        </p>
      )}
      {row.status !== 'running' && (
        <button
          type="button"
          data-testid="download-run-report"
          onClick={(event) => downloadText(event.currentTarget.ownerDocument, toRunReport(row), runReportFileName(row), 'application/json')}
        >
          Download run report (JSON)
        </button>
      )}
    </div>
  );
}

const decisionWords: Record<ReviewDecision, string> = {
  pending: '',
  accepted: 'You accepted it',
  edited: 'You edited it',
  rejected: 'You rejected it',
};

/** The roving tab stop's part of a record item: tab index 0 on the current record, -1 on the others. */
interface Roving {
  tabIndex: number;
  ref: (element: HTMLLIElement | null) => void;
  onFocus: () => void;
}

interface RecordItemProps {
  index: number;
  label: (name: string) => string;
  /** Display units by property (`runDisplayUnits` of the run's settings). */
  displayUnits: ReadonlyMap<string, DisplayUnitSchema>;
  /** Present when the record can be reviewed by keyboard. */
  roving: Roving | undefined;
  record: VerificationRecord;
  /** The fact's other verdicts (`FactVotes`), when several stated it. */
  votes?: ReactNode;
  review: RunReview | undefined;
  decision: ReviewDecision;
  /** Scroll the page to this record's highlight; absent when it has none. */
  onLocate: (() => void) | undefined;
  /** The review's actions for the record's menu (Precedent and Votes are added here); absent: no menu. */
  menu?: readonly RecordMenuAction[];
  children?: ReactNode;
}

function RecordItem({ index, label, displayUnits, roving, record, votes, review, decision, onLocate, menu, children }: RecordItemProps) {
  const { triplet } = record;
  const more = useRef<HTMLDetailsElement>(null);
  const precedent = useRef<HTMLDivElement>(null);
  const evidence = useRef<HTMLElement>(null);
  const precedentServices = useContext(PrecedentContext);
  // In the one-tab-stop list the record's own buttons are reached by key and by its menu.
  const inner = roving ? -1 : undefined;
  const kept = keptAnswer(record, review);
  const edit = review?.edit;
  const material = edit?.material ?? triplet.material;
  const value = edit
    ? `${edit.valueText ?? printedValue(triplet)}${edit.unit ? ` ${edit.unit}` : ''}`
    : // The value as printed, with the property's display unit beside it when that differs: "40 meV (0.040 eV)".
      describeValueWithDisplay(triplet, displayUnits.get(triplet.property));
  const quote = triplet.evidence?.quote.exact;
  const page = triplet.evidence?.page;
  return (
    <li
      className="record"
      data-status={record.status}
      data-decision={decision}
      data-index={index}
      tabIndex={roving?.tabIndex}
      ref={roving?.ref}
      onFocus={roving?.onFocus}
      aria-label={
        roving
          ? `${factText(record, label)}, ${statusLabel(record.status).toLowerCase()}${decision === 'pending' ? '' : `, ${decisionWords[decision].toLowerCase()}`}`
          : undefined
      }
    >
      <p className="record-head">
        <span className={`badge badge-${record.status}`}>{statusLabel(record.status)}</span>{' '}
        {onLocate ? (
          <button
            type="button"
            tabIndex={inner}
            className="locate"
            onClick={onLocate}
            title="Show in the page"
            data-testid={`locate-${index}`}
          >
            <span className="material">{material}</span> <span className="value">{value}</span>
          </button>
        ) : (
          <>
            <span className="material">{material}</span> <span className="value">{value}</span>
          </>
        )}
        <FactConditions conditions={triplet.conditions} provenance={triplet.provenance} />
        {decision !== 'pending' && <span className={`decision decision-${decision}`}>{decisionWords[decision]}</span>}
      </p>
      {edit && !kept && (
        <p className="model-said" data-testid={`model-said-${index}`}>
          Model said: {answerText(triplet)}
        </p>
      )}
      {kept && <p className="model-said">You kept the {kept === 'moa' ? 'MoA' : 'search'} answer.</p>}
      <div className="record-actions" ref={precedent}>
        {children}
        <PrecedentButton index={index} question={{ material, property: triplet.property }} tabIndex={inner} />
        {menu && (
          <RecordMenu
            index={index}
            material={material}
            actions={[
              ...menu,
              ...(precedentServices
                ? [
                    {
                      label: 'Precedent',
                      run: () => precedent.current?.querySelector<HTMLButtonElement>(`[data-testid="precedent-${index}"]`)?.click(),
                    },
                  ]
                : []),
              ...(quote && foldEvidence(quote, triplet).folded
                ? [
                    {
                      label: 'Show or fold the whole quote',
                      run: () => evidence.current?.querySelector<HTMLButtonElement>('button.unfold')?.click(),
                    },
                  ]
                : []),
              {
                label: 'Votes and checks',
                run: () => {
                  if (more.current) more.current.open = !more.current.open;
                },
              },
            ]}
          />
        )}
      </div>
      <dl>
        <dt>Evidence</dt>
        <dd ref={evidence}>
          {quote ? <EvidenceQuote quote={quote} triplet={triplet} page={page} tabIndex={inner} /> : 'No evidence quote given.'}
        </dd>
        {triplet.conditions && triplet.conditions.length > 0 && (
          <>
            <dt>Conditions</dt>
            <dd>
              <ConditionList conditions={triplet.conditions} />
            </dd>
          </>
        )}
        {votes}
        {record.reasons.length > 0 && (
          <>
            <dt>Reasons</dt>
            <dd>
              <ul className="reasons">
                {record.reasons.map((reason, reasonIndex) => (
                  <li key={reasonIndex}>{reason}</li>
                ))}
              </ul>
            </dd>
          </>
        )}
      </dl>
      {/* Votes and the checks' answers on demand: the evidence and the reasons are what a review reads first. */}
      <details className="record-more" ref={more}>
        <summary tabIndex={inner}>Votes and checks</summary>
        <dl>
          <dt>Votes</dt>
          <dd>{votesText(record.votes)}</dd>
          <VerificationAnswers index={index} answers={record.verificationAnswers} />
          {record.status === 'needs_review' && record.adjudication && (
            <>
              <dt>MoA answer</dt>
              <dd>{record.adjudication.moa ? answerText(record.adjudication.moa) : 'none'}</dd>
              <dt>G–D answer</dt>
              <dd>{record.adjudication.gd ? answerText(record.adjudication.gd) : 'none'}</dd>
            </>
          )}
        </dl>
      </details>
    </li>
  );
}

interface QueueItemProps {
  index: number;
  record: VerificationRecord;
  onKeep(path: AdjudicationPath): void;
  /** Accept the record as it stands: for one sent to review by a check rather than by two differing answers. */
  onAccept(): void;
  onEdit(): void;
  onReject(): void;
  editForm: ReactNode;
}

/**
 * One `needs_review` record in the queue: both answers side by side and the four choices; or, for
 * a record the paths agreed on but a check sent to review (a verification answer against the
 * property's expectation), the answer, the reasons in words and Accept / Edit / Reject.
 */
function QueueItem({ index, record, onKeep, onAccept, onEdit, onReject, editForm }: QueueItemProps) {
  if (!record.adjudication)
    return <CheckedQueueItem index={index} record={record} onAccept={onAccept} onEdit={onEdit} onReject={onReject} editForm={editForm} />;
  const { moa, gd, reason } = record.adjudication;
  const quote = record.triplet.evidence?.quote.exact;
  const answer = (text: string, triplet: typeof moa) => (
    <>
      <dt>{text}</dt>
      <dd>{triplet ? answerText(triplet) : 'no answer'}</dd>
    </>
  );
  return (
    <li className="queue-item" data-status={record.status} data-decision="pending" data-index={index} data-testid={`queue-${index}`}>
      <p className="queue-question">{disagreementText(record)}</p>
      <dl>
        {answer('MoA answer', moa)}
        {answer('Search answer (generator–discriminator)', gd)}
        {reason && (
          <>
            <dt>Why they differ</dt>
            <dd>{reason}</dd>
          </>
        )}
        {quote && (
          <>
            <dt>Evidence</dt>
            <dd>
              <EvidenceQuote quote={quote} triplet={record.triplet} />
            </dd>
          </>
        )}
      </dl>
      <p className="review-buttons">
        <button type="button" onClick={() => onKeep('moa')} disabled={!moa} data-testid={`keep-moa-${index}`}>
          Keep MoA answer
        </button>{' '}
        <button type="button" onClick={() => onKeep('gd')} disabled={!gd} data-testid={`keep-gd-${index}`}>
          Keep search answer
        </button>{' '}
        <button type="button" onClick={onEdit} data-testid={`queue-edit-${index}`}>
          Edit
        </button>{' '}
        <button type="button" onClick={onReject} data-testid={`queue-reject-${index}`}>
          Reject
        </button>
      </p>
      {editForm}
    </li>
  );
}

/**
 * The run's records as fact entries for the counts line: each record's status (`rejected` when the
 * reader rejected it), `unplaced` when the page could not mark it (a failure in `highlights`).
 * Material, value and property are not needed for counting and are left empty.
 */
function verdictFacts(row: MatrixRunRow, highlights: RunHighlights | undefined): ListedFact[] {
  const failed = new Map((highlights?.failures ?? []).map((failure) => [failure.id, failure.reason] as const));
  return row.records.map((record, index) => {
    const fact: ListedFact = {
      id: String(index),
      material: '',
      property: '',
      value: '',
      status: decisionOf(row, index) === 'rejected' ? 'rejected' : record.status,
    };
    const reason = failed.get(String(index));
    if (reason !== undefined) fact.unplaced = reason;
    return fact;
  });
}
