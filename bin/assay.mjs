#!/usr/bin/env node
// The `assay` command. The CLI is TypeScript shared with the extension. `npm ci` bundles it
// into dist/cli (bin/cli-bundle.mjs), which starts in a fraction of the time tsx takes to compile
// it; when that bundle is missing or older than the sources (a source file changed since), tsx
// runs the sources directly, so `npx assay` is always the code in src/.
//
// ASSAY_CLI=source runs the sources even when the bundle is fresh; ASSAY_CLI_BUNDLE=DIR names
// another bundle folder (the tests build their own); ASSAY_CLI_TRACE=1 says on stderr which ran.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BUNDLE_DIR, PROJECT_ROOT, bundleState } from './cli-bundle.mjs';

const environment = process.env;
const bundleDir = resolve(PROJECT_ROOT, environment.ASSAY_CLI_BUNDLE || BUNDLE_DIR);
const state = environment.ASSAY_CLI === 'source' ? { fresh: false, reason: 'ASSAY_CLI=source' } : bundleState(PROJECT_ROOT, bundleDir);
const trace = (line) => environment.ASSAY_CLI_TRACE === '1' && process.stderr.write(`assay: ${line}\n`);

let main;
if (state.fresh) {
  try {
    ({ main } = await import(pathToFileURL(state.main).href));
    trace(`running the prebuilt CLI in ${bundleDir}`);
  } catch (error) {
    process.stderr.write(
      `assay: the prebuilt CLI in ${bundleDir} did not load (${error instanceof Error ? error.message : error}); ` +
        'running the sources (npm run build:cli rebuilds it)\n',
    );
  }
}
if (!main) {
  if (!state.fresh) trace(`running the sources with tsx (${state.reason})`);
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../src/cli/main.ts'));
}
process.exitCode = await main(process.argv.slice(2));
