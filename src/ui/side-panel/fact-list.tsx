/**
 * The fact list (`fact-list`): the facts the page shows, like Hypothesis's sidebar — counts per
 * status at the top, then the facts grouped by property and material, each with value,
 * conditions, status in words and (on a PDF) its page; then the facts the page could not mark,
 * by name, with the reason. The list is one tab stop (roving tabindex): the arrow keys or j/k
 * move and scroll the page to the fact, which flashes there; Enter or a click does the same.
 * Page text is rendered as React text, never as HTML.
 */
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { factKeyAction, factSentence, groupFacts, listedOrder, statusCountsText, statusWords, type ListedFact } from './fact-list-model';

export interface FactListProps {
  facts: readonly ListedFact[];
  /** Scroll the page to fact `id` and flash it. */
  onLocate(id: string): void;
  /** What the page said after the latest locate or show (e.g. it could not be reached); shown under the counts. */
  note?: string | null;
  /** False where the page cannot mark facts (a PDF in Chrome's viewer): the hint then does not promise it. Default true. */
  locatable?: boolean;
}

/** The fact list (see the module comment); nothing when there are no facts. */
export function FactList({ facts, onLocate, note, locatable = true }: FactListProps) {
  const groups = groupFacts(facts);
  const order = listedOrder(groups);
  const [active, setActive] = useState<string | null>(null);
  const items = useRef(new Map<string, HTMLLIElement>());
  const current = active !== null && order.some((fact) => fact.id === active) ? active : order[0]?.id;
  const focusNext = useRef<string | null>(null);
  useEffect(() => {
    if (focusNext.current === null) return;
    items.current.get(focusNext.current)?.focus();
    focusNext.current = null;
  });
  if (facts.length === 0) return null;
  const unplaced = order.filter((fact) => fact.unplaced !== undefined);

  const locate = (id: string) => {
    setActive(id);
    onLocate(id);
  };
  const onKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const target = event.target as HTMLElement;
    const id = target.closest<HTMLElement>('li.fact')?.dataset.id ?? current;
    const action = factKeyAction(
      {
        key: event.key,
        ctrlKey: event.ctrlKey,
        metaKey: event.metaKey,
        altKey: event.altKey,
        targetTag: target.tagName,
        targetEditable: target.isContentEditable,
      },
      order.findIndex((fact) => fact.id === id),
      order.length,
    );
    if (action.kind === 'none' || id === undefined) return;
    event.preventDefault();
    if (action.kind === 'locate') return locate(id);
    const to = order[action.position]!;
    focusNext.current = to.id;
    if (to.id !== id) locate(to.id);
    else setActive(to.id);
  };

  return (
    <section className="fact-list" data-testid="fact-list" aria-labelledby="fact-list-heading">
      <h3 id="fact-list-heading">Facts in this paper ({facts.length})</h3>
      <p className="status-counts" data-testid="fact-counts">
        {statusCountsText(facts)}
      </p>
      <p className="hint">
        <kbd>j</kbd> / <kbd>k</kbd> or the arrow keys move through the facts{locatable ? ' and show each in the page' : ''}.
      </p>
      {note && (
        <p className="hint" role="status" data-testid="fact-list-note">
          {note}
        </p>
      )}
      {/* Keys reach this handler from the focused fact; the facts are the focusable parts. */}
      <div className="facts" onKeyDown={onKey}>
        <ul aria-label="Facts, by property and material">
          {groups.map((group) => (
            <li key={group.property} className="fact-property" data-property={group.property}>
              <h4>{group.property}</h4>
              <ul>
                {group.materials.map(({ material, facts: listed }) => (
                  <li key={material} className="fact-material">
                    <h5>{material}</h5>
                    <ul>
                      {listed.map((fact) => (
                        <li
                          key={fact.id}
                          className="fact"
                          data-id={fact.id}
                          data-status={fact.status}
                          data-placed={fact.unplaced === undefined ? undefined : 'false'}
                          data-testid={`fact-${fact.id}`}
                          tabIndex={fact.id === current ? 0 : -1}
                          aria-current={fact.id === active ? 'true' : undefined}
                          aria-label={`${factSentence(fact)}${fact.unplaced !== undefined ? ', not marked in the page' : ''}`}
                          ref={(element) => {
                            if (element) items.current.set(fact.id, element);
                            else items.current.delete(fact.id);
                          }}
                          onFocus={() => setActive(fact.id)}
                          onClick={() => locate(fact.id)}
                        >
                          <span className="value">{fact.value}</span>
                          {fact.conditions && <span className="conditions"> · {fact.conditions}</span>}{' '}
                          <span className={`badge badge-${fact.status}`}>{statusWords(fact.status)}</span>
                          {fact.page !== undefined && <span className="page"> · page {fact.page}</span>}
                          {fact.unplaced !== undefined && <span className="unplaced"> · not marked in the page</span>}
                        </li>
                      ))}
                    </ul>
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      </div>
      {unplaced.length > 0 && (
        <div className="highlight-failures" data-testid="fact-orphans">
          <p>Not marked in the page:</p>
          <ul>
            {unplaced.map((fact) => (
              <li key={fact.id} data-id={fact.id}>
                {fact.material}, {fact.property} {fact.value} — {fact.unplaced}
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
