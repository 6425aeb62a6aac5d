import { describe, expect, it } from 'vitest';
import { toCsv, toJsonl, toWebAnnotations } from '../../../src/export/dataset-export';
import { EXPORT_FORMATS, exportFormat, exportFormatNamed, exportParts } from '../../../src/export/export-formats';
import { datasetRows } from './dataset-fixtures';

describe('the export-format table', () => {
  it('gives every format one name: ids and aliases are lower case and never shared', () => {
    const names = EXPORT_FORMATS.flatMap((format) => [format.id, ...format.aliases]);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^[a-z0-9-]+$/);
    expect(EXPORT_FORMATS.map((format) => format.id)).toEqual(['csv', 'json', 'jsonl', 'annotations', 'bibtex', 'csl']);
  });

  it('finds a format by id or by the CLI’s older names, in any case, and nothing for an unknown name', () => {
    expect(exportFormatNamed('w3c')?.id).toBe('annotations');
    expect(exportFormatNamed(' CSL-JSON ')?.id).toBe('csl');
    expect(exportFormatNamed('BibTeX')?.id).toBe('bibtex');
    expect(exportFormatNamed('xlsx')).toBeUndefined();
    expect(() => exportFormat('xlsx')).toThrow(/no export format is called 'xlsx'/);
    expect(exportFormat('w3c').write(datasetRows)).toBe(toWebAnnotations(datasetRows));
  });

  it('writes a chunked format (CSV, JSONL) in parts that join to exactly its whole file, and no rows as the file of none', () => {
    const rows = Array.from({ length: 5001 }, (_, index) => ({ ...datasetRows[index % 4]!, id: `row-${index}` }));
    const csv = [...exportParts(exportFormat('csv'), rows)];
    expect(csv).toHaveLength(2);
    expect(csv.join('')).toBe(toCsv(rows));
    const jsonl = [...exportParts(exportFormat('jsonl'), rows)];
    expect(jsonl).toHaveLength(2);
    expect(jsonl.join('')).toBe(toJsonl(rows));
    expect([...exportParts(exportFormat('csv'), [])].join('')).toBe(toCsv([]));
    expect([...exportParts(exportFormat('annotations'), rows.slice(0, 3))]).toEqual([toWebAnnotations(rows.slice(0, 3))]);
  });
});
