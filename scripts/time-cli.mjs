#!/usr/bin/env node
// Wall time of `node bin/assay.mjs <args>` (default `--help`) from spawn to exit, N runs each
// (default 10, after one unmeasured warm-up run), for the prebuilt CLI in dist/cli and for the
// sources under tsx (ASSAY_CLI=source): median, min and max in milliseconds.
//
//   node scripts/time-cli.mjs [--runs N] [--json] [-- ARGS…]
//
// The bundle must be fresh (`npm run build:cli`); a run that did not use the mode it was asked
// for is refused, so a stale bundle cannot pass for a fast one.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { PROJECT_ROOT } from '../bin/cli-bundle.mjs';

const separator = process.argv.indexOf('--');
const { values } = parseArgs({
  args: process.argv.slice(2, separator === -1 ? undefined : separator),
  options: { runs: { type: 'string', default: '10' }, json: { type: 'boolean', default: false } },
});
const args = separator === -1 ? ['--help'] : process.argv.slice(separator + 1);
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs takes a whole number of runs, 1 or more');

const modes = {
  bundle: { env: {}, says: /running the prebuilt CLI/ },
  source: { env: { ASSAY_CLI: 'source' }, says: /running the sources with tsx/ },
};

/** One spawn: milliseconds from spawn to exit; throws when it failed or ran the other mode. */
function once(mode) {
  const started = performance.now();
  const run = spawnSync(process.execPath, [join(PROJECT_ROOT, 'bin', 'assay.mjs'), ...args], {
    env: { ...process.env, ASSAY_CLI_BUNDLE: '', ...modes[mode].env, ASSAY_CLI_TRACE: '1' },
    encoding: 'utf8',
  });
  const ms = performance.now() - started;
  if (run.status !== 0) throw new Error(`assay ${args.join(' ')} exited with ${run.status}: ${run.stderr}`);
  if (!modes[mode].says.test(run.stderr)) throw new Error(`asked for the ${mode} but: ${run.stderr.trim()}`);
  return ms;
}

const figures = {};
for (const mode of Object.keys(modes)) {
  once(mode);
  const times = Array.from({ length: runs }, () => once(mode)).sort((a, b) => a - b);
  const middle = Math.floor(times.length / 2);
  const median = times.length % 2 ? times[middle] : (times[middle - 1] + times[middle]) / 2;
  figures[mode] = { runs, medianMs: Math.round(median), minMs: Math.round(times[0]), maxMs: Math.round(times.at(-1)) };
}
if (values.json) process.stdout.write(`${JSON.stringify({ args, node: process.version, figures })}\n`);
else
  for (const [mode, figure] of Object.entries(figures))
    process.stdout.write(`${mode}: median ${figure.medianMs} ms (min ${figure.minMs}, max ${figure.maxMs}) over ${figure.runs} runs\n`);
