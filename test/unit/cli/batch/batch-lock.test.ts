/**
 * Two batches on one `--out` (issue 27, item 7), as real processes: the second refuses at once
 * with one line naming the first (pid, start time) and a non-zero exit, and the first's output
 * and batch record stay whole; the lock of a run killed with SIGKILL is taken over by the next
 * run once stale instead of blocking it for ever. The model is the test server answering from
 * each passage (groundedFacts), slowed down so the first run is still going.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAiTestServer, type OpenAiTestServer } from '../../../e2e/openai-test-server';
import { killAllAssay, startAssay } from '../../../support/assay-process';
import { groundedFacts } from '../../../support/grounded-facts';

const MATERIALS = ['TiO2', 'ZnO', 'GaN', 'SnO2', 'CdS', 'ZnS'];

let folder: string;
let server: OpenAiTestServer;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'assay-batch-lock-'));
  mkdirSync(join(folder, 'papers'));
  MATERIALS.forEach((material, index) =>
    writeFileSync(
      join(folder, 'papers', `${index}-${material}.txt`),
      `Optical properties of ${material} thin films\n\nThin films of ${material} were deposited by sputtering and annealed at 500 °C in air. ` +
        `The absorption edge was measured by UV–vis spectroscopy. From the Tauc plot, ${material} has a band gap of ${(1 + index * 0.25).toFixed(2)} eV. ` +
        'The films are polycrystalline, and the grain size grows with the annealing temperature.\n',
    ),
  );
  server = await startOpenAiTestServer(groundedFacts);
});
afterEach(() => killAllAssay());
afterAll(async () => {
  killAllAssay();
  await server?.close();
  rmSync(folder, { recursive: true, force: true });
});

function batch(out: string) {
  return startAssay(
    [
      'extract',
      'papers',
      '--out',
      out,
      '--engine',
      'openai',
      '--base-url',
      server.baseUrl,
      '--schema',
      'band_gap',
      '--concurrency',
      '1',
      '--json',
    ],
    { cwd: folder, env: { SOURCE_DATE_EPOCH: '1764028800' }, limitMs: 110_000 },
  );
}

async function until(condition: () => boolean, what: string, limitMs = 60_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const lines = (path: string): string[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '');

describe('assay extract --out, two runs on one output', () => {
  it('refuses the second at once, naming the first, and leaves the first whole', async () => {
    // Slow until the second run has been refused, then at full speed.
    server.setDelay(1000);
    const first = batch('same.jsonl');
    const holder = join(folder, 'same.jsonl.assay-lock.json');
    // The batch record is written once the run holds the lock.
    await until(() => existsSync(join(folder, 'same.jsonl.assay-batch')), 'the first run to start its batch record');

    const second = await batch('./papers/../same.jsonl').exited;
    expect(second.timedOut).toBe(false);
    expect(second.code).toBe(1);
    const refusal = second.stderr.trim().split('\n');
    expect(refusal).toHaveLength(1);
    expect(refusal[0]).toMatch(
      new RegExp(
        `^assay extract: .*same\\.jsonl is being written by another assay batch \\(pid ${first.child.pid}, started \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z\\): wait for it to end, or give another --out\\.$`,
      ),
    );
    expect(second.stdout).toBe('');

    server.setDelay(0);
    const done = await first.exited;
    expect(done.code, done.stderr).toBe(0);
    const summary = JSON.parse(done.stdout) as { done: number; triplets: number };
    expect(summary.done).toBe(MATERIALS.length);
    const rows = lines(join(folder, 'same.jsonl'));
    expect(rows).toHaveLength(summary.triplets);
    expect(new Set(rows).size).toBe(rows.length);
    const record = lines(join(folder, 'same.jsonl.assay-batch'));
    expect(record).toHaveLength(1 + MATERIALS.length);
    for (const line of record) expect(() => JSON.parse(line)).not.toThrow();
    // Released: neither the lock nor its holder file is left.
    expect(existsSync(join(folder, 'same.jsonl.assay-lock'))).toBe(false);
    expect(existsSync(holder)).toBe(false);
  }, 120_000);

  it('takes over the stale lock of a run killed with SIGKILL', async () => {
    server.setDelay(400);
    const killed = batch('crashed.jsonl');
    await until(() => existsSync(join(folder, 'crashed.jsonl.assay-batch')), 'the first run to start its batch record');
    killed.kill();
    const dead = await killed.exited;
    expect(dead.signal).toBe('SIGKILL');
    expect(existsSync(join(folder, 'crashed.jsonl.assay-lock'))).toBe(true);

    server.setDelay(0);
    const next = await batch('crashed.jsonl').exited;
    expect(next.timedOut).toBe(false);
    expect(next.code, next.stderr).toBe(0);
    expect(next.stderr).toContain(`ended without releasing it; taking its lock over once it is stale`);
    expect(next.stderr).toContain(`(pid ${killed.child.pid}, started `);
    expect(JSON.parse(next.stdout)).toMatchObject({ papers: MATERIALS.length });
    expect(existsSync(join(folder, 'crashed.jsonl.assay-lock'))).toBe(false);
  }, 120_000);
});
