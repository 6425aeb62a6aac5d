/**
 * The offscreen `precedent-check` handler with fake literature clients and a fake engine: no
 * network, no model.
 */
import { describe, expect, it, vi } from 'vitest';
import type { EngineSettings } from '../../../src/contracts/matrix-run';
import { PrecedentCheckJsonSchema, ResponseSchemas, type RequestOf } from '../../../src/contracts/messages';
import { createPrecedentCheckHost, literatureClients, withoutEmptyOpenAlexKey } from '../../../src/extension/precedent-check-host';
import type { RunEngine } from '../../../src/extension/matrix-run-host';
import { LlmError } from '../../../src/llm/llm-port';
import { createScriptedLlm } from '../../../src/llm/scripted-llm';
import { parseReferenceTable } from '../../../src/precedent/reference-table';
import {
  LiteratureError,
  type LiteratureClient,
  type LiteratureRecord,
  type LiteratureSource,
} from '../../../src/precedent/literature/types';

const ENGINE: EngineSettings = {
  kind: 'openai',
  baseUrl: 'http://127.0.0.1:11434/v1',
  roster: { proposers: ['p'], aggregator: 'judge-model', generator: 'g', discriminator: 'd' },
};
const REQUEST: RequestOf<'precedent-check'> = {
  type: 'precedent-check',
  material: 'MgB2',
  property: 'tc',
  literature: { mailto: 'reader@example.org' },
  engine: ENGINE,
};
// A table without MgB2, so the local sources do not answer.
const TABLE = {
  name: 'supercon.csv',
  table: parseReferenceTable(['refno,material,property_name,property_value,property_unit', 'JLTP000001,Nb3Sn,tc,18,K', ''].join('\n')),
};

const MGB2_RECORD: LiteratureRecord = {
  source: 'crossref',
  doi: '10.1038/35065039',
  title: 'Superconductivity at 39 K in magnesium diboride',
  year: 2001,
  authors: ['Nagamatsu J'],
  abstract: 'We report that MgB2 becomes superconducting at 39 K, the highest Tc of a non-copper-oxide bulk material.',
  url: 'https://doi.org/10.1038/35065039',
};

function client(name: LiteratureSource, records: LiteratureRecord[] | LiteratureError): LiteratureClient {
  return {
    name,
    describeQuery: (query) => `${query.material} ${query.property}`,
    search: async () => {
      if (records instanceof LiteratureError) throw records;
      return { records, total: records.length };
    },
  };
}

const unreachable = (name: LiteratureSource) => client(name, new LiteratureError('unreachable', name, `could not reach ${name}`));

function fakeEngine(reply: string) {
  const llm = createScriptedLlm({ respond: () => reply });
  const dispose = vi.fn();
  const engine: RunEngine = { llm, models: { aggregator: 'judge-model' }, dispose };
  return { llm, dispose, createEngine: vi.fn(async (_settings: EngineSettings) => engine) };
}

function host(clients: LiteratureClient[], createEngine: (settings: EngineSettings) => Promise<RunEngine>, timeoutMs?: number) {
  return createPrecedentCheckHost({
    referenceTables: async () => [TABLE],
    dataset: async () => [],
    createEngine,
    clients: () => clients,
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
  });
}

