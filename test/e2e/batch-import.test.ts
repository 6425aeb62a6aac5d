/**
 * End to end (issue 16): batch outputs go into the extension whole. The real `assay extract …
 * --out FILE.jsonl` runs as a child process on papers of the shared corpus twice: with the openai
 * engine against the local test server answering from each passage (`groundedFacts`: verified
 * rows), and with the rules engine on other pages (needs_review rows). Each file is imported in
 * Chromium through the dataset page's file chooser, as a reader does: every line is found in
 * IndexedDB with its fact, status, evidence, paper and run, the page counts them, and a second
 * import of the same files adds nothing.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatasetTriplet } from '../../src/contracts/dataset';
import { groundedFacts } from '../support/grounded-facts';
import { projectRoot, sharedDataSkipReason, sharedPath } from '../support/shared-data';
import { chromiumPath, launchExtensionBrowser } from './extension-browser';
import { readStore } from './extension-pages';
import { startOpenAiTestServer, type OpenAiTestServer } from './openai-test-server';

const skipReason = sharedDataSkipReason() ?? (existsSync(chromiumPath) ? undefined : `${chromiumPath} not found: skipping e2e tests`);
const extensionDirectory = join(projectRoot, '.output', 'chrome-mv3-test');

/**
 * The model batch: papers that state band gaps the rules find (so the grounded model server
 * states them too), with distinct DOIs: eight texts of bandgap-200 (one without a DOI in its
 * text, keyed by its URL) and two publisher pages (RSC, Wiley). Its rows come out verified.
 */
const MODEL_PAPERS = [
  ...[
    '11_10.1038_s41467-021-21203-6.txt',
    '14_10.1039_C7CP03960C.txt',
    '18_10.1088_0953-8984_27_11_115503.txt',
    '19_10.1088_1367-2630_16_6_065001.txt',
    '73_10.1016_j.mtcomm.2023.107183.txt',
    '7_10.1021_ic4018135.txt',
    '8_10.1038_nature09720.txt',
    '96_10.1039_C9NR04269E.txt',
  ].map((name) => sharedPath('datasets', 'bandgap-200', 'text-pub', name)),
  sharedPath('fixtures', 'rsc', 'cde2_curie__c1jm13879k.html'),
  sharedPath('fixtures', 'wiley', 'limesoup__101002admi201400532.html'),
];
const MODEL_ROLES = ['proposer', 'aggregator', 'generator', 'discriminator'].flatMap((role) => ['--model', `${role}=test-model`]);
/** The rules batch: four other publisher pages with Curie and Néel temperatures, lattice constants and a band gap; every row needs_review. */
const RULES_PAPERS = [
  sharedPath('fixtures', 'rsc', 'cde2_curie__c2nr11767c.html'),
  sharedPath('fixtures', 'aip', 'limesoup__Journal-of-Applied-Physics.10.1063-1.5023720.html'),
  sharedPath('fixtures', 'aip', 'limesoup__APL-Materials.10.1063-1.4986555.html'),
  sharedPath('fixtures', 'springer', 'limesoup__101007s11237-016-9437-y.html'),
];

/** One `assay extract … --out <name>` run: its exit status, outputs and the lines of its output file. */
interface Batch {
  name: string;
  code: number | null;
  stdout: string;
  stderr: string;
  lines: DatasetTriplet[];
}

/** Run `node bin/assay.mjs …args` from the project root; resolves to its exit status and outputs. */
function runAssay(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(projectRoot, 'bin', 'assay.mjs'), ...args], {
      cwd: projectRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** `assay extract <papers> --out <folder>/<name> --json …engineArgs` and the rows it wrote. */
async function runBatch(folder: string, name: string, papers: readonly string[], engineArgs: readonly string[]): Promise<Batch> {
  const out = join(folder, name);
  const run = await runAssay(['extract', ...papers, '--out', out, ...engineArgs, '--json']);
  const lines = existsSync(out)
    ? readFileSync(out, 'utf8')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as DatasetTriplet)
    : [];
  return { name, ...run, lines };
}

/** Import the file at `path` through the dataset page's Import control: a click opens the file chooser, the file is chosen in it. */
async function importThroughFileChooser(page: Page, path: string): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await page.getByTestId('import-file').click();
  await (await chooser).setFiles(path);
}

