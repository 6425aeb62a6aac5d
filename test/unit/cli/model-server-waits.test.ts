/**
 * `assay extract --engine openai` as a real process against model servers that never answer, that
 * send a byte now and then but never a whole answer, and that rate-limit with a long Retry-After
 * (issue 27, items 5 and 8): the command ends as soon as it has printed its result, with no call
 * left in flight or queued, and a long Retry-After is said on stderr and bounded by
 * `--rate-limit-wait`.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { killAllAssay, startAssay } from '../../support/assay-process';

type Behaviour = 'silent' | 'dribble' | 'rate-limit';

interface FakeServer {
  baseUrl: string;
  /** Chat requests received. */
  requests: () => number;
  close: () => Promise<void>;
}

/** A local server that answers every chat request with `behaviour`: nothing, a space every 200 ms, or 429 with Retry-After: 3600. */
async function startServer(behaviour: Behaviour): Promise<FakeServer> {
  let requests = 0;
  const open = new Set<ServerResponse>();
  const server: Server = createServer((request, response) => {
    request.resume();
    requests += 1;
    open.add(response);
    response.on('close', () => open.delete(response));
    if (behaviour === 'rate-limit') {
      response.writeHead(429, { 'content-type': 'application/json', 'retry-after': '3600' }).end('{"error":"rate limit"}');
    } else if (behaviour === 'dribble') {
      response.writeHead(200, { 'content-type': 'application/json' });
      const timer = setInterval(() => response.write(' '), 200);
      response.on('close', () => clearInterval(timer));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests: () => requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const PAPER =
  'Optical properties of GaN thin films\n\n' +
  'Thin films of GaN were deposited by sputtering on fused silica and annealed at 500 °C in air. ' +
  'The absorption edge was measured by UV–vis spectroscopy. From the Tauc plot, GaN has a band gap of 3.4 eV. ' +
  'The films are polycrystalline, and the grain size grows with the annealing temperature. '.repeat(2) +
  '\n';

const MODELS = ['--model', 'proposer=m', '--model', 'aggregator=m', '--model', 'generator=m', '--model', 'discriminator=m'];

let folder: string;
const servers: FakeServer[] = [];

beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'assay-model-waits-'));
  mkdirSync(join(folder, 'papers'));
  writeFileSync(join(folder, 'gan.txt'), PAPER);
  writeFileSync(join(folder, 'papers', 'a.txt'), PAPER);
  writeFileSync(join(folder, 'papers', 'b.txt'), PAPER.replace(/GaN/g, 'AlN'));
});
afterEach(async () => {
  killAllAssay();
  for (const server of servers.splice(0)) await server.close();
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

async function serve(behaviour: Behaviour): Promise<FakeServer> {
  const server = await startServer(behaviour);
  servers.push(server);
  return server;
}

describe('assay extract --engine openai against a server that never answers', () => {
  // The paper preset asks 3 proposers at once and 2 calls are in flight (the default): the third
  // waits in the queue. Before the fix the run printed its result at the first timeout, then sent
  // the queued call and lived for one more whole timeout (120 s by default; a batch, one per
  // queued call of each failed paper).
  it.each(['silent', 'dribble'] as const)(
    'exits at once after printing [timeout] (%s server)',
    async (behaviour) => {
      const server = await serve(behaviour);
      const run = startAssay(
        [
          'extract',
          'gan.txt',
          '--engine',
          'openai',
          '--base-url',
          server.baseUrl,
          '--timeout',
          '4',
          ...MODELS,
          '--schema',
          'band_gap',
          '--json',
        ],
        { cwd: folder },
      );
      const printed = await run.stderrMatch(/\[timeout\]; partial result printed/);
      const result = await run.exited;
      const lingered = performance.now() - printed;
      expect(result.timedOut).toBe(false);
      expect(result.code, result.stderr).toBe(1);
      expect(JSON.parse(result.stdout).run.interrupted.code).toBe('timeout');
      expect(lingered).toBeLessThan(2000);
    },
    120_000,
  );

  it('ends a batch right after its last paper failed', async () => {
    const server = await serve('silent');
    const run = startAssay(
      ['extract', 'papers', '--out', 'out.jsonl', '--engine', 'openai', '--base-url', server.baseUrl, '--timeout', '4', ...MODELS],
      { cwd: folder, env: { SOURCE_DATE_EPOCH: '1764028800' } },
    );
    const printed = await run.stderrMatch(/(\[timeout\][\s\S]*){2}/);
    const result = await run.exited;
    expect(result.timedOut).toBe(false);
    expect(result.code, result.stderr).toBe(3);
    expect(performance.now() - printed).toBeLessThan(2000);
  }, 120_000);
});

describe('assay extract --engine openai against a server that asks to wait an hour (429, Retry-After: 3600)', () => {
  it('says each wait on stderr and gives up with [rate-limited] after --rate-limit-wait', async () => {
    const server = await serve('rate-limit');
    const run = startAssay(
      [
        'extract',
        'gan.txt',
        '--engine',
        'openai',
        '--base-url',
        server.baseUrl,
        '--rate-limit-wait',
        '2',
        ...MODELS,
        '--schema',
        'band_gap',
        '--json',
      ],
      { cwd: folder },
    );
    const result = await run.exited;
    expect(result.timedOut).toBe(false);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toContain('assay: the server asks to wait 3600 s (rate limit); retrying in 2 s (attempt 2 of 2)\n');
    expect(result.stderr).toMatch(/gave up after waiting 2 s, the most allowed \(2 s\).* \[rate-limited\]; partial result printed\n/);
    expect(JSON.parse(result.stdout).run.interrupted.code).toBe('rate-limited');
  }, 120_000);

  it('refuses a --rate-limit-wait or --timeout that is not a number of seconds', async () => {
    const server = await serve('rate-limit');
    for (const [flag, value] of [
      ['--rate-limit-wait', 'soon'],
      ['--timeout', '0'],
    ] as const) {
      const result = await startAssay(['extract', 'gan.txt', '--engine', 'openai', '--base-url', server.baseUrl, flag, value, ...MODELS], {
        cwd: folder,
      }).exited;
      expect(result.code).toBe(2);
      expect(result.stderr.trim().split('\n')).toEqual([expect.stringContaining(`${flag} takes a number of seconds`)]);
    }
    expect(server.requests()).toBe(0);
  }, 120_000);
});
