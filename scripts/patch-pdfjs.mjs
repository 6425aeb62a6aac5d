#!/usr/bin/env node
// Give pdf.js's worker a decode limit (run by `npm install`'s postinstall; safe to run again).
//
// Why a patch: pdf.js decodes a PDF's streams itself, with no limit, and keeps what it decodes: a
// 4.7 MB file whose Flate stream inflates to 4.5 GiB took 11.4 GB (issue 27, item 4). Every
// decoded byte passes through three places in `pdf.worker.mjs`: `DecodeStream.ensureBuffer` (the
// JavaScript decoders: Flate when the native one fails, LZW, RunLength, ASCII85/Hex, predictors;
// object streams, xref streams, metadata), `asyncGetBytesFromDecompressionStream` (the native
// `DecompressionStream` used for content streams, fonts and forms) and the JavaScript Brotli
// decoder. Images are not decoded at all (capture passes `maxImageSize: 0`). Checking the file's streams
// before pdf.js cannot bound it: an encrypted file's streams and filter chains
// (ASCIIHex → Flate, LZW) are only readable by decoding them as pdf.js does. So each place calls
// `globalThis.__assayPdfjsDecoded(bytes)` before it allocates; the hook, set only while
// `src/capture/pdf/decode-budget.ts` reads a document, throws once the document's budget is spent.
// Without the hook set the patched code does what it did before.
//
// The patch is anchored on exact lines of pdfjs-dist 5.6 and fails loudly when they are missing
// (a pdf.js upgrade), so the limit cannot silently disappear; `loadPdfjs` also refuses an
// unpatched worker.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const MARKER = 'globalThis.__assayPdfjsDecodeLimit = 1;';
const HOOK = 'globalThis.__assayPdfjsDecoded?.';

const edits = [
  {
    where: 'DecodeStream.ensureBuffer',
    anchor: '    const buffer2 = new Uint8Array(size);\n    buffer2.set(buffer);\n',
    // The whole new buffer counts: the old one is still held while it is copied.
    replacement: `    ${HOOK}(size);\n    const buffer2 = new Uint8Array(size);\n    buffer2.set(buffer);\n`,
  },
  {
    // pdf.js writes the whole compressed stream at once, and a native inflater turns one write
    // into all its output before anyone reads (1 MB in, 1 GB out). Written in 4 KiB slices, each
    // waiting for the reader, no more than ~4 MB (deflate's 1032:1) is made ahead of the count.
    where: 'the write into DecompressionStream',
    anchor:
      '      } = new DecompressionStream(name);\n      const writer = writable.getWriter();\n      await writer.ready;\n' +
      '      writer.write(bytes).then(async () => {\n        await writer.ready;\n        await writer.close();\n      }).catch(() => {});\n',
    replacement:
      '      } = new DecompressionStream(name);\n      const writer = writable.getWriter();\n      await writer.ready;\n' +
      '      (async () => {\n        for (let start = 0; start < bytes.length; start += 4096) {\n          await writer.ready;\n' +
      '          await writer.write(bytes.subarray(start, start + 4096));\n        }\n        await writer.ready;\n        await writer.close();\n      })().catch(() => {});\n',
  },
  {
    where: 'asyncGetBytesFromDecompressionStream',
    anchor:
      '      for await (const chunk of readable) {\n        chunks.push(chunk);\n        totalLength += chunk.byteLength;\n      }\n      const data = new Uint8Array(totalLength);\n',
    replacement:
      `      for await (const chunk of readable) {\n        ${HOOK}(chunk.byteLength);\n        chunks.push(chunk);\n        totalLength += chunk.byteLength;\n      }\n` +
      `      ${HOOK}(totalLength);\n      const data = new Uint8Array(totalLength);\n`,
  },
  {
    // Brotli where DecompressionStream lacks it (Node 20): pdf.js's JavaScript decoder, 16 KiB
    // chunks joined at the end.
    where: 'BrotliDecode',
    anchor: '      let chunk = new Int8Array(16384);\n',
    replacement: `      ${HOOK}(16384);\n      let chunk = new Int8Array(16384);\n`,
  },
  {
    where: 'BrotliDecode (joined output)',
    anchor: '    let result = new Int8Array(totalOutput);\n',
    replacement: `    ${HOOK}(totalOutput);\n    let result = new Int8Array(totalOutput);\n`,
  },
];

// The installed worker, or the file named on the command line.
const path = process.argv[2] ?? createRequire(import.meta.url).resolve('pdfjs-dist/legacy/build/pdf.worker.mjs');
let source = readFileSync(path, 'utf8');
if (source.includes(MARKER)) process.exit(0);
for (const edit of edits) {
  const count = source.split(edit.anchor).length - 1;
  if (count !== 1) {
    console.error(
      `patch-pdfjs: ${edit.where} not found once in ${path} (${count} matches): update scripts/patch-pdfjs.mjs for this pdf.js`,
    );
    process.exit(1);
  }
  source = source.replace(edit.anchor, () => edit.replacement);
}
source = source.replace('\nexport { WorkerMessageHandler };', `\n${MARKER}\nexport { WorkerMessageHandler };`);
if (!source.includes(MARKER)) {
  console.error(`patch-pdfjs: the export line of ${path} was not found: update scripts/patch-pdfjs.mjs for this pdf.js`);
  process.exit(1);
}
// Write beside and rename, so a test reading the worker at this moment sees the old or the new file.
writeFileSync(`${path}.assay-tmp`, source);
renameSync(`${path}.assay-tmp`, path);
