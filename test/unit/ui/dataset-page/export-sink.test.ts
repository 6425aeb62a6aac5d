/**
 * An export's text streams into a file of the origin private file system as it is formatted
 * (src/ui/dataset-page/export-sink.ts); without one, the parts are kept and joined at the end.
 * The directory here is a fake with the OPFS calls the sink makes, recording what reaches the file.
 */
import { describe, expect, it } from 'vitest';
import { openExportSink, type ExportDirectory } from '../../../../src/ui/dataset-page/export-sink';

/** A Blob's text (Node's Blob has text()). */
const text = (blob: Blob) => blob.text();

/** A fake OPFS root: files are arrays of written parts; `failAt` makes that write (0-based) reject. */
function fakeDirectory(existing: string[] = [], failAt?: number) {
  const files = new Map<string, string[]>(existing.map((name) => [name, ['old']]));
  const events: string[] = [];
  let writes = 0;
  const directory: ExportDirectory = {
    async getFileHandle(name) {
      if (!files.has(name)) files.set(name, []);
      return {
        createWritable: async () => ({
          write: async (data: string) => {
            if (writes++ === failAt) throw new Error('QuotaExceededError: the disk is full');
            events.push(`write ${data}`);
            files.get(name)!.push(data);
          },
          close: async () => void events.push('close'),
          abort: async () => void events.push('abort'),
        }),
        getFile: async () => new Blob(files.get(name)!),
      };
    },
    async removeEntry(name) {
      events.push(`remove ${name}`);
      files.delete(name);
    },
    async *keys() {
      yield* [...files.keys()];
    },
  };
  return { directory, files, events };
}

describe('openExportSink', () => {
  it('writes each part into a new OPFS file as it comes, in order, after removing earlier exports’ files', async () => {
    const fake = fakeDirectory(['assay-export-1', 'someone-elses-file']);
    const sink = await openExportSink(async () => fake.directory);
    expect(sink.kind).toBe('opfs');
    expect([...fake.files.keys()]).not.toContain('assay-export-1');
    expect([...fake.files.keys()]).toContain('someone-elses-file');
    sink.write('id,material\n');
    sink.write('a,TiO2\n');
    // The first bytes reach the file before the export ends.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(fake.events).toContain('write id,material\n');
    sink.write('b,GaN\n');
    const blob = await sink.finish('text/csv;charset=utf-8');
    expect(blob.type).toBe('text/csv;charset=utf-8');
    expect(await text(blob)).toBe('id,material\na,TiO2\nb,GaN\n');
    expect(fake.events.at(-1)).toBe('close');
  });

  it('Stop drops the file: aborted and removed', async () => {
    const fake = fakeDirectory();
    const sink = await openExportSink(async () => fake.directory);
    sink.write('id\n');
    await sink.abort();
    expect(fake.events.slice(-2)).toEqual(['abort', expect.stringMatching(/^remove assay-export-/)]);
    expect([...fake.files.keys()]).toEqual([]);
  });

  it('a write that fails (a full disk) fails the export with its error, not a truncated file', async () => {
    const fake = fakeDirectory([], 1);
    const sink = await openExportSink(async () => fake.directory);
    sink.write('one\n');
    sink.write('two\n');
    sink.write('three\n');
    await expect(sink.finish('text/csv')).rejects.toThrow('QuotaExceededError: the disk is full');
  });

  it('keeps the parts in memory where the page has no OPFS, or it cannot be opened', async () => {
    for (const directory of [async () => undefined, async () => Promise.reject(new Error('SecurityError'))]) {
      const sink = await openExportSink(directory);
      expect(sink.kind).toBe('memory');
      sink.write('a');
      sink.write('b');
      expect(await text(await sink.finish('text/plain'))).toBe('ab');
    }
  });
});
