/**
 * Issue 27, item 6: a value the model made up reached the batch's output as a `needs_review` row
 * that said nothing of why. The batch (`assay extract <folder> --out`, a real process, against a
 * local OpenAI-compatible server) now keeps the verdict's reasons on every row, and the gate sends a
 * value outside its property's plausible range to review with the range in words.
 */
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatasetTripletSchema } from '../../../../src/contracts/dataset';
import { startOpenAiTestServer, type OpenAiTestServer } from '../../../e2e/openai-test-server';
import { projectRoot } from '../../../support/shared-data';

const FILLER =
  'The films were grown by metal-organic chemical vapour deposition on c-plane sapphire, with a ' +
  'low-temperature buffer layer, and examined by X-ray diffraction and atomic force microscopy. ';

/** A model whose MoA proposers and aggregator state `stated` (a fact with its quote); the search path finds nothing. */
async function onePathServer(stated: {
  material: string;
  property: string;
  value: string;
  unit: string;
  quote: string;
}): Promise<{ baseUrl: string; close: () => Promise<void> }> {
  const fact = { ...stated, conditions: [], provenance: 'measured' };
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      // The adapter may ask what the server is (GET /api/version, /props, …): not a chat call.
      if (request.method !== 'POST') return void response.writeHead(404).end();
      const parsed = JSON.parse(body) as {
        model: string;
        response_format?: {
          json_schema?: { schema?: { properties?: Record<string, { items?: { properties?: { value?: { type?: string } } } }> } };
        };
      };
      const properties = parsed.response_format?.json_schema?.schema?.properties ?? {};
      const content =
        'final' in properties
          ? { text: 'No value in the passage.', materials: [], triplets: [], final: true }
          : properties.triplets?.items?.properties?.value?.type === 'string'
            ? { triplets: [fact] }
            : { triplets: [] };
      response.writeHead(200, { 'Content-Type': 'application/json' }).end(
        JSON.stringify({
          id: 'chatcmpl-1',
          object: 'chat.completion',
          model: parsed.model,
          choices: [{ index: 0, message: { role: 'assistant', content: JSON.stringify(content) }, finish_reason: 'stop' }],
          // A count no smaller than the prompt's: Assay takes a count below the prompt's real tokens for a cut prompt.
          usage: { prompt_tokens: Math.ceil(body.length / 4), completion_tokens: 10 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

let folder: string;
let madeUp: Awaited<ReturnType<typeof onePathServer>>;
let onePathHydride: Awaited<ReturnType<typeof onePathServer>>;
let agreeing: OpenAiTestServer;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'assay-row-reasons-'));
  mkdirSync(join(folder, 'gan'));
  writeFileSync(
    join(folder, 'gan', 'gan.txt'),
    `Optical properties of GaN thin films\n\n${FILLER}The band gap of GaN is 3.4 eV. ${FILLER}\n`,
  );
  mkdirSync(join(folder, 'hydride'));
  writeFileSync(
    join(folder, 'hydride', 'hydride.txt'),
    `Superconductivity in a compressed hydride\n\n${FILLER}The superconducting transition temperature of LaH10 is 350 K. ${FILLER}\n`,
  );
  mkdirSync(join(folder, 'niobate'));
  writeFileSync(
    join(folder, 'niobate', 'niobate.txt'),
    `Ferroelectric niobates\n\n${FILLER}The Curie temperature of LiNbO3 is 1,483 K. ${FILLER}\n`,
  );
  madeUp = await onePathServer({ material: 'GaN', property: 'band_gap', value: '99', unit: 'eV', quote: 'The band gap of GaN is 3.4 eV.' });
  onePathHydride = await onePathServer({
    material: 'LaH10',
    property: 'tc',
    value: '350',
    unit: 'K',
    quote: 'The superconducting transition temperature of LaH10 is 350 K.',
  });
  agreeing = await startOpenAiTestServer({
    material: 'LaH10',
    property: 'tc',
    value: 350,
    unit: 'K',
    quote: 'The superconducting transition temperature of LaH10 is 350 K.',
  });
});
afterAll(async () => {
  await madeUp?.close();
  await onePathHydride?.close();
  await agreeing?.close();
  rmSync(folder, { recursive: true, force: true });
});

/** `assay extract <papers> --out <out>` with the model server at `baseUrl`, or the rules engine when it is null. */
function batch(papers: string, out: string, baseUrl: string | null, schema: string): Promise<{ code: number | null; stderr: string }> {
  const engine = baseUrl === null ? ['--engine', 'rules'] : ['--engine', 'openai', '--base-url', baseUrl];
  const child = spawn(
    process.execPath,
    [join(projectRoot, 'bin', 'assay.mjs'), 'extract', papers, '--out', out, ...engine, '--schema', schema, '--json'],
    { cwd: folder, env: { ...process.env, SOURCE_DATE_EPOCH: '1764028800' }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stderr })));
}

const rows = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => DatasetTripletSchema.parse(JSON.parse(line)));

describe('assay extract <folder> --out keeps the reasons of every row', () => {
  it('a value no quote shows is written with the reason it was not grounded', async () => {
    const out = join(folder, 'gan.jsonl');
    const run = await batch('gan', out, madeUp.baseUrl, 'band_gap');
    expect(run.code, run.stderr).toBe(0);
    const [row, ...others] = rows(out);
    expect(others).toEqual([]);
    expect(row).toMatchObject({ material: 'GaN', value: { kind: 'number', value: 99 }, status: 'needs_review' });
    expect(row!.reasons).toEqual(
      expect.arrayContaining(['only the MoA path gave this triplet', 'not grounded: value 99 not in the quote']),
    );
  }, 120_000);

  it("a value outside the property's plausible range that one path gave keeps the range in words", async () => {
    const out = join(folder, 'hydride-one-path.jsonl');
    const run = await batch('hydride', out, onePathHydride.baseUrl, 'tc');
    expect(run.code, run.stderr).toBe(0);
    const [row] = rows(out);
    expect(row).toMatchObject({ material: 'LaH10', value: { kind: 'number', value: 350 }, status: 'needs_review' });
    expect(row!.reasons).toEqual(
      expect.arrayContaining([
        'only the MoA path gave this triplet',
        expect.stringContaining('350 K is outside the plausible range of the superconducting transition temperature, 0–300 K'),
      ]),
    );
  }, 120_000);

  it('a rules row whose number reads two ways says so', async () => {
    const out = join(folder, 'niobate.jsonl');
    const run = await batch('niobate', out, null, 'curie_temperature');
    expect(run.code, run.stderr).toBe(0);
    const [row] = rows(out);
    expect(row).toMatchObject({ material: 'LiNbO3', value: { kind: 'number', value: 1483 }, status: 'needs_review' });
    expect(row!.reasons).toEqual([
      '"1,483" is 1483 with a comma between thousands or 1.483 with a decimal comma, and the paper\'s other numbers do not say which: check the number',
    ]);
  }, 120_000);

  it("a value outside the property's plausible range goes to review with the range in words", async () => {
    const out = join(folder, 'hydride.jsonl');
    const run = await batch('hydride', out, agreeing.baseUrl, 'tc');
    expect(run.code, run.stderr).toBe(0);
    const [row] = rows(out);
    expect(row).toMatchObject({ material: 'LaH10', value: { kind: 'number', value: 350 }, status: 'needs_review' });
    expect(row!.reasons).toEqual(
      expect.arrayContaining([
        expect.stringContaining('350 K is outside the plausible range of the superconducting transition temperature, 0–300 K'),
      ]),
    );
  }, 120_000);
});
