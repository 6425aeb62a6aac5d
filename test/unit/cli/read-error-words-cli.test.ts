/**
 * The command line's own read failures in words (issue 27, item 12): `assay capture` printed
 * Node's "EIO: i/o error, read" and `assay import`/`export` JavaScript's "Invalid string length"
 * as they came.
 */
import { Blob as NodeBlob } from 'node:buffer';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CaptureError } from '../../../src/capture/errors';

afterEach(() => {
  vi.doUnmock('../../../src/capture/node/regular-file');
  vi.resetModules();
});

describe('read failures on the command line', () => {
  it('words a disk error while capture reads the file', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'assay-read-error-'));
    writeFileSync(join(folder, 'paper.html'), '<p>x</p>');
    vi.doMock('../../../src/capture/node/regular-file', async (original) => ({
      ...(await original<typeof import('../../../src/capture/node/regular-file')>()),
      readRegularFile: () => Promise.reject(Object.assign(new Error('EIO: i/o error, read'), { code: 'EIO', errno: -5 })),
    }));
    const { readInputFile } = await import('../../../src/cli/capture-command');
    const error = await readInputFile(join(folder, 'paper.html')).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(CaptureError);
    expect((error as CaptureError).message).toBe(
      `Cannot read ${join(folder, 'paper.html')}: the disk reported an input/output error while reading the file.`,
    );
  });

  it('words a dataset file too large to hold as text', async () => {
    const { readDatasetFile, DatasetFileError } = await import('../../../src/cli/dataset-files');
    // A blob whose reading hits V8's longest string, as a JSONL line over ~512 MB does.
    const huge = new NodeBlob(['[]']) as unknown as Blob;
    huge.slice = () => {
      throw new RangeError('Invalid string length');
    };
    const error = await readDatasetFile('big.jsonl', huge, new Date()).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(DatasetFileError);
    expect((error as Error).message).toBe(
      'big.jsonl: could not be read (the file is too large to read as text (over ~512 MB of text, the longest text JavaScript can hold))',
    );
  });
});