/** The fields of a row the import must keep as the file gave them. */
function factOf(row: DatasetTriplet) {
  return {
    mergeKey: row.mergeKey,
    material: row.material,
    property: row.property,
    value: row.value,
    unit: row.unit,
    status: row.status,
    quote: row.evidence?.quote.exact,
    doi: row.paper.doi,
    runId: row.runId,
  };
}

describe.skipIf(skipReason !== undefined)(skipReason ?? 'batch outputs imported in Chromium', () => {
  const folder = mkdtempSync(join(tmpdir(), 'assay-batch-import-'));
  let server: OpenAiTestServer;
  let batches: Batch[];
  const allLines = () => batches.flatMap((batch) => batch.lines);

  beforeAll(async () => {
    server = await startOpenAiTestServer(groundedFacts);
    const modelArgs = ['--engine', 'openai', '--base-url', server.baseUrl, ...MODEL_ROLES, '--preset', 'browser', '--schema', 'band_gap'];
    batches = [
      await runBatch(folder, 'model.jsonl', MODEL_PAPERS, modelArgs),
      await runBatch(folder, 'rules.jsonl', RULES_PAPERS, ['--engine', 'rules']),
    ];
  });
  afterAll(async () => {
    await server?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('writes every paper, one line per fact, as many lines as its summary says: verified rows from the model, needs_review from the rules', () => {
    const papers = { 'model.jsonl': MODEL_PAPERS.length, 'rules.jsonl': RULES_PAPERS.length };
    for (const batch of batches) {
      expect(batch.code, batch.stderr).toBe(0);
      const summary = JSON.parse(batch.stdout) as { done: number; failed: number; triplets: number };
      expect(summary).toMatchObject({ done: papers[batch.name as keyof typeof papers], failed: 0 });
      expect(summary.triplets).toBe(batch.lines.length);
      expect(batch.lines.length).toBeGreaterThanOrEqual(10);
    }
    expect(new Set(batches[0]!.lines.map((line) => line.status))).toContain('verified');
    expect(new Set(batches[1]!.lines.map((line) => line.status))).toEqual(new Set(['needs_review']));
    // The dataset holds one row per fact (the unique merge-key index): files meant for it repeat none.
    expect(new Set(allLines().map((line) => line.mergeKey)).size).toBe(allLines().length);
  });

  it('imports through the file chooser: every line is stored with its fact, evidence, paper and run, the page counts them, and a second import doubles nothing', async () => {
    const total = allLines().length;
    expect(total).toBeGreaterThanOrEqual(20);
    const browser = await launchExtensionBrowser(extensionDirectory, []);
    try {
      const page = await browser.context.newPage();
      await page.goto(browser.extensionUrl('dataset.html'));
      const summary = page.getByTestId('import-summary');
      for (const batch of batches) {
        await importThroughFileChooser(page, join(folder, batch.name));
        await summary.filter({ hasText: `${batch.name}: Added ${batch.lines.length}, merged 0; 0 problems` }).waitFor({ timeout: 60_000 });
      }

      const stored = await readStore<DatasetTriplet>(page, 'triplets');
      expect(stored).toHaveLength(total);
      for (const batch of batches) {
        const fromFile = new Map(stored.filter((row) => row.imported?.file === batch.name).map((row) => [row.imported!.sourceId, row]));
        expect(fromFile.size).toBe(batch.lines.length);
        for (const line of batch.lines) {
          const row = fromFile.get(line.id);
          expect(row, `no stored row imported from ${batch.name} line ${line.id}`).toBeDefined();
          expect(factOf(row!)).toEqual(factOf(line));
        }
      }
      const count = page.getByTestId('triplet-count');
      await count.filter({ hasText: `${total} of ${total} triplets` }).waitFor({ timeout: 30_000 });

      // The same files again: every line repeats a saved fact, so it merges and nothing is added.
      for (const batch of batches) {
        await importThroughFileChooser(page, join(folder, batch.name));
        await summary.filter({ hasText: `${batch.name}: Added 0, merged ${batch.lines.length}; 0 problems` }).waitFor({ timeout: 60_000 });
      }
      expect(await readStore(page, 'triplets')).toHaveLength(total);
      await count.filter({ hasText: `${total} of ${total} triplets` }).waitFor({ timeout: 30_000 });
    } finally {
      await browser.close();
    }
  });
});
