import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Article } from '../../../../src/contracts/article';
import type { VerificationRecord } from '../../../../src/contracts/verification';
import { openBatchOutput } from '../../../../src/cli/batch/batch-output';
import {
  batchRunId,
  PaperFailure,
  runBatch,
  type BatchEvent,
  type BatchRunOptions,
  type PaperExtraction,
} from '../../../../src/cli/batch/batch-run';
import { CaptureError } from '../../../../src/capture/errors';
import { captureText } from '../../../../src/capture/text/capture-text';

const now = new Date('2026-11-25T00:00:00.000Z');
const settings = { engine: 'test', properties: ['band_gap'] };

/** A paper named after its file: a title line, then a paragraph long enough to be an article, with a band gap in it. */
const textOf = (file: string) =>
  `${file.replace(/\.txt$/, '')}\n\n` +
  'The films were grown by sputtering on quartz and annealed in air. Optical absorption shows that TiO2 has a band gap of 3.2 eV. '.repeat(
    4,
  );

function recordFor(article: Article, status: VerificationRecord['status'], value = 3.2): VerificationRecord {
  const sentence = 'TiO2 has a band gap of 3.2 eV.';
  return {
    status,
    triplet: {
      material: 'TiO2',
      property: 'band_gap',
      value: { kind: 'number', value },
      valueText: String(value),
      unit: 'eV',
      evidence: {
        blockId: article.blocks[0]!.id,
        quote: { type: 'TextQuoteSelector', exact: sentence, prefix: '', suffix: '' },
        position: { type: 'TextPositionSelector', start: 0, end: sentence.length },
      },
    } as VerificationRecord['triplet'],
    votes: ['moa', 'gd'],
    reasons: [],
  };
}

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'assay-batch-run-'));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

async function setUp(overrides: Partial<BatchRunOptions> & { files: string[] }) {
  const out = join(folder, 'out.jsonl');
  const opened = await openBatchOutput(out, settings, now);
  const events: BatchEvent[] = [];
  const options: BatchRunOptions = {
    concurrency: 2,
    output: opened.output,
    doneBefore: opened.done,
    settingsKey: opened.header.key,
    readFile: async (file) => new TextEncoder().encode(textOf(file)),
    capture: async (bytes) => captureText(new TextDecoder().decode(bytes), { url: null }),
    extract: async (article) => ({
      records: [recordFor(article, 'verified'), recordFor(article, 'rejected', 3.3), recordFor(article, 'needs_review', 3.4)],
      models: ['m'],
    }),
    now: () => now,
    signal: new AbortController().signal,
    onEvent: (event) => events.push(event),
    ...overrides,
  };
  const rows = () =>
    readFileSync(out, 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { id: string; status: string; runId: string });
  return { options, events, rows, opened };
}

describe('runBatch', () => {
  it('never has more than N papers in flight, and writes every paper', async () => {
    let inFlight = 0;
    let most = 0;
    const files = Array.from({ length: 9 }, (_, index) => `p${index}.txt`);
    const { options, rows, opened } = await setUp({
      files,
      concurrency: 3,
      extract: async (article) => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 5 + (article.text.length % 7)));
        inFlight -= 1;
        return { records: [recordFor(article, 'verified')], models: ['m'] };
      },
    });
    const summary = await runBatch(options);
    await opened.output.close();
    expect(most).toBe(3);
    expect(summary).toMatchObject({ papers: 9, done: 9, failed: 0, skipped: 0, triplets: 9, interrupted: false });
    expect(rows()).toHaveLength(9);
  });

  it('writes verified and needs_review verdicts, not rejected ones, with ids <run id>:<record index>', async () => {
    const { options, rows, opened } = await setUp({ files: ['a.txt'] });
    await runBatch(options);
    await opened.output.close();
    const sha = (await import('node:crypto')).createHash('sha256').update(textOf('a.txt')).digest('hex');
    const runId = batchRunId(opened.header.key, sha);
    expect(rows().map((row) => [row.id, row.status, row.runId])).toEqual([
      [`${runId}:0`, 'verified', runId],
      [`${runId}:2`, 'needs_review', runId],
    ]);
  });

  it('records a failing paper with its code and goes on with the others', async () => {
    const { options, events, rows, opened } = await setUp({
      files: ['a.txt', 'bad.txt', 'c.txt', 'down.txt'],
      capture: async (bytes, file) => {
        if (file === 'bad.txt') throw new CaptureError('empty', 'The file is empty (0 bytes).');
        return captureText(new TextDecoder().decode(bytes), { url: null });
      },
      extract: async (article): Promise<PaperExtraction> => {
        if (article.text.includes('down')) throw new PaperFailure('unreachable', 'every server is down');
        return { records: [recordFor(article, 'verified')], models: ['m'] };
      },
    });
    const summary = await runBatch(options);
    await opened.output.close();
    expect(summary).toMatchObject({ done: 2, failed: 2, triplets: 2 });
    expect(events.filter((event) => event.type === 'failed').map((event) => [event.file, 'code' in event && event.code])).toEqual([
      ['bad.txt', 'empty'],
      ['down.txt', 'unreachable'],
    ]);
    expect(rows()).toHaveLength(2);
    const record = readFileSync(join(folder, 'out.jsonl.assay-batch'), 'utf8');
    expect(record).toMatch(/"status":"failed".*"code":"empty"/);
  });

  it('skips papers done in an earlier run and a second file with the same bytes', async () => {
    const first = await setUp({ files: ['a.txt'] });
    await runBatch(first.options);
    await first.opened.output.close();
    const reopened = await openBatchOutput(join(folder, 'out.jsonl'), settings, now);
    const events: BatchEvent[] = [];
    const summary = await runBatch({
      ...first.options,
      files: ['a.txt', 'b.txt', 'copy-of-b.txt'],
      readFile: async (file) => new TextEncoder().encode(textOf(file === 'copy-of-b.txt' ? 'b.txt' : file)),
      output: reopened.output,
      doneBefore: reopened.done,
      onEvent: (event) => events.push(event),
    });
    await reopened.output.close();
    expect(summary).toMatchObject({ done: 1, skipped: 2 });
    expect(events.filter((event) => event.type === 'skipped')).toEqual([
      { type: 'skipped', file: 'a.txt', reason: 'done-before' },
      { type: 'skipped', file: 'copy-of-b.txt', reason: 'same-content', sameAs: 'b.txt' },
    ]);
  });

  it('after the signal starts no paper and records none of those in flight', async () => {
    const controller = new AbortController();
    let started = 0;
    const { options, rows, opened } = await setUp({
      files: ['a.txt', 'b.txt', 'c.txt', 'd.txt', 'e.txt'],
      concurrency: 2,
      signal: controller.signal,
      extract: async (article, signal) => {
        started += 1;
        if (started === 3) controller.abort();
        await new Promise((resolve) => setTimeout(resolve, 10));
        if (signal.aborted) throw new Error('aborted');
        return { records: [recordFor(article, 'verified')], models: ['m'] };
      },
    });
    const summary = await runBatch(options);
    await opened.output.close();
    expect(started).toBe(3);
    expect(summary.interrupted).toBe(true);
    expect(summary.failed).toBe(0);
    expect(rows()).toHaveLength(summary.done);
    expect(summary.done).toBeLessThan(3);
  });
});
