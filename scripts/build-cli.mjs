#!/usr/bin/env node
// Build the prebuilt CLI (dist/cli) that `assay` runs while it matches the sources: run by
// `npm install`/`npm ci` (postinstall) and by `npm run build:cli`. See bin/cli-bundle.mjs.
import { relative } from 'node:path';
import { PROJECT_ROOT, buildCliBundle } from '../bin/cli-bundle.mjs';

const started = performance.now();
try {
  const { outdir, inputs, bytes } = await buildCliBundle();
  process.stderr.write(
    `assay: built the CLI into ${relative(PROJECT_ROOT, outdir)} (${inputs} source files, ` +
      `${(bytes / 1e6).toFixed(1)} MB, ${Math.round(performance.now() - started)} ms)\n`,
  );
} catch (error) {
  process.stderr.write(`assay: the CLI bundle did not build: ${error instanceof Error ? error.message : error}\n`);
  for (const message of error?.errors ?? [])
    process.stderr.write(`  ${message.location?.file ?? ''}:${message.location?.line ?? ''} ${message.text}\n`);
  process.exitCode = 1;
}
