import { describe, expect, it } from 'vitest';
import {
  baseUrlProblem,
  DEFAULT_BASE_URL,
  draftFromEngine,
  engineFromDraft,
  modelListText,
  originPattern,
  parseModelList,
  readEngineSettings,
} from '../../../../src/ui/shared/engine-form';

describe('parseModelList', () => {
  it('makes every bare id a proposer and lets the first play the other roles', () => {
    expect(parseModelList(' qwen2.5:7b, llama3.2:3b ,, ')).toEqual({
      ok: true,
      roster: { proposers: ['qwen2.5:7b', 'llama3.2:3b'], aggregator: 'qwen2.5:7b', generator: 'qwen2.5:7b', discriminator: 'qwen2.5:7b' },
    });
  });

  it('takes role=id for a named role', () => {
    expect(parseModelList('generator=llama3.1:8b, qwen2.5:7b, Aggregator = mistral, proposer=gemma2:9b')).toEqual({
      ok: true,
      roster: { proposers: ['qwen2.5:7b', 'gemma2:9b'], aggregator: 'mistral', generator: 'llama3.1:8b', discriminator: 'qwen2.5:7b' },
    });
  });

  it('refuses no proposer, an unknown role and an empty id', () => {
    expect(parseModelList(' , ')).toEqual({ ok: false, message: 'Name at least one model, as your server lists it (e.g. qwen2.5:7b).' });
    expect(parseModelList('generator=llama3.1:8b').ok).toBe(false);
    expect(parseModelList('qwen, judge=llama')).toEqual({
      ok: false,
      message: 'Unknown role “judge”: use proposer, aggregator, generator or discriminator.',
    });
    expect(parseModelList('qwen, generator=')).toEqual({ ok: false, message: 'Give a model id after “generator=”.' });
  });

  it('round-trips through modelListText', () => {
    const roster = { proposers: ['a', 'b'], aggregator: 'a', generator: 'c', discriminator: 'a' };
    expect(modelListText(roster)).toBe('a, b, generator=c');
    expect(parseModelList(modelListText(roster))).toEqual({ ok: true, roster });
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
});
