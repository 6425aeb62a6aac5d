/**
 * Special files named to `assay` (issue 27, item 9), each command a real process: a named pipe
 * (FIFO) that nobody writes to blocked the read for ever, and a link to /dev/zero read gigabytes.
 * Every command that reads a path it is given refuses anything but a regular file, links
 * followed, with one line on stderr and a non-zero exit, before opening it.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { killAllAssay, runAssay } from '../../support/assay-process';

const PAPER =
  'Optical properties of GaN thin films\n\nThin films of GaN were deposited by sputtering and annealed at 500 °C in air. ' +
  'The absorption edge was measured by UV–vis spectroscopy. From the Tauc plot, GaN has a band gap of 3.4 eV. ' +
  'The films are polycrystalline, and the grain size grows with the annealing temperature.\n';

let folder: string;

beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'assay-special-files-'));
  execFileSync('mkfifo', [join(folder, 'pipe.txt')]);
  symlinkSync('/dev/zero', join(folder, 'zero.txt'));
  writeFileSync(join(folder, 'paper.txt'), PAPER);
  writeFileSync(join(folder, 'facts.jsonl'), JSON.stringify({ material: 'GaN', property: 'band_gap', value: 3.4, unit: 'eV' }) + '\n');
  // A data root whose dataset file is a FIFO, and one where it links to /dev/zero.
  for (const [root, make] of [
    ['data-pipe', (path: string) => execFileSync('mkfifo', [path])],
    ['data-zero', (path: string) => symlinkSync('/dev/zero', path)],
  ] as const) {
    mkdirSync(join(folder, root, 'datasets', 'llm-nerre', 'doping'), { recursive: true });
    make(join(folder, root, 'datasets', 'llm-nerre', 'doping', 'train.json'));
  }
  // A folder of papers holding a FIFO and a link to /dev/zero among real papers.
  mkdirSync(join(folder, 'papers'));
  writeFileSync(join(folder, 'papers', 'a.txt'), PAPER);
  execFileSync('mkfifo', [join(folder, 'papers', 'b-pipe.txt')]);
  symlinkSync('/dev/zero', join(folder, 'papers', 'c-zero.txt'));
});
afterEach(() => killAllAssay());
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const PIPE = /pipe\.txt is a named pipe \(FIFO\), not a regular file: Assay reads only regular files/;
const ZERO = /zero\.txt links to \/dev\/zero, a character device, not a regular file: Assay reads only regular files/;

/** Before the fix these hung (FIFO) or read without end (/dev/zero) until the process group was killed at 40 s. */
const CASES: Array<[string, string[], RegExp]> = [
  ['capture a FIFO', ['capture', 'pipe.txt', '--json'], PIPE],
  ['capture a link to /dev/zero', ['capture', 'zero.txt', '--json'], ZERO],
  ['scan a FIFO', ['scan', 'pipe.txt', '--json'], PIPE],
  ['extract a FIFO', ['extract', 'pipe.txt', '--json'], PIPE],
  ['extract a link to /dev/zero', ['extract', 'zero.txt', '--json'], ZERO],
  ['extract with a FIFO as --schema FILE.json', ['extract', 'paper.txt', '--schema', 'pipe.json'], /pipe\.json is a named pipe \(FIFO\)/],
  ['extract with a FIFO as --script', ['extract', 'paper.txt', '--engine', 'scripted', '--script', 'pipe.txt'], PIPE],
  ['verify a FIFO paper', ['verify', 'pipe.txt', '--triplets', 'facts.jsonl', '--json'], PIPE],
  ['verify with a FIFO as --triplets', ['verify', 'paper.txt', '--triplets', 'pipe.txt', '--json'], PIPE],
  ['verify with /dev/zero as --triplets', ['verify', 'paper.txt', '--triplets', 'zero.txt', '--json'], ZERO],
  ['import a FIFO', ['import', 'pipe.txt', '--out', 'imported.jsonl', '--json'], /pipe\.txt is a named pipe \(FIFO\), not a regular file/],
  ['export a FIFO', ['export', 'pipe.txt', '--format', 'csv'], /pipe\.txt is a named pipe \(FIFO\), not a regular file/],
  [
    'eval with a FIFO in --data',
    ['eval', 'llm-nerre-doping', '--baseline', 'formula-hosts', '--data', 'data-pipe', '--json'],
    /doping\/train\.json is a named pipe \(FIFO\)/,
  ],
  [
    'eval with a link to /dev/zero in --data',
    ['eval', 'llm-nerre-doping', '--baseline', 'formula-hosts', '--data', 'data-zero', '--json'],
    /doping\/train\.json links to \/dev\/zero, a character device/,
  ],
  ['precedent with a FIFO as --reference', ['precedent', 'GaN', '--reference', 'pipe.txt', '--json'], PIPE],
  ['a batch naming a FIFO', ['extract', 'pipe.txt', 'paper.txt', '--out', 'batch.jsonl'], PIPE],
];

describe('assay refuses what is not a regular file', () => {
  beforeAll(() => execFileSync('mkfifo', [join(folder, 'pipe.json')]));

  it.each(CASES)(
    '%s: one line, non-zero exit',
    async (_name, args, message) => {
      const run = await runAssay(args, { cwd: folder, limitMs: 40_000 });
      expect(run.timedOut, `still running at 40 s; stderr: ${run.stderr.slice(0, 300)}`).toBe(false);
      expect(run.code).not.toBe(0);
      const lines = run.stderr.trim().split('\n');
      expect(lines, run.stderr).toHaveLength(1);
      expect(lines[0]).toMatch(message);
    },
    60_000,
  );

  it('a batch over a folder leaves the FIFO and the link out and does the papers', async () => {
    const run = await runAssay(['extract', 'papers', '--out', 'folder.jsonl', '--json'], { cwd: folder, limitMs: 40_000 });
    expect(run.timedOut, run.stderr).toBe(false);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ papers: 1, done: 1, failed: 0 });
  }, 60_000);
});
