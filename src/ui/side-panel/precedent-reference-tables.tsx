/**
 * "Reference tables": import a SuperCon-like Tc/Tcn CSV for the precedent check, see the tables
 * imported, delete one. The result line (`reference-status`) says "Imported <name>: N rows", or
 * why the file was refused (`importReferenceTable`'s message). The section is folded to its
 * heading (with the count of tables, when any) like "Check precedent": most readings never need
 * it, and an open file chooser at the foot of the panel read as a test harness.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useState, type ChangeEvent } from 'react';
import type { AssayDatabase } from '../../store/assay-database';
import { importReferenceTable } from '../../precedent/cached-precedent-check';
import { deleteReferenceTable, listReferenceTables } from '../../store/precedent-repository';

type ImportStatus =
  { status: 'idle' } | { status: 'busy'; name: string } | { status: 'done'; text: string } | { status: 'failed'; text: string };

/** "Imported supercon.csv: 16619 rows" (the count of rows with a readable Tc/Tcn value). */
export function importedText(name: string, rowCount: number): string {
  return `Imported ${name}: ${rowCount} rows`;
}

/**
 * The heading's text: "Reference tables", then " (N)" once N tables are imported, so the folded
 * section still says whether precedent checks have a table to answer from.
 */
export function referenceTablesHeading(count: number | undefined): string {
  return count ? `Reference tables (${count})` : 'Reference tables';
}

/** The section (see the module comment); the list follows the `referenceTables` table live. */
export function ReferenceTablesSection({ database }: { database: AssayDatabase }) {
  const tables = useLiveQuery(() => listReferenceTables(database), [database]);
  const [status, setStatus] = useState<ImportStatus>({ status: 'idle' });

  const onFile = (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.currentTarget;
    const file = input.files?.[0];
    if (!file) return;
    setStatus({ status: 'busy', name: file.name });
    Promise.resolve()
      .then(() => file.text())
      .then((csv) => importReferenceTable(database, file.name, csv))
      .then(
        (table) => setStatus({ status: 'done', text: importedText(table.name, table.rowCount) }),
        (error: unknown) => setStatus({ status: 'failed', text: error instanceof Error ? error.message : String(error) }),
      )
      .finally(() => {
        input.value = ''; // the same file can be chosen again
      });
  };

  return (
    <section className="reference-tables" aria-labelledby="reference-tables-heading">
      <details className="reference-tables-fold" data-testid="reference-tables-panel">
        <summary>
          <h2 id="reference-tables-heading">{referenceTablesHeading(tables?.length)}</h2>
        </summary>
        <p className="hint">
          A CSV with the columns refno, material, property_name (tc or tcn), property_value and property_unit, such as a SuperCon export.
        </p>
        <label>
          Import reference table (CSV){' '}
          <input type="file" accept=".csv,text/csv" onChange={onFile} disabled={status.status === 'busy'} data-testid="reference-import" />
        </label>
        {status.status !== 'idle' && (
          <p
            className={status.status === 'failed' ? 'problem' : 'status'}
            role="status"
            data-testid="reference-status"
            data-status={status.status}
          >
            {status.status === 'busy' ? `Importing ${status.name}…` : status.text}
          </p>
        )}
        {tables && tables.length > 0 && (
          <ul className="reference-table-list" data-testid="reference-tables">
            {tables.map((table) => (
              <li key={table.id} data-id={table.id}>
                {table.name} — {table.rowCount} rows, imported {table.importedAt.slice(0, 10)}{' '}
                <button
                  type="button"
                  onClick={() => void deleteReferenceTable(database, table.id)}
                  data-testid={`reference-delete-${table.id}`}
                >
                  Delete
                </button>
              </li>
            ))}
          </ul>
        )}
      </details>
    </section>
  );
}
