import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { collectPaperFiles } from '../../../../src/cli/batch/paper-inputs';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'assay-inputs-'));
  for (const path of [
    'lib/a.pdf',
    'lib/b.HTML',
    'lib/sub/c.xml',
    'lib/sub/d.txt',
    'lib/e.xhtml',
    'lib/notes.md',
    'lib/.hidden/f.txt',
    'lib/.g.txt',
    'one.dat',
    'out.jsonl',
  ]) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), 'x');
  }
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('collectPaperFiles', () => {
  it('walks a folder for documents in any case, leaving out hidden files and other files', async () => {
    const { files, problems } = await collectPaperFiles(['lib'], root);
    expect(problems).toEqual([]);
    expect(files).toEqual(['lib/a.pdf', 'lib/b.HTML', 'lib/e.xhtml', 'lib/sub/c.xml', 'lib/sub/d.txt'].sort());
  });

  it('takes a named file whatever its name, globs, and each path once', async () => {
    const { files } = await collectPaperFiles(['one.dat', 'lib/sub/*.txt', 'lib', 'one.dat'], root);
    expect(files[0]).toBe('one.dat');
    expect(files[1]).toBe('lib/sub/d.txt');
    expect(files.filter((file) => file === 'lib/sub/d.txt')).toHaveLength(1);
    expect(files).toHaveLength(6);
  });

  it('says which inputs name nothing, and never takes an excluded path', async () => {
    mkdirSync(join(root, 'empty'));
    const { files, problems } = await collectPaperFiles(['missing.pdf', 'empty', 'lib/*.csv', 'out.jsonl'], root, [
      join(root, 'out.jsonl'),
    ]);
    expect(files).toEqual([]);
    expect(problems).toEqual([
      'no such file or folder: missing.pdf',
      expect.stringMatching(/^no documents in empty/),
      'no file matches lib/*.csv',
    ]);
  });
});
