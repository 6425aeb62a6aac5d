import { chmodSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFileAtomically } from '../../../src/cli/dataset-files';

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
