import { describe, expect, it } from 'vitest';
import { draftFromEngine, engineFromDraft, readEngineSettings } from '../../../../src/ui/shared/engine-form';
import { modelListText } from '../../../../src/llm/roster';
import { baseUrlProblem, DEFAULT_BASE_URL, originPattern, parseServerModelList } from '../../../../src/llm/engines/openai-engine-kind';

describe('parseServerModelList', () => {
  it('makes every bare id a proposer and lets the first play the other roles', () => {
    expect(parseServerModelList(' qwen2.5:7b, llama3.2:3b ,, ')).toEqual({
      ok: true,
      roster: { proposers: ['qwen2.5:7b', 'llama3.2:3b'], aggregator: 'qwen2.5:7b', generator: 'qwen2.5:7b', discriminator: 'qwen2.5:7b' },
    });
  });

  it('takes role=id for a named role', () => {
    expect(parseServerModelList('generator=llama3.1:8b, qwen2.5:7b, Aggregator = mistral, proposer=gemma2:9b')).toEqual({
      ok: true,
      roster: { proposers: ['qwen2.5:7b', 'gemma2:9b'], aggregator: 'mistral', generator: 'llama3.1:8b', discriminator: 'qwen2.5:7b' },
    });
  });

  it('refuses no proposer, an unknown role and an empty id', () => {
    expect(parseServerModelList(' , ')).toEqual({
      ok: false,
      message: 'Name at least one model, as your server lists it (e.g. qwen2.5:7b).',
    });
    expect(parseServerModelList('generator=llama3.1:8b').ok).toBe(false);
    expect(parseServerModelList('qwen, judge=llama')).toEqual({
      ok: false,
      message: 'Unknown role “judge”: use proposer, aggregator, generator or discriminator.',
    });
    expect(parseServerModelList('qwen, generator=')).toEqual({ ok: false, message: 'Give a model id after “generator=”.' });
  });

  it('round-trips through modelListText', () => {
    const roster = { proposers: ['a', 'b'], aggregator: 'a', generator: 'c', discriminator: 'a' };
    expect(modelListText(roster)).toBe('a, b, generator=c');
    expect(parseServerModelList(modelListText(roster))).toEqual({ ok: true, roster });
  });
});

describe('base URL and origin pattern', () => {
  it('accepts http(s) URLs only', () => {
    expect(baseUrlProblem(DEFAULT_BASE_URL)).toBeNull();
    expect(baseUrlProblem('https://models.example.org/v1')).toBeNull();
    expect(baseUrlProblem(' HTTP://127.0.0.1:8080 ')).toBeNull();
    expect(baseUrlProblem('127.0.0.1:11434')).toBe(`Start the address with http:// or https://, e.g. ${DEFAULT_BASE_URL}.`);
    expect(baseUrlProblem('localhost:11434/v1')).toBe(`Start the address with http:// or https://, e.g. ${DEFAULT_BASE_URL}.`);
    expect(baseUrlProblem('ftp://host/v1')).toBe(`Start the address with http:// or https://, e.g. ${DEFAULT_BASE_URL}.`);
    expect(baseUrlProblem('http://')).toBe(`Enter the server's address, e.g. ${DEFAULT_BASE_URL}.`);
    expect(baseUrlProblem('http://exa mple.org')).toBe(`Enter the server's address, e.g. ${DEFAULT_BASE_URL}.`);
  });

  it('gives the scheme, host and port with a /* path', () => {
    expect(originPattern('http://127.0.0.1:11434/v1')).toBe('http://127.0.0.1:11434/*');
    expect(originPattern('http://localhost:1234/v1/')).toBe('http://localhost:1234/*');
    expect(originPattern('https://models.example.org:443/v1')).toBe('https://models.example.org/*');
    expect(originPattern('http://[::1]:8000/v1')).toBe('http://[::1]:8000/*');
    expect(() => originPattern('not a url')).toThrow(TypeError);
  });
});

describe('engine drafts', () => {
  const server = {
    kind: 'openai' as const,
    baseUrl: 'http://127.0.0.1:1234/v1',
    apiKey: 'sk-1',
    roster: { proposers: ['a'], aggregator: 'a', generator: 'a', discriminator: 'a' },
  };

  it('round-trips WebLLM and server settings', () => {
    const webllm = { kind: 'webllm' as const, gpuBudgetMB: 3000 };
    expect(engineFromDraft(draftFromEngine(webllm))).toEqual({ ok: true, engine: webllm });
    expect(engineFromDraft(draftFromEngine(server))).toEqual({ ok: true, engine: server });
  });

  it('keeps the WebLLM settings while the server is edited, and drops a blank API key', () => {
    const draft = { ...draftFromEngine({ kind: 'webllm', gpuBudgetMB: 3000 }), kind: 'openai' as const, models: 'a', apiKey: '  ' };
    expect(engineFromDraft(draft)).toEqual({ ok: true, engine: { kind: 'openai', baseUrl: DEFAULT_BASE_URL, roster: server.roster } });
    expect(engineFromDraft({ ...draft, kind: 'webllm' })).toEqual({ ok: true, engine: { kind: 'webllm', gpuBudgetMB: 3000 } });
  });

  it('keeps the server’s parallel slots, drops a blank one and refuses anything but 1 to 64', () => {
    const parallel = { ...server, parallel: 4 };
    expect(draftFromEngine(parallel).parallel).toBe('4');
    expect(engineFromDraft(draftFromEngine(parallel))).toEqual({ ok: true, engine: parallel });
    expect(engineFromDraft({ ...draftFromEngine(parallel), parallel: ' ' })).toEqual({ ok: true, engine: server });
    for (const text of ['0', '2.5', 'four', '65', '-1']) {
      expect(engineFromDraft({ ...draftFromEngine(server), parallel: text })).toEqual({
        ok: false,
        errors: { parallel: 'Enter a whole number from 1 to 64, or leave it empty for one call at a time.' },
      });
    }
    // A stored value outside the range is not a valid setting.
    expect(readEngineSettings({ ...server, parallel: 0 })).toEqual({ kind: 'webllm' });
  });

  it('reports a problem per input', () => {
    const draft = { ...draftFromEngine(server), baseUrl: 'localhost:1234', models: '' };
    expect(engineFromDraft(draft)).toEqual({
      ok: false,
      errors: {
        baseUrl: `Start the address with http:// or https://, e.g. ${DEFAULT_BASE_URL}.`,
        models: 'Name at least one model, as your server lists it (e.g. qwen2.5:7b).',
      },
    });
  });
});

