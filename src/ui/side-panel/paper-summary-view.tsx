/**
 * The side panel's paper header: the captured paper's title; its authors ("A. Toland, H. Tran,
 * L. Chen et al.", the whole list folded away under it when longer); journal, volume, pages,
 * year and DOI link on one line; when it was captured, and how it was read (blocks, pages, source and adapter) folded
 * away; then the abstract-only note and the capture's warnings. All values come from an
 * untrusted page and are rendered as React text (escaped), never as HTML.
 */
import type { PaperSummary } from '../../contracts/messages';
import { shortAuthorList, SHORT_AUTHOR_COUNT } from '../shared/author-names';
import { DoiLink } from '../shared/doi-link';

export interface PaperSummaryViewProps {
  paper: PaperSummary;
  warnings: string[];
  /** "Captured on …" (`capturedOnText`), shown under the title line as `paper-captured-at`; absent: not shown. */
  capturedText?: string;
}

/** The paper header (see the module comment). */
export function PaperSummaryView({ paper, warnings, capturedText }: PaperSummaryViewProps) {
  return (
    <article className="paper" aria-labelledby="paper-title">
      <h2 id="paper-title" className="paper-title" data-testid="paper-title">
        {paper.title}
      </h2>
      <p className="paper-authors" data-testid="paper-authors">
        {paper.authors.length > 0 ? shortAuthorList(paper.authors) : 'Authors: none found on the page'}
      </p>
      {paper.authors.length > SHORT_AUTHOR_COUNT && (
        <details className="paper-authors-all">
          <summary>All {paper.authors.length} authors</summary>
          <p data-testid="paper-authors-all">{paper.authors.join(', ')}</p>
        </details>
      )}
      <p className="paper-meta">
        {paper.journal && <span className="paper-journal">{paper.journal}</span>}
        {paper.volume && <span data-testid="paper-volume">vol. {paper.volume}</span>}
        {paper.pages && (
          <span data-testid="paper-pages-range">
            {paper.pages.includes('-') ? 'pp.' : 'p.'} {paper.pages.replace('-', '–')}
          </span>
        )}
        {paper.year !== undefined && paper.year !== null && <span>{paper.year}</span>}
        <span>
          DOI <span data-testid="paper-doi">{paper.doi ? <DoiLink doi={paper.doi} /> : 'none found'}</span>
        </span>
      </p>
      {capturedText && (
        <p className="hint" data-testid="paper-captured-at">
          {capturedText}
        </p>
      )}
      <details className="paper-details">
        <summary>How it was read</summary>
        <dl>
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
      </details>
      {paper.abstractOnly && (
        <p className="note">
          {paper.blockCount === 0
            ? 'Only the paper’s metadata was on this page: open the full text or the PDF to capture its content.'
            : 'Only the abstract was available (a landing page or a paywall): values in the full text are not captured.'}
        </p>
      )}
      {warnings.length > 0 && (
        <section aria-label="Warnings" className="note">
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
