import { chmodSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportParts, writeFileAtomically } from '../../../src/cli/dataset-files';
import { toCsv, toJsonl } from '../../../src/export/dataset-export';
import { datasetRows } from '../export/dataset-fixtures';

describe('exportParts', () => {
  it('writes CSV and JSONL in parts that join to exactly toCsv and toJsonl of all the rows', () => {
    const rows = Array.from({ length: 5001 }, (_, index) => ({ ...datasetRows[index % 4]!, id: `row-${index}` }));
    const csv = [...exportParts('csv', rows)];
    expect(csv).toHaveLength(2);
    expect(csv.join('')).toBe(toCsv(rows));
    const jsonl = [...exportParts('jsonl', rows)];
    expect(jsonl).toHaveLength(2);
    expect(jsonl.join('')).toBe(toJsonl(rows));
    expect([...exportParts('csv', [])].join('')).toBe(toCsv([]));
  });
});

describe('writeFileAtomically', () => {
  it('replaces the file a link names, keeping its permission bits, and leaves no temporary file', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'assay-atomic-'));
    writeFileSync(join(folder, 'data.jsonl'), 'old\n');
    chmodSync(join(folder, 'data.jsonl'), 0o600);
    symlinkSync(join(folder, 'data.jsonl'), join(folder, 'link.jsonl'));
    await writeFileAtomically(join(folder, 'link.jsonl'), ['new ', 'text\n']);
    expect(readFileSync(join(folder, 'data.jsonl'), 'utf8')).toBe('new text\n');
    expect(statSync(join(folder, 'data.jsonl')).mode & 0o777).toBe(0o600);
    expect(readdirSync(folder).sort()).toEqual(['data.jsonl', 'link.jsonl']);
  });

  it('leaves the file as it was when writing fails part way, removing the temporary file', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'assay-atomic-'));
    writeFileSync(join(folder, 'data.jsonl'), 'old\n');
    function* failing(): Generator<string> {
      yield 'half a file';
      throw new Error('disk full');
    }
    await expect(writeFileAtomically(join(folder, 'data.jsonl'), failing())).rejects.toThrow('disk full');
    expect(readFileSync(join(folder, 'data.jsonl'), 'utf8')).toBe('old\n');
    expect(readdirSync(folder)).toEqual(['data.jsonl']);
  });
});
