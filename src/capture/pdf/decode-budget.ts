/**
 * How much pdf.js may decode for one PDF. pdf.js inflates a document's streams itself and keeps
 * what it inflates, so a few megabytes of Flate data can take gigabytes (issue 27: a 4.7 MB file
 * inflating to 4.5 GiB peaked at 11.4 GB). `scripts/patch-pdfjs.mjs` (run by `npm install`) makes
 * the two places where pdf.js allocates decoded bytes call `globalThis.__assayPdfjsDecoded(bytes)`
 * first; `withDecodeBudget` sets that hook for the document being read and makes it throw once
 * the budget is spent, before the allocation.
 *
 * The hook is one global, so documents are read one at a time: pdf.js runs in the caller's thread
 * here (its "fake worker", in Node and in the extension's offscreen document alike), so reading two
 * at once was never faster, and one at a time lets every decoded byte be charged to its document.
 */

/**
 * Bytes of decoded stream data pdf.js may allocate for one document: 256 MiB. What counts is
 * each decode buffer's growth and each native-inflate chunk plus its joined copy, so live memory
 * stays near this figure. Images are never decoded (capture passes `maxImageSize: 0`), so this is
 * content streams (read twice: for text and for how it is drawn), fonts, object streams and
 * metadata: the 45 article PDFs in ../shared decode 0.6–25 MB each (25 MB: a 14-page arXiv
 * paper with vector plots), a tenth of this. Not the suggested 512 MiB: the command line
 * itself holds about 550 MB before reading (its TypeScript runtime, lexicons, pdf.js), and
 * the peak must stay under 1 GB (README, "A small PDF can use unbounded memory").
 */
export const PDF_DECODE_BUDGET_BYTES = 256 * 1024 * 1024;

interface DecodeHookScope {
  __assayPdfjsDecoded?: (bytes: number) => void;
  __assayPdfjsDecodeLimit?: number;
}

const scope = globalThis as DecodeHookScope;

/** The decoding charged to the document being read. */
export class DecodeBudget {
  /** Bytes charged so far. */
  used = 0;
  /** Set once a charge went over the limit; every later charge throws too. */
  exceeded = false;

  constructor(readonly limitBytes: number) {}

  /** Charge `bytes`; throws (before pdf.js allocates them) when they pass the limit. */
  readonly charge = (bytes: number): void => {
    if (!this.exceeded && this.used + bytes <= this.limitBytes) {
      this.used += bytes;
      return;
    }
    this.exceeded = true;
    throw new RangeError(`PDF decode budget of ${this.limitBytes} bytes spent`);
  };
}

/** True when the loaded pdf.js worker carries the patch's hooks (`scripts/patch-pdfjs.mjs`). */
export function pdfjsHasDecodeHook(): boolean {
  return scope.__assayPdfjsDecodeLimit === 1;
}

let queue: Promise<unknown> = Promise.resolve();

/**
 * Run `read` with a fresh `DecodeBudget` of `limitBytes` charged by pdf.js's decoders, after
 * any read already running has finished (one document at a time, see above). Resolves or
 * rejects as `read` does; rejects with `signal.reason` if `signal` aborts while waiting its
 * turn. The hook is removed when `read` settles.
 */
export function withDecodeBudget<T>(limitBytes: number, read: (budget: DecodeBudget) => Promise<T>, signal?: AbortSignal): Promise<T> {
  const previous = queue;
  const run = turn(previous, signal).then(async () => {
    const budget = new DecodeBudget(limitBytes);
    scope.__assayPdfjsDecoded = budget.charge;
    try {
      return await read(budget);
    } finally {
      if (scope.__assayPdfjsDecoded === budget.charge) delete scope.__assayPdfjsDecoded;
    }
  });
  // The next read waits for this one to finish, not for its own turn to be given up.
  queue = Promise.all([previous, run.catch(() => undefined)]);
  return run;
}

/** Resolves when `previous` settles; rejects with the reason when `signal` aborts first. */
function turn(previous: Promise<unknown>, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return previous.then(() => undefined);
  signal.throwIfAborted();
  return new Promise<void>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    void previous.then(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    });
  });
}
