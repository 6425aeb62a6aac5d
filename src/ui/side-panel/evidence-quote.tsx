/**
 * A verdict's evidence quote in the side panel, long quotes folded to the sentence with the value
 * (`foldEvidence`) and a button to show the whole quote and fold it again (a native button, so
 * Tab and Enter/Space reach it; `aria-expanded` says which is shown). Text, never HTML.
 */
import { useId, useState } from 'react';
import type { Triplet } from '../../contracts/triplet';
import { foldEvidence } from './evidence-fold';

export interface EvidenceQuoteProps {
  /** The quote as the model gave it. */
  quote: string;
  /** The fact it is evidence for: its value is what the folded quote keeps. */
  triplet: Pick<Triplet, 'value' | 'valueText'>;
  /** Page of a PDF quote, shown after it. */
  page?: number | undefined;
  /** The fold button's `tabIndex`: -1 inside the one-tab-stop verdict list, whose record menu offers it instead. */
  tabIndex?: number | undefined;
}

/** The quote (see the module comment). */
export function EvidenceQuote({ quote, triplet, page, tabIndex }: EvidenceQuoteProps) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const fold = foldEvidence(quote, triplet);
  return (
    <>
      <blockquote className="quote" id={id} data-folded={fold.folded && !open ? 'true' : 'false'}>
        {fold.folded && !open ? fold.shown : quote}
        {page !== undefined && <span className="page"> (page {page})</span>}
      </blockquote>
      {fold.folded && (
        <button
          type="button"
          className="link-button unfold"
          aria-expanded={open}
          aria-controls={id}
          tabIndex={tabIndex}
          onClick={() => setOpen(!open)}
        >
          {open ? 'Show only the sentence with the value' : `Show the whole quote (${quote.length} characters)`}
        </button>
      )}
    </>
  );
}
