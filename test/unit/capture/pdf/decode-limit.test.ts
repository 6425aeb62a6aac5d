/**
 * Issue 27, item 4: a small PDF whose streams inflate to gigabytes took that much memory. With a
 * small budget, every way pdf.js decodes ends in `too-large`: the native inflater (a content
 * stream), its JavaScript decoders (XMP metadata, an ASCIIHex → Flate chain) and an encrypted
 * file. The real-size bomb in a real process is `test/unit/cli/pdf-bomb-process.test.ts`.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { capturePdfDocument } from '../../../../src/capture/capture-pdf-document';
import { PDF_DECODE_BUDGET_BYTES, pdfjsHasDecodeHook, withDecodeBudget } from '../../../../src/capture/pdf/decode-budget';
import { loadPdfjs } from '../../../../src/capture/pdf/pdfjs-loader';
import { bombPdf, type BombOptions } from '../../../support/hostile-pdf';
import { projectRoot } from '../../../support/shared-data';

const MiB = 1024 * 1024;

describe('the decode limit', () => {
  it('is installed in the pdf.js worker (npm install ran scripts/patch-pdfjs.mjs)', async () => {
    await loadPdfjs();
    expect(pdfjsHasDecodeHook()).toBe(true);
  });

  it('is patched in loudly: a worker without the expected lines fails the install, a patched one is left as it is', () => {
    const folder = mkdtempSync(join(tmpdir(), 'assay-patch-pdfjs-'));
    try {
      const script = join(projectRoot, 'scripts', 'patch-pdfjs.mjs');
      const other = join(folder, 'other-pdf.worker.mjs');
      writeFileSync(other, 'class DecodeStream {}\nexport { WorkerMessageHandler };\n');
      const refused = spawnSync(process.execPath, [script, other], { encoding: 'utf8' });
      expect(refused.status).toBe(1);
      expect(refused.stderr).toMatch(/not found once .* update scripts\/patch-pdfjs\.mjs/);
      const installed = createRequire(import.meta.url).resolve('pdfjs-dist/legacy/build/pdf.worker.mjs');
      const copy = join(folder, 'pdf.worker.mjs');
      copyFileSync(installed, copy);
      expect(spawnSync(process.execPath, [script, copy]).status).toBe(0);
      expect(readFileSync(copy, 'utf8')).toBe(readFileSync(installed, 'utf8'));
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it.each<[string, Omit<BombOptions, 'decodedBytes'>]>([
    ['a content stream (native inflater)', { where: 'content' }],
    ['the XMP metadata (JavaScript decoder)', { where: 'metadata' }],
    ['ASCIIHex over Flate', { hex: true }],
    ['an encrypted file (empty user password)', { encrypted: true }],
  ])('ends a bomb in %s with too-large', async (_name, options) => {
    // 64 MiB behind a 16 MiB budget: the test itself stays small.
    const error = await capturePdfDocument(bombPdf({ decodedBytes: 64 * MiB, ...options }), { decodeLimitBytes: 16 * MiB }).catch(
      (reason: unknown) => reason,
    );
    expect(error).toMatchObject({ code: 'too-large', message: expect.stringMatching(/decode to more than 16 MB/) });
  });

  it.each<[string, Omit<BombOptions, 'decodedBytes'>]>([
    ['a content stream', { where: 'content' }],
    ['the metadata', { where: 'metadata' }],
    ['an encrypted file', { encrypted: true }],
  ])('reads %s that decodes within the budget', async (_name, options) => {
    // 1 MiB of content counts about 8 MiB: it is read twice (text, drawing), each time as inflated
    // chunks, their joined copy and the page's two content streams joined (a 2 MiB buffer).
    const article = await capturePdfDocument(bombPdf({ decodedBytes: 1 * MiB, ...options }), { decodeLimitBytes: 16 * MiB });
    expect(article.text).toContain('The band gap of GaN is 3.4 eV.');
  });

  it('charges each document its own budget, one document at a time', async () => {
    const order: string[] = [];
    const first = withDecodeBudget(100, async (budget) => {
      order.push('first starts');
      await new Promise((resolve) => setTimeout(resolve, 20));
      budget.charge(60);
      order.push('first ends');
      return budget.used;
    });
    const second = withDecodeBudget(100, async (budget) => {
      order.push('second starts');
      budget.charge(60);
      return budget.used;
    });
    expect(await Promise.all([first, second])).toEqual([60, 60]);
    expect(order).toEqual(['first starts', 'first ends', 'second starts']);
    await expect(withDecodeBudget(100, async (budget) => budget.charge(101))).rejects.toThrow(RangeError);
  });

  it('gives up waiting for its turn when its signal aborts', async () => {
    let release!: () => void;
    const running = withDecodeBudget(100, () => new Promise<void>((resolve) => (release = resolve)));
    const controller = new AbortController();
    const waiting = withDecodeBudget(100, async () => 'read', controller.signal);
    const after = withDecodeBudget(100, async () => 'after');
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
    release();
    await running;
    await expect(after).resolves.toBe('after');
  });

  it('is 256 MiB by default', () => {
    expect(PDF_DECODE_BUDGET_BYTES).toBe(256 * MiB);
  });
});
