import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runExtract } from '../../../src/cli/extract-command';
import { EXIT_CANCELLED } from '../../../src/cli/extract-matrix';
import type { ChatMessage } from '../../../src/llm/llm-port';
import { ARTICLE_TEXT, BAND_GAP_SENTENCE, matrixScript } from '../matrix/pipeline-fixtures';
import type { ModelRole } from '../../../src/contracts/llm';

let stdout = '';
let stderr = '';
let folder = '';
let onStderr: (chunk: string) => void = () => {};

beforeEach(() => {
  stdout = '';
  stderr = '';
  onStderr = () => {};
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((stdout += String(chunk)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    stderr += String(chunk);
    onStderr(String(chunk));
    return true;
  });
  folder = mkdtempSync(join(tmpdir(), 'assay-engines-'));
  writeFileSync(join(folder, 'gan.txt'), ARTICLE_TEXT);
});

afterEach(() => {
  vi.restoreAllMocks();
});

const gapTriplet = { material: 'GaN', property: 'band_gap', unit: 'eV', quote: BAND_GAP_SENTENCE };
const SCRIPT = {
  fallback: {
    proposer: { triplets: [{ ...gapTriplet, value: '3.4' }] },
    aggregator: { triplets: [{ ...gapTriplet, value: '3.4' }] },
    generator: { text: 'Found the band gap of GaN.', materials: ['GaN'], triplets: [{ ...gapTriplet, value: 3.4 }], final: true },
    discriminator: { triplets: [{ ...gapTriplet, value: 3.4 }] },
  },
  bySchema: {
    verification_answers: {
      facts: [
        {
          fact: 1,
          property_match: { answer: 'yes', quote: 'The band gap of GaN is 3.4 eV' },
          origin: { answer: 'not stated', quote: '' },
          phase: { answer: 'not stated', quote: '' },
          conditions: { answer: 'room temperature', quote: 'at room temperature' },
        },
      ],
    },
  },
};

function writeScript(script: unknown): string {
  const path = join(folder, 'script.json');
  writeFileSync(path, JSON.stringify(script));
  return path;
}

describe('assay extract --engine scripted', () => {
  it('runs the whole pipeline from a script file and prints { triplets, records, run }', async () => {
    const code = await runExtract([
      join(folder, 'gan.txt'),
      '--engine',
      'scripted',
      '--script',
      writeScript(SCRIPT),
      '--schema',
      'band_gap',
      '--json',
    ]);
    expect(code).toBe(0);
    const output = JSON.parse(stdout);
    expect(Object.keys(output).sort()).toEqual(['records', 'run', 'triplets']);
    expect(
      output.triplets.map((triplet: { material: string; valueText: string; unit: string; status: string }) => [
        triplet.material,
        triplet.valueText,
        triplet.unit,
        triplet.status,
      ]),
    ).toEqual([['GaN', '3.4', 'eV', 'verified']]);
    expect(output.records).toHaveLength(1);
    expect(output.records[0]).toMatchObject({ status: 'verified', votes: ['moa', 'gd'], reasons: [] });
    expect(output.records[0].verificationAnswers[3]).toEqual({
      questionId: 'conditions',
      question: expect.stringContaining('Under which conditions'),
      answer: 'room temperature',
      quote: 'at room temperature',
    });
    // Paper preset by default: 10 MoA + 5 generator + 3 discriminator calls (see pipeline.test.ts)
    // + 1 verification-question call.
    expect(output.run).toMatchObject({
      engine: 'slm-matrix',
      llmEngine: 'scripted',
      calls: 19,
      seed: 1,
      counts: { verified: 1, needs_review: 0, rejected: 0 },
    });
    expect(output.run.preset.name).toBe('paper');
    expect(stderr).toContain('assay extract: [moa] band_gap 10/10\n');
    expect(stderr).toContain('assay extract: [ground] band_gap 1/1\n');
  });

  it('rejects a script that is not valid and a missing --script', async () => {
    expect(await runExtract([join(folder, 'gan.txt'), '--engine', 'scripted'])).toBe(2);
    expect(stderr).toContain('--engine scripted needs --script FILE');
    stderr = '';
    expect(await runExtract([join(folder, 'gan.txt'), '--engine', 'scripted', '--script', writeScript({ replies: { oracle: [] } })])).toBe(
      2,
    );
    expect(stderr).toMatch(/^assay extract: script .*script\.json is invalid: /);
  });

  it('reports a lost device with the partial result (exit 1)', async () => {
    const script = { ...SCRIPT, failAt: { '19': { code: 'device-lost', message: 'the GPU device was lost' } } };
    const code = await runExtract([
      join(folder, 'gan.txt'),
      '--engine',
      'scripted',
      '--script',
      writeScript(script),
      '--schema',
      'band_gap,bulk_modulus',
      '--json',
    ]);
    expect(code).toBe(1);
    const output = JSON.parse(stdout);
    expect(output.triplets.map((triplet: { property: string }) => triplet.property)).toEqual(['band_gap']);
    expect(output.run.interrupted).toEqual({ code: 'device-lost', message: 'the GPU device was lost' });
    expect(stderr).toContain('assay extract: stopped: the GPU device was lost [device-lost]; partial result printed\n');
  });

  it('stops on Ctrl-C (SIGINT) and prints the partial result (exit 130)', async () => {
    // band_gap's calls all succeed; the interrupt comes at bulk_modulus's first MoA progress event.
    onStderr = (chunk) => {
      if (chunk.startsWith('assay extract: [moa] bulk_modulus 1/')) process.emit('SIGINT');
    };
    const script = { ...SCRIPT, delayMs: 1 };
    const code = await runExtract([
      join(folder, 'gan.txt'),
      '--engine',
      'scripted',
      '--script',
      writeScript(script),
      '--schema',
      'band_gap,bulk_modulus',
      '--json',
    ]);
    expect(code).toBe(EXIT_CANCELLED);
    const output = JSON.parse(stdout);
    expect(output.triplets.map((triplet: { property: string }) => triplet.property)).toEqual(['band_gap']);
    expect(output.run.interrupted.code).toBe('aborted');
    expect(stderr).toContain('assay extract: cancelled:');
    expect(process.listenerCount('SIGINT')).toBe(0);
  });
});

