/**
 * The dataset page: every saved paper, newest first, updating live as papers are captured
 * (Dexie broadcasts writes from the background to open pages) or deleted.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import type { AssayDatabase } from '../../store/assay-database';
import { deletePaper, listPapers } from '../../store/paper-repository';
import { DoiLink } from '../shared/doi-link';

/** The table of saved papers with a delete button per row, or an empty state. */
export function DatasetTable({ database }: { database: AssayDatabase }) {
  const papers = useLiveQuery(() => listPapers(database), [database]);
  if (papers === undefined) return <p role="status">Loading your dataset…</p>;
  if (papers.length === 0) {
    return <p data-testid="dataset-empty">No papers yet. Open a paper, click the Assay toolbar button, then “Capture this page”.</p>;
  }
  return (
    <table data-testid="dataset-table">
      <caption>{papers.length === 1 ? '1 saved paper' : `${papers.length} saved papers`}, newest first</caption>
      <thead>
        <tr>
          <th scope="col">Title</th>
          <th scope="col">DOI</th>
          <th scope="col">Journal</th>
          <th scope="col">Year</th>
          <th scope="col">Source</th>
          <th scope="col">Blocks</th>
          <th scope="col">Captured</th>
          <th scope="col">
            <span className="visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {papers.map((paper) => (
          <tr key={paper.key} data-key={paper.key}>
            <th scope="row">{paper.title}</th>
            <td>{paper.doi ? <DoiLink doi={paper.doi} /> : '—'}</td>
            <td>{paper.journal ?? '—'}</td>
            <td>{paper.year ?? '—'}</td>
            <td>
              {paper.source} / {paper.adapter}
            </td>
            <td>{paper.blockCount}</td>
            <td>
              <time dateTime={paper.capturedAt}>{new Date(paper.capturedAt).toLocaleString()}</time>
            </td>
            <td>
              <button type="button" onClick={() => void deletePaper(database, paper.key)} aria-label={`Delete “${paper.title}”`}>
                Delete
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
