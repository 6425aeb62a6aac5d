/**
 * The prebuilt CLI (bin/cli-bundle.mjs, issue 29 item 7): `npm ci` bundles src/cli into dist/cli
 * and `assay` runs that bundle while it matches the sources, else the sources with tsx.
 *
 * - A small project of its own: the manifest finds the bundle stale when a source changes or
 *   goes, not when a file is only touched; each module's `import.meta.url` stays its source's.
 * - The real CLI, bundled into a folder of its own: `--help`, a PDF capture (pdf.js and its
 *   worker), a hidden-text capture in headless Chromium (the page script esbuild bundles from
 *   the source beside chromium-visibility.ts), a batch estimate with Mistral's tokenizer (loaded
 *   through `createRequire(import.meta.url)`) and a usage error answer as `main()` does in this
 *   process; a bundle whose manifest no longer matches a source is not run.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildCliBundle, bundleState, MANIFEST } from '../../../bin/cli-bundle.mjs';
import { main } from '../../../src/cli/main';
import { DEFAULT_CHROMIUM, PARTIAL_CHECK } from '../../../src/capture/node/chromium-visibility';
import { killAllAssay, runAssay } from '../../support/assay-process';
import { CONTROL_FACT, HIDDEN_VARIANTS_CSS, hiddenVariantsPage } from '../../support/hidden-variants';
import { minimalPdf } from '../capture/pdf/minimal-pdf';
import { projectRoot } from '../../support/shared-data';

/** Scratch folders inside the project (packages resolve from a bundle's folder up to node_modules). */
const scratchRoot = join(projectRoot, 'test-results', 'cli-bundle');

function scratchFolder(prefix: string): string {
  mkdirSync(scratchRoot, { recursive: true });
  return mkdtempSync(join(scratchRoot, prefix));
}

const made: string[] = [];
afterAll(() => {
  killAllAssay();
  for (const folder of made) rmSync(folder, { recursive: true, force: true });
});

describe('bundleState on a project of its own', { timeout: 30_000 }, () => {
  let root: string;
  let outdir: string;

  beforeAll(async () => {
    root = scratchFolder('project-');
    made.push(root);
    mkdirSync(join(root, 'src'));
    writeFileSync(
      join(root, 'src', 'entry.ts'),
      "import { unit } from './unit';\nexport const answer: string = `3.4 ${unit}`;\nexport const here = import.meta.url;\n",
    );
    writeFileSync(join(root, 'src', 'unit.ts'), "export const unit: string = 'eV';\n");
    outdir = join(root, 'out', 'cli');
    await buildCliBundle({ root, entry: 'src/entry.ts', outdir });
  });

  it('runs the bundled code, where import.meta.url is the source file', async () => {
    const bundle = (await import(pathToFileURL(join(outdir, 'main.js')).href)) as { answer: string; here: string };
    expect(bundle.answer).toBe('3.4 eV');
    expect(fileURLToPath(bundle.here)).toBe(join(root, 'src', 'entry.ts'));
  });

  it('lists every source and config file it was built from', () => {
    const manifest = JSON.parse(readFileSync(join(outdir, MANIFEST), 'utf8')) as { inputs: Record<string, unknown> };
    expect(Object.keys(manifest.inputs)).toEqual(['src/entry.ts', 'src/unit.ts']);
  });

  it('is fresh after the build and after a file is only touched, stale when a source changes or goes', () => {
    expect(bundleState(root, outdir)).toEqual({ fresh: true, main: join(outdir, 'main.js') });

    const later = new Date(Date.now() + 60_000);
    utimesSync(join(root, 'src', 'unit.ts'), later, later);
    expect(bundleState(root, outdir).fresh).toBe(true);

    // Same size, other content: only the hash tells.
    writeFileSync(join(root, 'src', 'unit.ts'), "export const unit: string = 'EV';\n");
    expect(bundleState(root, outdir)).toEqual({ fresh: false, reason: 'src/unit.ts changed since the CLI was built' });

    rmSync(join(root, 'src', 'unit.ts'));
    expect(bundleState(root, outdir)).toEqual({ fresh: false, reason: 'src/unit.ts is gone since the CLI was built' });

    expect(bundleState(root, join(root, 'nowhere'))).toEqual({ fresh: false, reason: 'no prebuilt CLI in nowhere' });
  });
});

