/**
 * What the side panel shows about a captured paper. All values come from an untrusted page and
 * are rendered as React text (escaped), never as HTML.
 */
import type { PaperSummary } from '../../contracts/messages';
import { DoiLink } from '../shared/doi-link';

/** Title, DOI, journal, year, block count, page count (PDFs), source and adapter, abstract-only note, warnings. */
export function PaperSummaryView({ paper, warnings }: { paper: PaperSummary; warnings: string[] }) {
  return (
    <article className="paper" aria-labelledby="paper-title">
      <h2 id="paper-title" data-testid="paper-title">
        {paper.title}
      </h2>
      <dl>
        <dt>DOI</dt>
        <dd data-testid="paper-doi">{paper.doi ? <DoiLink doi={paper.doi} /> : 'none found'}</dd>
        <dt>Journal</dt>
        <dd>{paper.journal ?? 'unknown'}</dd>
        <dt>Year</dt>
        <dd>{paper.year ?? 'unknown'}</dd>
        <dt>Blocks</dt>
        <dd data-testid="paper-blocks">{paper.blockCount}</dd>
        {paper.pageCount !== undefined && (
          <>
            <dt>Pages</dt>
            <dd data-testid="paper-pages">{paper.pageCount}</dd>
          </>
        )}
        <dt>Read by</dt>
        <dd>
          {paper.source} / {paper.adapter}
        </dd>
      </dl>
      {paper.abstractOnly && (
        <p className="note">
          {paper.blockCount === 0
            ? 'Only the paper’s metadata was on this page: open the full text or the PDF to capture its content.'
            : 'Only the abstract was available (a landing page or a paywall): values in the full text are not captured.'}
        </p>
      )}
      {warnings.length > 0 && (
        <section aria-label="Warnings">
          <h3>Warnings</h3>
          <ul>
            {warnings.map((warning, index) => (
              <li key={index}>{warning}</li>
            ))}
          </ul>
        </section>
      )}
    </article>
  );
}
