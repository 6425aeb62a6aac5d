/**
 * The batch command as a real process: a run killed with SIGKILL part-way and run again ends with
 * the same rows as a run never interrupted (rows saved at a fixed time, SOURCE_DATE_EPOCH), redoing
 * only the papers that had not finished; the file never holds a half line. The model is the test
 * server answering from each passage (groundedFacts) with a fixed delay per call.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAiTestServer, type OpenAiTestServer } from '../../../e2e/openai-test-server';
import { groundedFacts } from '../../../support/grounded-facts';
import { projectRoot } from '../../../support/shared-data';

const MATERIALS = ['TiO2', 'ZnO', 'GaN', 'SnO2', 'CdS', 'ZnS', 'GaAs', 'InP', 'SiC', 'MoS2', 'WO3', 'NiO'];

function paperText(material: string, index: number): string {
  const gap = (1 + index * 0.25).toFixed(2);
  return (
    `Optical properties of ${material} thin films\n\n` +
    `Thin films of ${material} were deposited by sputtering on fused silica and annealed at 500 °C in air. ` +
    `The absorption edge was measured by UV–vis spectroscopy. From the Tauc plot, ${material} has a band gap of ${gap} eV. ` +
    'The films are polycrystalline, and the grain size grows with the annealing temperature.\n'
  );
}

let folder: string;
let server: OpenAiTestServer;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'assay-batch-resume-'));
  mkdirSync(join(folder, 'papers'));
  MATERIALS.forEach((material, index) =>
    writeFileSync(join(folder, 'papers', `${String(index).padStart(2, '0')}-${material}.txt`), paperText(material, index)),
  );
  server = await startOpenAiTestServer(groundedFacts);
  server.setDelay(30);
});
afterAll(async () => {
  await server?.close();
  rmSync(folder, { recursive: true, force: true });
});

function extract(out: string) {
  const child = spawn(
    process.execPath,
    [
      join(projectRoot, 'bin', 'assay.mjs'),
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
      '2',
      '--json',
    ],
    { cwd: folder, env: { ...process.env, SOURCE_DATE_EPOCH: '1764028800' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { child, exited };
}

const lines = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '');
const paperLines = (out: string) => (existsSync(`${out}.assay-batch`) ? lines(`${out}.assay-batch`).length - 1 : 0);

describe('assay extract --out, killed and resumed', () => {
  it('gives the same rows as a run never interrupted, redoing only unfinished papers', async () => {
    const whole = await extract(join(folder, 'whole.jsonl')).exited;
    expect(whole.code, whole.stderr).toBe(0);
    const wholeSummary = JSON.parse(whole.stdout) as { papers: number; done: number; triplets: number; calls: number };
    expect(wholeSummary).toMatchObject({ papers: 12, done: 12 });
    const expected = lines(join(folder, 'whole.jsonl'));
    expect(expected.length).toBe(wholeSummary.triplets);
    expect(expected.length).toBeGreaterThanOrEqual(6);

    const out = join(folder, 'killed.jsonl');
    const first = extract(out);
    const deadline = Date.now() + 60_000;
    while (paperLines(out) < 4 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    first.child.kill('SIGKILL');
    const killed = await first.exited;
    expect(killed.signal).toBe('SIGKILL');
    const finishedBefore = paperLines(out);
    expect(finishedBefore).toBeGreaterThanOrEqual(4);
    expect(finishedBefore).toBeLessThan(12);
    // Whatever was on disk at the kill is whole lines of JSON.
    const text = readFileSync(out, 'utf8');
    expect(text === '' || text.endsWith('\n')).toBe(true);
    for (const line of lines(out)) expect(() => JSON.parse(line)).not.toThrow();

    const resumed = await extract(out).exited;
    expect(resumed.code, resumed.stderr).toBe(0);
    const summary = JSON.parse(resumed.stdout) as { done: number; skipped: number; calls: number };
    expect(summary.skipped).toBeGreaterThanOrEqual(finishedBefore);
    expect(summary.done + summary.skipped).toBe(12);
    expect(summary.calls).toBeLessThan(wholeSummary.calls);
    expect([...lines(out)].sort()).toEqual([...expected].sort());
  }, 120_000);

  it('exits 1 on a usage error, and 3 when a paper fails while the others are written', async () => {
    const usage = await new Promise<number | null>((resolve) =>
      spawn(process.execPath, [join(projectRoot, 'bin', 'assay.mjs'), 'extract', 'papers', '--out', 'x.jsonl', '--concurrency', '0'], {
        cwd: folder,
      }).on('exit', resolve),
    );
    expect(usage).toBe(1);
    writeFileSync(join(folder, 'papers', 'empty.txt'), '');
    try {
      const run = await extract(join(folder, 'with-failure.jsonl')).exited;
      expect(run.code).toBe(3);
      const summary = JSON.parse(run.stdout) as { done: number; failed: number; failures: Array<{ file: string; code: string }> };
      expect(summary).toMatchObject({ done: 12, failed: 1, failures: [{ file: 'papers/empty.txt', code: 'empty' }] });
    } finally {
      rmSync(join(folder, 'papers', 'empty.txt'));
    }
  }, 120_000);
});
