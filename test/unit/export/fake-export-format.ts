/**
 * A made-up export format for tests that check a format is one table entry: `withFakeExportFormat`
 * adds it to src/export/export-formats.ts's table for the length of `body` and takes it out again.
 */
import type { DatasetTriplet } from '../../../src/contracts/dataset';
import { EXPORT_FORMATS, type ExportFormat } from '../../../src/export/export-formats';

/** One line per row, "material<TAB>property", so a test can tell this writer's file from any other. */
export const FAKE_EXPORT_FORMAT: ExportFormat = {
  id: 'fake',
  aliases: ['pretend'],
  label: 'Fake list',
  extension: '-fake.txt',
  mediaType: 'text/plain',
  write: (rows: readonly DatasetTriplet[]) => rows.map((row) => `${row.material}\t${row.property}\n`).join(''),
};

/** Run `body` with `FAKE_EXPORT_FORMAT` as the table's last entry; the table is as before afterwards, even on a throw. */
export async function withFakeExportFormat<T>(body: () => Promise<T> | T): Promise<T> {
  const table = EXPORT_FORMATS as ExportFormat[];
  table.push(FAKE_EXPORT_FORMAT);
  try {
    return await body();
  } finally {
    table.splice(table.indexOf(FAKE_EXPORT_FORMAT), 1);
  }
}
