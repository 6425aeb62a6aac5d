/**
 * The command line never prints a raw control character that came from a document or a file
 * name (issue 14, item 8).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../../src/cli/main';

/** What a terminal would act on: C0 controls but tab and line feed, DEL, C1, bidi overrides and isolates. */
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

afterEach(() => vi.restoreAllMocks());

/** Run the CLI with `argv`, collecting what it writes. */
async function run(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (stdout.push(String(chunk)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (stderr.push(String(chunk)), true));
  const code = await main(argv);
  vi.restoreAllMocks();
  return { code, stdout: stdout.join(''), stderr: stderr.join('') };
}

describe('what the CLI prints', () => {
  it('never prints a raw control character from a file name or a paper, in text or --json output', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'assay-terminal-'));
    try {
      const path = join(directory, 'paper\u001b]0;owned\u0007\u001b[2J.html');
      const paragraph = 'Zinc oxide films show a direct optical band gap of 3.3 eV at room temperature, as measured here. ';
      writeFileSync(
        path,
        `<html><head><title>T\u001b[31mitle</title><meta name="citation_title" content="Band \u001b[5mgaps\u009b2J"><meta name="citation_doi" content="10.1234/x.1"></head>` +
          `<body><article><h2>Res\u001b]8;;http://evil\u0007ults</h2><p>${paragraph.repeat(40)}</p></article></body></html>`,
      );
      for (const argv of [
        ['capture', path],
        ['capture', path, '--json'],
        ['capture', `${path}.missing`],
        ['scan', path],
      ]) {
        const { stdout, stderr } = await run(argv);
        expect(stdout + stderr).not.toBe('');
        expect({ argv: argv.join(' '), unsafe: UNSAFE.test(stdout + stderr) }).toEqual({ argv: argv.join(' '), unsafe: false });
      }
      const { stdout } = await run(['capture', path, '--json']);
      expect(JSON.parse(stdout).title).toBe('Band gaps');
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  }, 60_000); // three captures of an HTML file, each judged in headless Chromium where it is installed (about 1–2 s each)
});
