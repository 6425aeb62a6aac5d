/**
 * The dataset table's Quote cell: the evidence cut to one line (the row keeps its fixed 40 px
 * height, which the virtualized table relies on), and the whole quote one click or key away: the
 * line is a button that opens the quote in a native popover (`popovertarget`: Enter or Space opens
 * it, Escape or a click elsewhere closes it, the browser says expanded/collapsed), placed under the
 * cell where CSS anchor positioning applies (dataset-page.css), so a reader who cannot hover for
 * the `title` still reads every word. Text, never HTML.
 */
import { useId } from 'react';

/** The cell (see the module comment); "—" without a quote. `page`: the PDF page, said after the quote when known. */
export function QuoteCell({ quote, page }: { quote: string | undefined; page?: number | undefined }) {
  const id = useId();
  if (!quote) return <td>—</td>;
  return (
    <td className="triplet-quote">
      <button type="button" className="quote-toggle" popoverTarget={id} title={quote} data-testid="quote-toggle">
        {quote}
      </button>
      <div id={id} popover="auto" className="quote-panel" data-testid="quote-panel">
        <blockquote>
          {quote}
          {page !== undefined && <span className="page"> (page {page})</span>}
        </blockquote>
      </div>
    </td>
  );
}
