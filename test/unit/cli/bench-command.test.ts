import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { medianMilliseconds, runBench } from '../../../src/cli/bench-command';

describe('assay bench', () => {
  afterEach(() => vi.restoreAllMocks());

  it('runs the work once to warm up, then the requested number of timed runs', () => {
    let calls = 0;
    const median = medianMilliseconds(() => (calls += 1), 5);
    expect(calls).toBe(6);
    expect(median).toBeGreaterThanOrEqual(0);
  });

  it('prints one JSON document with named figures and units for a given file', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'assay-bench-'));
    const file = join(folder, 'paper.txt');
    writeFileSync(file, `Band gap of GaN films\n\n${'The band gap of GaN is 3.4 eV at room temperature, as absorption shows. '.repeat(4)}`);
    const output: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (output.push(String(chunk)), true));
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    expect(await runBench(['--json', '--runs', '2', file])).toBe(0);
    const report = JSON.parse(output.join('')) as { figures: Array<{ name: string; value: number; unit: string }> };
    expect(report.figures.map((figure) => figure.unit)).toEqual(['ms', 'characters', 'ms', 'ms']);
    expect(report.figures[2]?.name).toBe('scan paper.txt (median of 2)');
  });

  it('rejects a bad --runs value with exit code 2', async () => {
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    expect(await runBench(['--runs', 'zero'])).toBe(2);
  });
});
