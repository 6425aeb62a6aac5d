/**
 * The built service worker stays small and free of pdf.js (issue 15). A service worker cannot
 * `import()` later, so all it might run is bundled into `background.js` and parsed at each start
 * of the worker; PDFs are read in the offscreen document instead (src/extension/capture-pdf-tab.ts).
 * The dependency-cruiser rule `no-pdfjs-in-background` (npm run lint) guards the import graph;
 * this guards the built file, which the bundler's settings could change without a new import.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../support/shared-data';

const backgroundFile = join(projectRoot, '.output', 'chrome-mv3-test', 'background.js');
const skipReason = existsSync(backgroundFile) ? undefined : `${backgroundFile} not built: run \`npm run build:test\` first`;

/**
 * Largest background.js allowed: 512 KiB = 524 288 bytes, about twice the 276 KB it measured
 * once pdf.js left it (2.11 MB with pdf.js). Room for new handlers, not for another library of
 * pdf.js's size (1.7 MB) or WebLLM's.
 */
const BACKGROUND_BUDGET_BYTES = 512 * 1024;

/**
 * Names that survive minification and occur only in pdf.js: its display API's worker settings
 * (`pdf.mjs`) and a parser error of its worker module (`pdf.worker.mjs`).
 */
const PDFJS_MARKERS = ['GlobalWorkerOptions', 'Invalid PDF structure'];

describe.skipIf(skipReason !== undefined)(skipReason ?? 'the built background service worker', () => {
  it(`is at most ${BACKGROUND_BUDGET_BYTES / 1024} KiB`, () => {
    expect(statSync(backgroundFile).size).toBeLessThanOrEqual(BACKGROUND_BUDGET_BYTES);
  });

  it('holds no pdf.js', () => {
    const code = readFileSync(backgroundFile, 'utf8');
    expect(PDFJS_MARKERS.filter((marker) => code.includes(marker))).toEqual([]);
  });
});