describe('precedent-check in the offscreen document', () => {
  it('answers from a grounded literature abstract, judged by the roster aggregator, and disposes the engine', async () => {
    const reply = JSON.stringify({
      answer: 'Yes',
      values: [{ kind: 'Tc', value: 39, unit: 'K', sourceId: '10.1038/35065039', quote: 'MgB2 becomes superconducting at 39 K' }],
    });
    const engine = fakeEngine(reply);
    const answer = await host(
      [client('crossref', [MGB2_RECORD]), client('arxiv', []), client('openalex', [])],
      engine.createEngine,
    )(REQUEST);
    expect(ResponseSchemas['precedent-check'].safeParse(answer).success).toBe(true);
    if (!answer.ok) throw new Error(answer.failure.message);
    expect(answer.check.answer).toBe('Yes');
    expect(answer.check.values).toHaveLength(1);
    expect(answer.check.values[0]).toMatchObject({
      kind: 'Tc',
      value: 39,
      unit: 'K',
      reference: { doi: '10.1038/35065039', title: 'Superconductivity at 39 K in magnesium diboride', year: 2001 },
    });
    expect(answer.check.searched.find((entry) => entry.source === 'Crossref')).toMatchObject({ found: 1 });
    expect(engine.createEngine).toHaveBeenCalledTimes(1);
    expect(engine.createEngine.mock.calls[0]![0]).toEqual(ENGINE);
    expect(engine.llm.calls[0]!.request.model).toBe('judge-model');
    expect(engine.dispose).toHaveBeenCalledTimes(1);
  });

  it('drops a claim citing a DOI that was not retrieved, and answers Unknown', async () => {
    const reply = JSON.stringify({
      answer: 'Yes',
      values: [{ kind: 'Tc', value: 39, unit: 'K', sourceId: '10.9999/not-retrieved', quote: 'MgB2 becomes superconducting at 39 K' }],
    });
    const answer = await host(
      [client('crossref', [MGB2_RECORD]), client('arxiv', []), client('openalex', [])],
      fakeEngine(reply).createEngine,
    )(REQUEST);
    if (!answer.ok) throw new Error(answer.failure.message);
    expect(answer.check.answer).toBe('Unknown');
    expect(answer.check.values).toEqual([]);
    expect(answer.check.dropped).toHaveLength(1);
  });

  it('says only local sources were searched when every provider is unreachable, without building the engine', async () => {
    const engine = fakeEngine('{}');
    const answer = await host([unreachable('crossref'), unreachable('arxiv'), unreachable('openalex')], engine.createEngine)(REQUEST);
    if (!answer.ok) throw new Error(answer.failure.message);
    expect(answer.check.answer).toBe('Unknown');
    expect(answer.check.unknownBecause).toBe('No network: only local sources were searched.');
    expect(answer.check.searched.map((entry) => `${entry.source}: ${entry.note}`)).toEqual(
      expect.arrayContaining([
        'Crossref: unreachable — could not reach crossref',
        'arXiv: unreachable — could not reach arxiv',
        'OpenAlex: unreachable — could not reach openalex',
      ]),
    );
    expect(engine.createEngine).not.toHaveBeenCalled();
  });

  it('keeps the local answer and names the engine failure when the engine cannot be built — never a No', async () => {
    const createEngine = vi.fn(async (): Promise<RunEngine> => {
      throw new LlmError('no-webgpu', 'WebGPU is not available in this browser');
    });
    const answer = await host([client('crossref', [MGB2_RECORD]), client('arxiv', []), client('openalex', [])], createEngine)(REQUEST);
    if (!answer.ok) throw new Error(answer.failure.message);
    expect(answer.check.answer).toBe('Unknown');
    expect(answer.check.searched.at(-1)).toEqual({
      source: 'model engine',
      found: 0,
      note: 'failed — WebGPU is not available in this browser; the literature was not judged',
    });
    expect(answer.check.unknownBecause).toContain('model engine (failed — WebGPU is not available in this browser');
  });

  it('stops a search that outlives the timeout and answers from the local sources', async () => {
    const hanging: LiteratureClient = {
      name: 'crossref',
      describeQuery: () => 'MgB2',
      search: (_query, signal) =>
        new Promise((_resolve, reject) =>
          signal?.addEventListener('abort', () => reject(new LiteratureError('aborted', 'crossref', 'cancelled'))),
        ),
    };
    const answer = await host([hanging], fakeEngine('{}').createEngine, 20)(REQUEST);
    if (!answer.ok) throw new Error(answer.failure.message);
    expect(answer.check.answer).toBe('Unknown');
    expect(answer.check.searched.at(-1)).toEqual({ source: 'open literature', found: 0, note: 'stopped: no answer within 0.02 s' });
  });

  it('answers a failure in words when the local sources cannot be read', async () => {
    const answer = await createPrecedentCheckHost({
      referenceTables: async () => {
        throw new Error('database closed');
      },
      dataset: async () => [],
      createEngine: fakeEngine('{}').createEngine,
      clients: () => [],
    })(REQUEST);
    expect(answer).toEqual({
      ok: false,
      failure: { code: 'internal', message: 'Could not read your reference tables or dataset: database closed' },
    });
  });
});

describe('literature clients', () => {
  it('leaves an empty OpenAlex api_key out and keeps a given one', async () => {
    const urls: string[] = [];
    const fetch = withoutEmptyOpenAlexKey(async (input) => {
      urls.push(String(input));
      return new Response('');
    });
    await fetch('https://api.openalex.org/works?search=MgB2&api_key=&cursor=*');
    await fetch('https://api.openalex.org/works?search=MgB2&api_key=abc');
    expect(urls).toEqual(['https://api.openalex.org/works?search=MgB2&cursor=*', 'https://api.openalex.org/works?search=MgB2&api_key=abc']);
  });

  it('builds Crossref, arXiv and OpenAlex in that order', () => {
    expect(literatureClients({ mailto: 'reader@example.org', openAlexKey: 'k' }, globalThis.fetch).map((entry) => entry.name)).toEqual([
      'crossref',
      'arxiv',
      'openalex',
    ]);
  });
});

describe('PrecedentCheckJsonSchema', () => {
  it('refuses an answer outside Yes / No / Unknown and a value without a number', () => {
    const base = { answer: 'Unknown', values: [], sources: [], searched: [], dropped: [], related: [], phases: [] };
    expect(PrecedentCheckJsonSchema.safeParse(base).success).toBe(true);
    expect(PrecedentCheckJsonSchema.safeParse({ ...base, answer: 'Maybe' }).success).toBe(false);
    expect(
      PrecedentCheckJsonSchema.safeParse({
        ...base,
        values: [{ kind: 'Tc', value: '39', unit: 'K', reference: {}, quote: 'q', origin: 'crossref' }],
      }).success,
    ).toBe(false);
  });
});
