/**
 * `npx tsx test/e2e/batch-scale.ts [--json] [--latency-ms N] [--concurrency 1,4,16] [--data DIR]`:
 * the batch command (`assay extract <folder> --out FILE.jsonl`) over the 100 bandgap-200 dev
 * texts against the local OpenAI-compatible test server (test/e2e/openai-test-server.ts, facts
 * from each passage by `groundedFacts`, a fixed simulated latency per call), each run a real
 * `assay` process:
 *
 * - wall time at each concurrency, and the speed-up over the first;
 * - killed with SIGKILL once a third of the papers are done, then run again: are the output
 *   lines the same as the uninterrupted run's (rows saved at a fixed time, SOURCE_DATE_EPOCH)?
 * - two servers (`--base-url` twice), one of which starts answering HTTP 500 once half the papers
 *   are done: does the run finish every paper, with the same lines, and which server answered?
 *
 * Prints one JSON document with `--json`, else a few lines. Figures depend on the machine: the
 * pipeline's own work (retrieval, grounding) and the test server share its cores.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { groundedFacts } from '../support/grounded-facts';
import { projectRoot, sharedPath } from '../support/shared-data';
import { startOpenAiTestServer, type OpenAiTestServer } from './openai-test-server';

const { values } = parseArgs({
  options: {
    json: { type: 'boolean' },
    'latency-ms': { type: 'string', default: '250' },
    concurrency: { type: 'string', default: '1,4,16' },
    data: { type: 'string' },
  },
});
const latencyMs = Number(values['latency-ms']);
const concurrencies = values.concurrency!.split(',').map(Number);
const papers = values.data ? join(values.data, 'datasets', 'bandgap-200', 'text-pub') : sharedPath('datasets', 'bandgap-200', 'text-pub');
if (!existsSync(papers)) {
  process.stderr.write(`batch-scale: ${papers} not found (the bandgap-200 dev texts of ../shared)\n`);
  process.exit(1);
}
const work = mkdtempSync(join(tmpdir(), 'assay-batch-scale-'));
const log = (text: string): void => void process.stderr.write(`batch-scale: ${text}\n`);

interface Summary {
  papers: number;
  done: number;
  skipped: number;
  failed: number;
  triplets: number;
  seconds: number;
  calls: number;
}

function extract(out: string, baseUrls: readonly string[], concurrency: number, onLine?: (papersEnded: number) => void) {
  const args = [join(projectRoot, 'bin', 'assay.mjs'), 'extract', papers, '--out', out, '--engine', 'openai', '--schema', 'band_gap'];
  for (const url of baseUrls) args.push('--base-url', url);
  args.push('--concurrency', String(concurrency), '--json');
  const child = spawn(process.execPath, args, {
    env: { ...process.env, SOURCE_DATE_EPOCH: '1764028800' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let ended = 0;
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => {
    ended += (chunk.toString().match(/\] (done|failed) /g) ?? []).length;
    onLine?.(ended);
  });
  const started = performance.now();
  const exited = new Promise<{ code: number | null; signal: string | null; summary: Summary | null; wallSeconds: number }>((resolve) =>
    child.on('exit', (code, signal) =>
      resolve({
        code,
        signal,
        summary: stdout.trim() ? (JSON.parse(stdout) as Summary) : null,
        wallSeconds: (performance.now() - started) / 1000,
      }),
    ),
  );
  return { child, exited };
}

const sortedLines = (path: string): string[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .sort();
const sameLines = (a: string[], b: string[]): boolean => a.length === b.length && a.every((line, index) => line === b[index]);

const servers: OpenAiTestServer[] = [];
async function server(): Promise<OpenAiTestServer> {
  const started = await startOpenAiTestServer(groundedFacts);
  started.setDelay(latencyMs);
  servers.push(started);
  return started;
}

try {
  const main = await server();
  const runs: Array<{ concurrency: number; seconds: number; calls: number; triplets: number; done: number; speedUp: number }> = [];
  for (const concurrency of concurrencies) {
    log(`concurrency ${concurrency} …`);
    const { exited } = extract(join(work, `c${concurrency}.jsonl`), [main.baseUrl], concurrency);
    const { code, summary, wallSeconds } = await exited;
    if (code !== 0 || !summary) throw new Error(`concurrency ${concurrency} ended with ${code}`);
    runs.push({
      concurrency,
      seconds: Math.round(wallSeconds * 10) / 10,
      calls: summary.calls,
      triplets: summary.triplets,
      done: summary.done,
      speedUp: runs[0] ? Math.round((runs[0].seconds / wallSeconds) * 100) / 100 : 1,
    });
    log(`concurrency ${concurrency}: ${wallSeconds.toFixed(1)} s, ${summary.calls} calls, ${summary.triplets} triplets`);
  }
  const reference = sortedLines(join(work, `c${concurrencies.at(-1)}.jsonl`));
  const sameAcrossConcurrency = runs.every((run) => sameLines(sortedLines(join(work, `c${run.concurrency}.jsonl`)), reference));

  log('killed with SIGKILL part-way, then resumed …');
  const resumeConcurrency = Math.min(4, Math.max(...concurrencies));
  const killedOut = join(work, 'killed.jsonl');
  const first = extract(killedOut, [main.baseUrl], resumeConcurrency, (ended) => {
    if (ended >= 33) first.child.kill('SIGKILL');
  });
  const killed = await first.exited;
  const resumed = await extract(killedOut, [main.baseUrl], resumeConcurrency).exited;
  const resume = {
    killedBy: killed.signal,
    resumedExit: resumed.code,
    skipped: resumed.summary?.skipped ?? 0,
    redone: resumed.summary?.done ?? 0,
    sameLines: sameLines(sortedLines(killedOut), reference),
  };
  log(`resume: ${JSON.stringify(resume)}`);

  log('two servers, one failing half-way …');
  const [healthy, failing] = [await server(), await server()];
  const twoOut = join(work, 'two.jsonl');
  let failed = false;
  const two = await extract(twoOut, [healthy.baseUrl, failing.baseUrl], resumeConcurrency, (ended) => {
    if (!failed && ended >= 50) {
      failed = true;
      failing.setFailure(500);
    }
  }).exited;
  const twoServers = {
    exit: two.code,
    done: two.summary?.done ?? 0,
    failed: two.summary?.failed ?? 0,
    seconds: Math.round(two.wallSeconds * 10) / 10,
    answeredByHealthy: healthy.answered(),
    answeredByFailing: failing.answered(),
    sameLines: sameLines(sortedLines(twoOut), reference),
  };
  log(`two servers: ${JSON.stringify(twoServers)}`);

  const result = { papers: runs[0]?.done, latencyMs, runs, sameAcrossConcurrency, resume, twoServers };
  process.stdout.write(values.json ? JSON.stringify(result) + '\n' : JSON.stringify(result, null, 2) + '\n');
} finally {
  await Promise.all(servers.map((started) => started.close()));
  rmSync(work, { recursive: true, force: true });
}