describe('assay extract --engine openai', () => {
  let server: Server;
  let received: Array<{ model: string; authorization?: string; temperature?: number; responseFormat?: unknown }> = [];

  const ROLE_OF_MODEL: Record<string, ModelRole> = {
    'prop-a': 'proposer',
    'prop-b': 'proposer',
    'prop-c': 'proposer',
    agg: 'aggregator',
    gen: 'generator',
    disc: 'discriminator',
  };

  async function body(request: IncomingMessage): Promise<string> {
    let text = '';
    for await (const chunk of request) text += String(chunk);
    return text;
  }

  beforeEach(async () => {
    received = [];
    const script = matrixScript();
    server = createServer(async (request, response) => {
      // The adapter may ask what the server is (GET /api/version, /props, …): not a chat call.
      if (request.method !== 'POST') return void response.writeHead(404).end();
      const parsed = JSON.parse(await body(request)) as {
        model: string;
        messages: ChatMessage[];
        temperature?: number;
        response_format?: unknown;
      };
      received.push({
        model: parsed.model,
        ...(request.headers.authorization ? { authorization: request.headers.authorization } : {}),
        ...(parsed.temperature === undefined ? {} : { temperature: parsed.temperature }),
        responseFormat: parsed.response_format,
      });
      const role = ROLE_OF_MODEL[parsed.model];
      if (request.url !== '/v1/chat/completions' || !role) {
        response.writeHead(404).end(JSON.stringify({ error: `no model ${parsed.model}` }));
        return;
      }
      const format = parsed.response_format as { json_schema?: { name: string; schema: Record<string, unknown> } } | undefined;
      const content = await script.respond!(
        { role, messages: parsed.messages, ...(format?.json_schema ? { jsonSchema: format.json_schema } : {}) },
        received.length - 1,
      );
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          model: parsed.model,
          choices: [{ message: { role: 'assistant', content }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 100, completion_tokens: 20 },
        }),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });

  afterEach(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('runs the pipeline against an OpenAI-compatible server, one model per role, with the key from the environment', async () => {
    const { port } = server.address() as AddressInfo;
    vi.stubEnv('ASSAY_TEST_KEY', 'secret-token');
    const models = [
      'proposer=prop-a',
      'proposer=prop-b',
      'proposer=prop-c',
      'aggregator=agg',
      'generator=gen',
      'discriminator=disc',
    ].flatMap((value) => ['--model', value]);
    const code = await runExtract([
      join(folder, 'gan.txt'),
      '--engine',
      'openai',
      '--base-url',
      `http://127.0.0.1:${port}/v1`,
      '--api-key-env',
      'ASSAY_TEST_KEY',
      ...models,
      '--preset',
      'browser',
      '--schema',
      'band_gap',
      '--schema',
      'bulk_modulus',
      '--json',
    ]);
    vi.unstubAllEnvs();
    expect(stderr).not.toContain('stopped');
    expect(code).toBe(0);
    const output = JSON.parse(stdout);
    expect(
      output.triplets.map((triplet: { property: string; valueText: string; status: string }) => [
        triplet.property,
        triplet.valueText,
        triplet.status,
      ]),
    ).toEqual([
      ['band_gap', '3.4', 'verified'],
      ['bulk_modulus', '210', 'verified'],
    ]);
    // Browser preset, unanimous proposers that ground: the early exit leaves 3 proposers + 1
    // aggregator per property, and the discriminator answers the verified triplet's questions.
    const perProperty = ['prop-a', 'prop-b', 'prop-c', 'agg', 'disc'];
    expect(received.map((call) => call.model)).toEqual([...perProperty, ...perProperty]);
    expect(received.every((call) => call.authorization === 'Bearer secret-token')).toBe(true);
    // Extraction samples at the preset's 0.7; a check does not sample (temperature 0, as in Eunomia).
    expect(received.map((call) => call.temperature)).toEqual([0.7, 0.7, 0.7, 0.7, 0, 0.7, 0.7, 0.7, 0.7, 0]);
    expect(received[0]!.responseFormat).toMatchObject({ type: 'json_schema' });
    expect(received[4]!.responseFormat).toMatchObject({ type: 'json_schema', json_schema: { name: 'verification_answers' } });
    expect(output.run).toMatchObject({ llmEngine: 'openai', calls: 10, promptTokens: 1000, completionTokens: 200 });
    expect(output.run.models).toEqual({
      proposers: ['prop-a', 'prop-b', 'prop-c'],
      aggregator: 'agg',
      generator: 'gen',
      discriminator: 'disc',
    });
    expect(output.run.usage.byModel['prop-b']).toMatchObject({ calls: 2, promptTokens: 200 });
    // One server: no pool, and the run record has no server fields.
    expect(output.run.usage.byServer).toBeUndefined();
    expect(output.run.usage.callLog).toBeUndefined();
  });

  it('refuses to send the --api-key-env key over plain http to another machine, in one line (exit 2), calling nothing', async () => {
    vi.stubEnv('ASSAY_TEST_KEY', 'secret-token');
    const code = await runExtract([
      join(folder, 'gan.txt'),
      '--engine',
      'openai',
      '--base-url',
      'http://models.example.org/v1',
      '--api-key-env',
      'ASSAY_TEST_KEY',
      '--preset',
      'paper',
    ]);
    vi.unstubAllEnvs();
    expect(code).toBe(2);
    expect(stderr).toBe(
      "assay extract: Assay will not send your API key to http://models.example.org over plain http, where anyone on the network could read it: use the server's https address, or leave the key empty for a server that needs none.\n",
    );
    expect(stderr).not.toContain('secret-token');
    expect(received).toEqual([]);
  });

  it('refuses to run with a role that has no model', async () => {
    const { port } = server.address() as AddressInfo;
    const code = await runExtract([
      join(folder, 'gan.txt'),
      '--engine',
      'openai',
      '--base-url',
      `http://127.0.0.1:${port}/v1`,
      '--preset',
      'browser',
      '--model',
      'proposer=prop-a',
    ]);
    expect(code).toBe(2);
    expect(stderr).toBe(
      "assay extract: no model for aggregator, generator, discriminator: pass --model ROLE=ID for each, or --preset paper for the paper's models\n",
    );
    expect(received).toEqual([]);
  });
});

describe('assay extract --engine openai with --base-url given more than once', () => {
  const servers: Server[] = [];
  const models = ['proposer=prop', 'aggregator=agg', 'generator=gen', 'discriminator=disc'].flatMap((value) => ['--model', value]);
  const ROLE_OF_MODEL: Record<string, ModelRole> = { prop: 'proposer', agg: 'aggregator', gen: 'generator', disc: 'discriminator' };

  /** A chat-completions server answering from one shared script, or with HTTP 500 when `fails(n)` for its n-th request. */
  async function startServer(
    script: ReturnType<typeof matrixScript>,
    fails: (index: number) => boolean,
  ): Promise<{ url: string; calls: () => number }> {
    let calls = 0;
    const server = createServer(async (request, response) => {
      let text = '';
      for await (const chunk of request) text += String(chunk);
      // The adapter may ask what the server is (GET /api/version, /props, …): not a chat call.
      if (request.method !== 'POST') return void response.writeHead(404).end();
      const index = calls++;
      if (fails(index)) {
        response.writeHead(500).end('model runner crashed');
        return;
      }
      const parsed = JSON.parse(text) as {
        model: string;
        messages: ChatMessage[];
        response_format?: { json_schema?: { name: string; schema: Record<string, unknown> } };
      };
      const format = parsed.response_format?.json_schema;
      const content = await script.respond!(
        { role: ROLE_OF_MODEL[parsed.model]!, messages: parsed.messages, ...(format ? { jsonSchema: format } : {}) },
        index,
      );
      response.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          model: parsed.model,
          choices: [{ message: { content }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 100, completion_tokens: 20 },
        }),
      );
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, calls: () => calls };
  }

  afterEach(async () => {
    for (const server of servers.splice(0)) await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('spreads the calls over the servers, moves those of a failing one to the other, and records who answered each', async () => {
    const script = matrixScript();
    const healthy = await startServer(script, () => false);
    const failing = await startServer(script, (index) => index >= 1);
    const code = await runExtract([
      join(folder, 'gan.txt'),
      '--engine',
      'openai',
      '--base-url',
      healthy.url,
      '--base-url',
      failing.url,
      ...models,
      '--preset',
      'browser',
      '--schema',
      'band_gap',
      '--json',
    ]);
    expect(code).toBe(0);
    const output = JSON.parse(stdout);
    expect(output.triplets.map((triplet: { valueText: string; status: string }) => [triplet.valueText, triplet.status])).toEqual([
      ['3.4', 'verified'],
    ]);
    const { byServer, callLog } = output.run.usage;
    expect(byServer[failing.url]).toMatchObject({ calls: 1, failedCalls: 0 });
    expect(byServer[healthy.url].calls).toBe(output.run.calls - 1);
    expect(callLog).toHaveLength(output.run.calls);
    expect(callLog.filter((call: { server: string }) => call.server === failing.url)).toHaveLength(1);
    expect(callLog.every((call: { failed: boolean }) => !call.failed)).toBe(true);
    expect(failing.calls()).toBe(2); // one answer, then the 500 that put it down
    expect(stderr).toContain(
      `assay: model server ${failing.url} is down for 1 s after 1 failure (HTTP 500 from ${failing.url}/chat/completions`,
    );
  });

  it('checks every --base-url before sending a key, and refuses a server named twice (exit 2)', async () => {
    vi.stubEnv('ASSAY_TEST_KEY', 'secret-token');
    const base = [join(folder, 'gan.txt'), '--engine', 'openai', ...models, '--preset', 'browser'];
    expect(
      await runExtract([
        ...base,
        '--base-url',
        'http://127.0.0.1:9/v1',
        '--base-url',
        'http://models.example.org/v1',
        '--api-key-env',
        'ASSAY_TEST_KEY',
      ]),
    ).toBe(2);
    vi.unstubAllEnvs();
    expect(stderr).toMatch(/^assay extract: Assay will not send your API key to http:\/\/models\.example\.org over plain http/);
    stderr = '';
    expect(await runExtract([...base, '--base-url', 'http://127.0.0.1:9/v1', '--base-url', 'http://127.0.0.1:9/v1'])).toBe(2);
    expect(stderr).toBe('assay extract: --base-url http://127.0.0.1:9/v1 is given twice; name each server once\n');
  });
});
