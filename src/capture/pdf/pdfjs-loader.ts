/**
 * The one place that imports pdf.js, and the one place where Node and the browser differ.
 *
 * - Node (CLI, tests): nobody configures a worker, so `loadPdfjs()` imports the worker module
 *   itself and publishes it as `globalThis.pdfjsWorker`. pdf.js then runs its "fake worker" in
 *   the same thread (the documented way to run without a Worker) and never tries to resolve a
 *   `workerSrc` path, which is fragile under bundlers and test runners.
 * - Browser (extension pages): call `configurePdfjsWorker({ workerSrc })` (or `{ workerPort }`)
 *   once at start-up, before the first capture, so parsing runs off the UI thread. If the page
 *   forgets, the same-thread fallback above still works, only slower for the UI.
 *
 * The legacy build is used in both: it is the build pdf.js supports in Node, and it also runs in
 * current Chromium/Firefox.
 *
 * The same-thread worker is also what bounds pdf.js's memory: the decode limit
 * (`decode-budget.ts`) is a hook in this realm that the patched worker calls, so a worker run
 * elsewhere (`configurePdfjsWorker`) decodes without a limit. The extension configures none.
 */
import { pdfjsHasDecodeHook } from './decode-budget';
import type { PdfjsModule, PdfjsWorkerModule } from './pdfjs-types';

export interface PdfjsWorkerConfiguration {
  /** URL of `pdfjs-dist/legacy/build/pdf.worker.mjs` as served by the extension (e.g. a Vite `?url` import). */
  workerSrc?: string;
  /** An already started module Worker running that file (pdf.js reuses it for every document). */
  workerPort?: Worker;
}

let workerConfiguration: PdfjsWorkerConfiguration | null = null;
let modulePromise: Promise<PdfjsModule> | null = null;

/**
 * Tell pdf.js where its worker is (browser only). Must be called before the first
 * `loadPdfjs()`; later calls replace the setting for later loads.
 */
export function configurePdfjsWorker(configuration: PdfjsWorkerConfiguration): void {
  workerConfiguration = configuration;
  modulePromise = null;
}

/**
 * The pdf.js module, loaded once and configured: a real worker when `configurePdfjsWorker`
 * gave one, else the same-thread worker. Rejects if the package cannot be loaded, or if its
 * worker lacks the decode-limit patch (`scripts/patch-pdfjs.mjs`).
 */
export function loadPdfjs(): Promise<PdfjsModule> {
  modulePromise ??= importPdfjs(workerConfiguration);
  return modulePromise;
}

async function importPdfjs(configuration: PdfjsWorkerConfiguration | null): Promise<PdfjsModule> {
  const pdfjs = (await import('pdfjs-dist/legacy/build/pdf.mjs')) as unknown as PdfjsModule;
  if (configuration?.workerPort) {
    pdfjs.GlobalWorkerOptions.workerPort = configuration.workerPort;
  } else if (configuration?.workerSrc) {
    pdfjs.GlobalWorkerOptions.workerSrc = configuration.workerSrc;
  } else {
    const scope = globalThis as { pdfjsWorker?: PdfjsWorkerModule };
    scope.pdfjsWorker ??= (await import('pdfjs-dist/legacy/build/pdf.worker.mjs')) as unknown as PdfjsWorkerModule;
    if (!pdfjsHasDecodeHook()) {
      throw new Error(
        "pdf.js was installed without Assay's decode limit, so a small PDF could use unbounded memory: run npm install (its postinstall runs scripts/patch-pdfjs.mjs).",
      );
    }
  }
  return pdfjs;
}
