import { describe, expect, it } from 'vitest';
import { parseManifest, resumePoint, settingsKey, type ManifestHeader, type PaperEntry } from '../../../../src/cli/batch/batch-manifest';

const settings = { engine: 'openai', preset: 'paper', properties: ['band_gap'], seed: 1 };
const header: ManifestHeader = {
  kind: 'assay-batch',
  version: 1,
  key: settingsKey(settings),
  settings,
  startedAt: '2026-11-25T00:00:00.000Z',
};
const sha = (digit: string) => digit.repeat(64);
const base = { kind: 'paper' as const, at: '2026-11-25T00:00:01.000Z', seconds: 1, calls: 3, promptTokens: 10, completionTokens: 2 };
const done = (file: string, digit: string, end: number): PaperEntry => ({
  ...base,
  status: 'done',
  file,
  sha256: sha(digit),
  rows: 1,
  end,
  runId: `batch-${digit}`,
});
const failed = (file: string, digit: string): PaperEntry => ({
  ...base,
  status: 'failed',
  file,
  sha256: sha(digit),
  error: { code: 'unreachable', message: 'no server' },
});
const bytesOf = (...lines: unknown[]) => new TextEncoder().encode(lines.map((line) => JSON.stringify(line) + '\n').join(''));

describe('settingsKey', () => {
  it('does not depend on the order of the keys, and changes with any setting', () => {
    expect(settingsKey({ properties: ['band_gap'], engine: 'openai', seed: 1, preset: 'paper' })).toBe(settingsKey(settings));
    expect(settingsKey({ ...settings, seed: 2 })).not.toBe(settingsKey(settings));
    expect(settingsKey({ ...settings, properties: ['band_gap', 'tc'] })).not.toBe(settingsKey(settings));
  });
});

describe('parseManifest and resumePoint', () => {
  it('reads the header and the papers, and resumes after the last done paper', () => {
    const bytes = bytesOf(header, done('a.txt', 'a', 100), failed('b.txt', 'b'), done('c.txt', 'c', 250));
    const parsed = parseManifest(bytes);
    expect(parsed.problem).toBeNull();
    expect(parsed.validBytes).toBe(bytes.length);
    const point = resumePoint(parsed)!;
    expect([...point.done.keys()]).toEqual([sha('a'), sha('c')]);
    expect(point.outputEnd).toBe(250);
    expect(point.failedBefore).toBe(1);
  });

  it('does not trust a last line cut short, and keeps the bytes before it', () => {
    const complete = bytesOf(header, done('a.txt', 'a', 100));
    const cut = new TextEncoder().encode(JSON.stringify(done('c.txt', 'c', 250)).slice(0, 40));
    const parsed = parseManifest(new Uint8Array([...complete, ...cut]));
    expect(parsed.entries).toHaveLength(1);
    expect(parsed.validBytes).toBe(complete.length);
    expect(parsed.problem).toMatch(/cut short/);
    expect(resumePoint(parsed)!.outputEnd).toBe(100);
  });

  it('ends the trusted part at a line that is not a batch line', () => {
    const parsed = parseManifest(bytesOf(header, done('a.txt', 'a', 100), { kind: 'paper', status: 'done' }, done('c.txt', 'c', 250)));
    expect(parsed.entries).toHaveLength(1);
    expect(parsed.problem).toMatch(/line 3/);
  });

  it('a paper that failed and was then done is done, not failed', () => {
    const point = resumePoint(parseManifest(bytesOf(header, failed('a.txt', 'a'), done('a.txt', 'a', 80))))!;
    expect(point.failedBefore).toBe(0);
    expect(point.done.has(sha('a'))).toBe(true);
  });

  it('stops trusting at an entry whose end goes back in the output', () => {
    const bytes = bytesOf(header, done('a.txt', 'a', 100), done('c.txt', 'c', 50));
    const point = resumePoint(parseManifest(bytes))!;
    expect(point.outputEnd).toBe(100);
    expect(point.done.size).toBe(1);
    expect(point.manifestEnd).toBe(bytesOf(header, done('a.txt', 'a', 100)).length);
  });

  it('a file without a header is no batch at all', () => {
    expect(resumePoint(parseManifest(bytesOf({ hello: 1 })))).toBeNull();
    expect(resumePoint(parseManifest(new Uint8Array()))).toBeNull();
  });
});
