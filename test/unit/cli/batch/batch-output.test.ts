import { mkdtempSync, readFileSync, rmSync, writeFileSync, appendFileSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { manifestPathOf } from '../../../../src/cli/batch/batch-manifest';
import { BatchOutputError, openBatchOutput, type DoneWithoutEnd } from '../../../../src/cli/batch/batch-output';

const settings = { engine: 'rules', properties: ['band_gap'] };
const now = new Date('2026-11-25T00:00:00.000Z');
const entry = (digit: string, rows: number): DoneWithoutEnd => ({
  kind: 'paper',
  status: 'done',
  file: `${digit}.txt`,
  sha256: digit.repeat(64),
  at: now.toISOString(),
  seconds: 1,
  calls: 0,
  promptTokens: 0,
  completionTokens: 0,
  rows,
  runId: `batch-${digit}`,
});

let folder: string;
let out: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'assay-batch-output-'));
  out = join(folder, 'out.jsonl');
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

const lines = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '');

describe('openBatchOutput', () => {
  it('starts a batch: header first, then each paper’s rows in the output and its line, with the output length, in the record', async () => {
    const opened = await openBatchOutput(out, settings, now);
    expect(opened.done.size).toBe(0);
    const first = await opened.output.paperDone(['{"a":1}', '{"a":2}'], entry('a', 2));
    const second = await opened.output.paperDone([], entry('b', 0));
    await opened.output.close();
    expect(lines(out)).toEqual(['{"a":1}', '{"a":2}']);
    expect(first.end).toBe(Buffer.byteLength('{"a":1}\n{"a":2}\n'));
    expect(second.end).toBe(first.end);
    const record = lines(manifestPathOf(out)).map((line) => JSON.parse(line) as { kind: string; end?: number });
    expect(record.map((line) => line.kind)).toEqual(['assay-batch', 'paper', 'paper']);
  });

  it('continues a batch: papers done before, and rows of a paper whose record line never came are cut', async () => {
    const first = await openBatchOutput(out, settings, now);
    await first.output.paperDone(['{"a":1}'], entry('a', 1));
    await first.output.close();
    // A crash after the rows of paper b were written, before its record line (and half a line more).
    appendFileSync(out, '{"b":1}\n{"b":2');
    const second = await openBatchOutput(out, settings, now);
    expect([...second.done.keys()]).toEqual(['a'.repeat(64)]);
    expect(second.cutBytes).toBe(Buffer.byteLength('{"b":1}\n{"b":2'));
    await second.output.paperDone(['{"b":1}'], entry('b', 1));
    await second.output.close();
    expect(lines(out)).toEqual(['{"a":1}', '{"b":1}']);
  });

  it('cuts a record line cut short and says so', async () => {
    const first = await openBatchOutput(out, settings, now);
    await first.output.paperDone(['{"a":1}'], entry('a', 1));
    await first.output.close();
    appendFileSync(manifestPathOf(out), '{"kind":"paper","sta');
    const second = await openBatchOutput(out, settings, now);
    expect(second.warning).toMatch(/cut short/);
    await second.output.close();
    expect(readFileSync(manifestPathOf(out), 'utf8').endsWith('\n')).toBe(true);
  });

  it('refuses a file that is not a batch’s output, another batch’s settings, and an output shorter than its record', async () => {
    writeFileSync(out, 'my own notes\n');
    await expect(openBatchOutput(out, settings, now)).rejects.toThrow(BatchOutputError);
    rmSync(out);
    const first = await openBatchOutput(out, settings, now);
    await first.output.paperDone(['{"a":1}'], entry('a', 1));
    await first.output.close();
    await expect(openBatchOutput(out, { ...settings, properties: ['tc'] }, now)).rejects.toThrow(/properties \["band_gap"\] → \["tc"\]/);
    truncateSync(out, 3);
    await expect(openBatchOutput(out, settings, now)).rejects.toThrow(/shorter/);
  });

  it('keeps papers together in the order they were handed over when they finish at once', async () => {
    const opened = await openBatchOutput(out, settings, now);
    await Promise.all(['a', 'b', 'c'].map((digit) => opened.output.paperDone([`{"${digit}":1}`, `{"${digit}":2}`], entry(digit, 2))));
    await opened.output.close();
    expect(lines(out)).toEqual(['{"a":1}', '{"a":2}', '{"b":1}', '{"b":2}', '{"c":1}', '{"c":2}']);
    const ends = lines(manifestPathOf(out))
      .slice(1)
      .map((line) => (JSON.parse(line) as { end: number }).end);
    expect(ends).toEqual([...ends].sort((x, y) => x - y));
    expect(ends.at(-1)).toBe(readFileSync(out).length);
  });
});
