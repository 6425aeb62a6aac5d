/**
 * `npx tsx test/e2e/parallel-calls-bench.ts [--json] [--latency-ms 1500] [--slots 1,4,default] [--page FILE]
 * [--schema NAME]…`: one paper through `assay extract --engine openai --preset browser` (a real
 * `assay` process) against the local OpenAI-compatible test server (test/e2e/openai-test-server.ts:
 * facts from each passage by `groundedFacts`, every call answered after a fixed latency, any number
 * at once), once per number of slots (`--concurrency N`: the server's parallel slots, issue 29,
 * item 5; `default`: no `--concurrency`, as before it: the engine's 2 calls in flight, a MoA
 * layer's proposers asked together and every other call one at a time). For each: the time from the start of the process to the first verdict (the first
 * property's `[ground]` progress line on stderr) and to the end, the pipeline's own time, the calls
 * and the most calls the server had in flight; and whether every run printed the same records as
 * the first (they must). Defaults: an RSC page of ../shared/fixtures and two properties.
 *
 * Timings depend on the machine; they belong here, not in a pass/fail test.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, request as forward } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { groundedFacts } from '../support/grounded-facts';
import { projectRoot, sharedPath } from '../support/shared-data';
import { startOpenAiTestServer } from './openai-test-server';

const { values } = parseArgs({
  options: {
    json: { type: 'boolean' },
    'latency-ms': { type: 'string', default: '1500' },
    slots: { type: 'string', default: '1,4,default' },
    page: { type: 'string' },
    schema: { type: 'string', multiple: true },
  },
});
const latencyMs = Number(values['latency-ms']);
const slotCounts = values.slots!.split(',').map((text) => (text === 'default' ? null : Number(text)));
const page = values.page ?? sharedPath('fixtures', 'rsc', 'cde2_curie__c1jm13879k.html');
const schemas = values.schema ?? ['band_gap', 'curie_temperature'];
if (!existsSync(page)) {
  process.stderr.write(`parallel-calls-bench: ${page} not found (a fixture page of ../shared)\n`);
  process.exit(1);
}
const log = (text: string): void => void process.stderr.write(`parallel-calls-bench: ${text}\n`);

interface Measured {
  /** null: no `--concurrency` (the default). */
  slots: number | null;
  firstVerdictSeconds: number | null;
  totalSeconds: number;
  pipelineSeconds: number;
  calls: number;
  /** Calls per stage of the run record (reading, moa, mcts, …). */
  stages: Record<string, number>;
  mostInFlight: number;
  verified: number;
  records: unknown[];
}

async function measure(baseUrl: string, slots: number | null, inFlight: { running: number; most: number }): Promise<Measured> {
  const models = ['proposer', 'aggregator', 'generator', 'discriminator'].flatMap((role) => ['--model', `${role}=bench-model`]);
  const args = [join(projectRoot, 'bin', 'assay.mjs'), 'extract', page, '--engine', 'openai', '--base-url', baseUrl, '--preset', 'browser'];
  args.push(...schemas.flatMap((schema) => ['--schema', schema]), ...models, '--no-browser', '--json');
  if (slots !== null) args.push('--concurrency', String(slots));
  inFlight.most = 0;
  const started = performance.now();
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let firstVerdict: number | null = null;
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    if (firstVerdict === null && /\[ground\]/.test(stderr)) firstVerdict = performance.now();
  });
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  const total = performance.now() - started;
  if (code !== 0) throw new Error(`assay extract exited ${code}: ${stderr.slice(-2000)}`);
  const output = JSON.parse(stdout) as {
    records: unknown[];
    run: { calls: number; milliseconds: number; counts: { verified: number }; usage: { byStage: Record<string, { calls: number }> } };
  };
  return {
    slots,
    firstVerdictSeconds: firstVerdict === null ? null : round((firstVerdict - started) / 1000),
    totalSeconds: round(total / 1000),
    pipelineSeconds: round(output.run.milliseconds / 1000),
    calls: output.run.calls,
    stages: Object.fromEntries(Object.entries(output.run.usage.byStage).map(([stage, totals]) => [stage, totals.calls])),
    mostInFlight: inFlight.most,
    verified: output.run.counts.verified,
    records: output.records,
  };
}

const round = (value: number): number => Math.round(value * 10) / 10;

const server = await startOpenAiTestServer(groundedFacts);
server.setDelay(latencyMs);
// The test server answers every request at once; a proxy in front of it counts how many are in flight.
const inFlight = { running: 0, most: 0 };
const tracking = await startTrackingProxy(server.baseUrl, inFlight);
try {
  const runs: Measured[] = [];
  for (const slots of slotCounts) {
    log(`${slots ?? 'default'} slot(s), ${latencyMs} ms a call…`);
    runs.push(await measure(tracking.baseUrl, slots, inFlight));
  }
  const reference = JSON.stringify(runs[0]!.records);
  const summary = {
    page: page.replace(`${projectRoot}/`, ''),
    schemas,
    latencyMs,
    runs: runs.map(({ records: _records, ...run }) => ({
      ...run,
      sameRecords: JSON.stringify(_records) === reference,
      speedUp: round(runs[0]!.totalSeconds / run.totalSeconds),
    })),
  };
  if (values.json) process.stdout.write(JSON.stringify(summary, null, 2) + '\n');
  else
    for (const run of summary.runs)
      process.stdout.write(
        `${run.slots ?? 'default'} slot(s): first verdict ${run.firstVerdictSeconds ?? '-'} s, total ${run.totalSeconds} s (pipeline ${run.pipelineSeconds} s), ` +
          `${run.calls} calls (${Object.entries(run.stages)
            .map(([stage, calls]) => `${stage} ${calls}`)
            .join(
              ', ',
            )}), at most ${run.mostInFlight} in flight, ${run.verified} verified, same records: ${run.sameRecords}, ×${run.speedUp}\n`,
      );
} finally {
  await tracking.close();
  await server.close();
}

/**
 * A pass-through HTTP proxy in front of the test server that counts the requests it holds at
 * once (`inFlight.most`): what a server with that many parallel slots would have been asked.
 */
async function startTrackingProxy(
  target: string,
  inFlight: { running: number; most: number },
): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const targetUrl = new URL(target);
  const proxy = createServer((incoming, outgoing) => {
    inFlight.running += 1;
    inFlight.most = Math.max(inFlight.most, inFlight.running);
    const upstream = forward(
      { host: targetUrl.hostname, port: targetUrl.port, path: incoming.url, method: incoming.method, headers: incoming.headers },
      (response) => {
        outgoing.writeHead(response.statusCode ?? 502, response.headers);
        response.pipe(outgoing);
        response.on('end', () => (inFlight.running -= 1));
      },
    );
    upstream.on('error', () => {
      inFlight.running -= 1;
      outgoing.destroy();
    });
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const { port } = proxy.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        proxy.closeAllConnections();
        proxy.close(() => resolve());
      }),
  };
}
