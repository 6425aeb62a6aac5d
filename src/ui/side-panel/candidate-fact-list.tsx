/**
 * The quick scan's candidates as a fact list (`FactList`): every candidate with its page on a PDF,
 * the ones the page could not mark named with the reason, and a click or j/k scrolling the page
 * to the candidate (`highlight-scroll`, which flashes it).
 */
import { useState } from 'react';
import type { CandidateState } from './candidate-highlights';
import { factEntries } from './fact-list-model';
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
  const facts = factEntries(state.items, state.response, state.pages);
  const onLocate = (id: string) => {
    void highlighter.scroll(id).then((response) => setNote(scrollNote(response)));
  };
  return <FactList facts={facts} onLocate={onLocate} note={note} locatable={state.response?.ok !== false} />;
}