describe('readEngineSettings', () => {
  it('keeps a valid stored value and replaces anything else with WebLLM', () => {
    expect(readEngineSettings(JSON.parse(JSON.stringify(server())))).toEqual(server());
    expect(readEngineSettings(undefined)).toEqual({ kind: 'webllm' });
    expect(readEngineSettings({ kind: 'openai', baseUrl: 'file:///etc/passwd', roster: server().roster })).toEqual({ kind: 'webllm' });
    expect(readEngineSettings({ kind: 'ollama' })).toEqual({ kind: 'webllm' });
    expect(readEngineSettings('webllm')).toEqual({ kind: 'webllm' });
  });

  function server() {
    return {
      kind: 'openai' as const,
      baseUrl: 'http://localhost:11434/v1',
      roster: { proposers: ['q'], aggregator: 'q', generator: 'q', discriminator: 'q' },
    };
  }

  it('names WebLLM roles and the reader’s own model records, and says what is wrong with each', () => {
    const own = {
      model_id: 'my-qwen-q4f32',
      model: 'http://127.0.0.1:8000/model/resolve/main/',
      model_lib: 'http://127.0.0.1:8000/lib/qwen.wasm',
      vram_required_MB: 1000,
    };
    const run = { ...draftFromEngine({ kind: 'webllm' }), webllmModels: 'my-qwen-q4f32, generator=Llama-3.2-1B-Instruct-q4f32_1-MLC' };
    expect(engineFromDraft(run)).toEqual({
      ok: true,
      engine: {
        kind: 'webllm',
        roster: {
          proposers: ['my-qwen-q4f32'],
          aggregator: 'my-qwen-q4f32',
          generator: 'Llama-3.2-1B-Instruct-q4f32_1-MLC',
          discriminator: 'my-qwen-q4f32',
        },
      },
    });
    // Emptied: back to the default roster (no roster stored), other settings kept.
    const withBudget = {
      kind: 'webllm' as const,
      gpuBudgetMB: 3000,
      roster: { proposers: ['a'], aggregator: 'a', generator: 'a', discriminator: 'a' },
    };
    expect(engineFromDraft({ ...draftFromEngine(withBudget), webllmModels: ' ' })).toEqual({
      ok: true,
      engine: { kind: 'webllm', gpuBudgetMB: 3000 },
    });
    expect(engineFromDraft({ ...draftFromEngine(withBudget), webllmModels: 'generator=a' })).toEqual({
      ok: false,
      errors: { webllmModels: expect.stringMatching(/^Name at least one WebLLM model id/) },
    });

    const settings = draftFromEngine({ kind: 'webllm', gpuBudgetMB: 3000 }, 'settings');
    const saved = engineFromDraft({ ...settings, customModels: JSON.stringify([own]) }, 'settings');
    expect(saved).toEqual({ ok: true, engine: { kind: 'webllm', gpuBudgetMB: 3000, customModels: [own] } });
    // Shown again as the JSON it was saved from.
    expect(JSON.parse(draftFromEngine(saved.ok ? saved.engine : { kind: 'webllm' }, 'settings').customModels as string)).toEqual([own]);
    const problem = (text: string) => {
      const result = engineFromDraft({ ...settings, customModels: text }, 'settings');
      return result.ok ? 'accepted' : result.errors.customModels;
    };
    expect(problem('{"model_id": "x"')).toMatch(/^Not JSON \(/);
    expect(problem(JSON.stringify(own))).toBe('Give an array of model records, [{"model_id": …}, …], not a single value.');
    expect(problem(JSON.stringify([{ ...own, model_lib: 'http://models.example.org/qwen.wasm' }]))).toBe(
      'Model 1, model_lib: must be an https URL, or http on this machine (127.0.0.1, localhost or [::1]).',
    );
    expect(problem(JSON.stringify([own, { ...own, model_lib: 'https://example.org/lib.js' }]))).toBe(
      'Model 2, model_lib: must name a .wasm model library.',
    );
    expect(problem(JSON.stringify([own, own]))).toBe('each custom model needs its own model_id.');
    expect(engineFromDraft({ ...settings, customModels: '' }, 'settings')).toEqual({
      ok: true,
      engine: { kind: 'webllm', gpuBudgetMB: 3000 },
    });
  });
});
