// pdfjs-dist ships no declarations for its worker module; `pdfjs-loader.ts` narrows it to
// `PdfjsWorkerModule` right after import.
declare module 'pdfjs-dist/legacy/build/pdf.worker.mjs' {
  export const WorkerMessageHandler: unknown;
}
