/**
 * The quick scan's candidates as a fact list (`FactList`): every candidate with its page on a PDF,
 * the ones the page could not mark named with the reason, and a click or j/k scrolling the page
 * to the candidate (`highlight-scroll`, which flashes it); where it cannot, the note says why and,
 * on a PDF, the fact's page.
 */
import { useState } from 'react';
import type { CandidateState } from './candidate-highlights';
import { listedFacts } from './fact-list-model';
import { FactList } from './fact-list';
import { scrollNote } from './highlight-items';
import type { PageHighlighter } from './highlight-sync';

/** The fact list of a ready quick scan (`state`), locating through `highlighter`. */
export function CandidateFactList({
  state,
  highlighter,
}: {
  state: Extract<CandidateState, { phase: 'ready' }>;
  highlighter: PageHighlighter;
}) {
  const [note, setNote] = useState<string | null>(null);
  const facts = listedFacts(state.items, state.response, state.pages);
  // Where the page cannot scroll to a fact (a PDF in the browser's viewer), the note says its page.
  const onLocate = (id: string) => {
    const page = state.pages?.[id];
    void highlighter.scroll(id).then((response) => {
      const note = scrollNote(response);
      // The status line above already says why a page without highlights cannot be scrolled.
      if (note && page !== undefined)
        setNote(state.response?.ok === false ? `This fact is on page ${page}.` : `${note} This fact is on page ${page}.`);
      else setNote(note);
    });
  };
  return <FactList facts={facts} onLocate={onLocate} note={note} locatable={state.response?.ok !== false} />;
}
