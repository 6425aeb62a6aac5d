/**
 * Issue 27, item 4, as the issue found it: `assay extract` on a 4.7 MB PDF whose Flate stream
 * inflates to 4.5 GiB peaked at 11.4 GB and ran 84 s, exit 0. As a real process it now ends at
 * once with `[too-large]` and exit 1, its peak memory (the child's own maxRSS, printed at exit by
 * a preloaded hook) under 1 GB. README, "A small PDF can use unbounded memory", has the figures.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bombPdf } from '../../support/hostile-pdf';
import { projectRoot } from '../../support/shared-data';

/** Preloaded into the child: prints its peak resident memory (KiB) as it exits. */
const PEAK_MEMORY_HOOK =
  'data:text/javascript,' +
  encodeURIComponent('process.on("exit", () => process.stderr.write(`peak-rss-kib=${process.resourceUsage().maxRSS}\\n`));');

let folder: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'assay-pdf-bomb-'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function runAssay(args: string[]): Promise<{ code: number | null; stderr: string; seconds: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', PEAK_MEMORY_HOOK, join(projectRoot, 'bin', 'assay.mjs'), ...args], {
    cwd: folder,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr, seconds: (performance.now() - started) / 1000 }));
  });
}

describe('assay extract on a decompression bomb', () => {
  it('ends with [too-large] and exit 1, under 1 GB of memory', { timeout: 180_000 }, async () => {
    const file = join(folder, 'bomb.pdf');
    const bytes = bombPdf({ decodedBytes: 4.5 * 1024 ** 3 }); // the 4.5 GiB, in a 4.7 MB file
    expect(bytes.length).toBeLessThan(5_000_000);
    writeFileSync(file, bytes);
    const { code, stderr, seconds } = await runAssay(['extract', file]);
    expect(stderr).toMatch(/decode to more than 256 MB.*\[too-large\]\n/);
    expect(code).toBe(1);
    const peakKib = Number(/peak-rss-kib=(\d+)/.exec(stderr)?.[1]);
    expect(peakKib * 1024).toBeLessThan(1e9);
    // 8–20 s on the 2-core machine under load (README); the run took 84 s.
    expect(seconds).toBeLessThan(60);
  });
});