/** `main(argv)` in this process: exit code, stdout and stderr. */
async function inProcess(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (stdout.push(String(chunk)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (stderr.push(String(chunk)), true));
  try {
    return { code: await main(argv), stdout: stdout.join(''), stderr: stderr.join('') };
  } finally {
    vi.restoreAllMocks();
  }
}

// Each case runs a child process or two (Chromium, tsx) on a shared machine: a time limit is not what they test.
describe('the real CLI, bundled', { timeout: 60_000 }, () => {
  let bundleDir: string;
  let papers: string;
  const bundled = { ASSAY_CLI: undefined, ASSAY_CLI_BUNDLE: '', ASSAY_CLI_TRACE: '1' };

  beforeAll(async () => {
    bundleDir = join(scratchFolder('real-'), 'cli');
    made.push(join(bundleDir, '..'));
    bundled.ASSAY_CLI_BUNDLE = bundleDir;
    await buildCliBundle({ outdir: bundleDir });
    papers = join(bundleDir, '..', 'papers');
    mkdirSync(papers);
    writeFileSync(
      join(papers, 'cdte.pdf'),
      minimalPdf({
        pages: [
          [
            { text: 'Absorption edge of CdTe thin films', x: 72, y: 720, size: 18 },
            { text: 'The optical band gap of CdTe is 1.5 eV, from the absorption edge of the films.', x: 72, y: 660 },
          ],
        ],
      }),
    );
    const methods =
      'Samples were grown by chemical vapour deposition on sapphire and annealed in nitrogen before the measurements were made. ';
    writeFileSync(
      join(papers, 'gan.txt'),
      `Optical properties of wurtzite GaN\n\nThe band gap of GaN is 3.4 eV at room temperature. ${methods}\n\nNanoindentation gives a bulk modulus of 210 GPa for GaN.\n`,
    );
  }, 60_000);

  /**
   * The bundle's answer to `argv`, checked to come from the bundle and to equal main()'s here
   * (`"seconds": …`, a time the estimate measures, left out).
   */
  async function expectSameAsSources(argv: string[]): Promise<string> {
    const run = await runAssay(argv, { env: bundled });
    expect(run.stderr).toContain(`assay: running the prebuilt CLI in ${bundleDir}`);
    const here = await inProcess(argv);
    const untimed = (stdout: string) => stdout.replace(/"seconds":[\d.e+-]+/g, '"seconds":0');
    expect({ code: run.code, stdout: untimed(run.stdout) }).toEqual({ code: here.code, stdout: untimed(here.stdout) });
    expect(run.stderr.replace(/^assay: running the prebuilt CLI in .*\n/, '')).toBe(here.stderr);
    return run.stdout;
  }

  it('prints the usage, and refuses an unknown command with exit 2', async () => {
    expect(await expectSameAsSources(['--help'])).toMatch(/^usage: assay <command>/);
    await expectSameAsSources(['no-such-command']);
  });

  it('captures a PDF with pdf.js', async () => {
    const stdout = await expectSameAsSources(['capture', join(papers, 'cdte.pdf'), '--json']);
    expect((JSON.parse(stdout) as { text: string }).text).toContain('The optical band gap of CdTe is 1.5 eV');
  });

  it("estimates a batch with Mistral's tokenizer (its package's CommonJS build, through createRequire)", async () => {
    const mistral = 'mistralai/Mistral-7B-Instruct-v0.3';
    const models = ['proposer', 'aggregator', 'generator', 'discriminator'].flatMap((role) => ['--model', `${role}=${mistral}`]);
    const stdout = await expectSameAsSources(['extract', join(papers, 'gan.txt'), '--estimate', ...models, '--json']);
    expect(JSON.parse(stdout)).toMatchObject({ papers: 1, readable: 1, tokens: 'exact' });
    expect((JSON.parse(stdout) as { promptTokens: { best: number } }).promptTokens.best).toBeGreaterThan(0);
  });

  it.skipIf(!existsSync(DEFAULT_CHROMIUM))(`judges hidden text in headless Chromium (${DEFAULT_CHROMIUM})`, async () => {
    const page = join(papers, 'variants.html');
    writeFileSync(page, hiddenVariantsPage('10.5555/hidden.bundle.1'));
    writeFileSync(join(papers, 'hidden-variants.css'), HIDDEN_VARIANTS_CSS);
    const stdout = await expectSameAsSources(['capture', page, '--json']);
    const article = JSON.parse(stdout) as { text: string; warnings: string[] };
    expect(article.text).toContain(CONTROL_FACT);
    // Judged in Chromium: no partial-check warning (the page script was bundled from its source).
    expect(article.warnings.join(' ')).not.toContain(PARTIAL_CHECK);
  });

  it('runs the sources, not a bundle whose source has changed since it was built', async () => {
    const manifestPath = join(bundleDir, MANIFEST);
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { inputs: Record<string, { size: number; sha256: string }> };
    const entry = manifest.inputs['src/cli/main.ts']!;
    // As if main.ts had been edited after the build: another size and hash on record.
    manifest.inputs['src/cli/main.ts'] = { ...entry, size: entry.size + 1, sha256: '0'.repeat(64) };
    writeFileSync(manifestPath, JSON.stringify(manifest));
    const run = await runAssay(['--help'], { env: bundled });
    expect(run.stderr).toBe('assay: running the sources with tsx (src/cli/main.ts changed since the CLI was built)\n');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe((await inProcess(['--help'])).stdout);
  });
});
