import { describe, expect, it } from 'vitest';
import type { WebGpuCapability } from '../../../../src/contracts/messages';
import {
  chooseRunEngine,
  countByProperty,
  countedLabel,
  defaultRunProperties,
  rankedFound,
  webLlmRunsHere,
} from '../../../../src/ui/side-panel/run-defaults';
import { MODEL_SERVER_PRESETS, serverEngine } from '../../../../src/ui/side-panel/engine-setup';

const offered = ['band_gap', 'tc', 'curie_temperature', 'neel_temperature', 'density', 'lattice_constant'];
const counts = (entries: Record<string, number>) => new Map(Object.entries(entries));

const gpu = (maxStorageBufferBindingSize: number): WebGpuCapability => ({
  available: true,
  adapterInfo: { vendor: 'nvidia', architecture: '', device: '', description: '' },
  shaderF16: true,
  maxBufferSize: 2 ** 31,
  maxStorageBufferBindingSize,
  isFallbackAdapter: false,
});
const noGpu: WebGpuCapability = { available: false, reason: 'navigator.gpu is missing' };
const webLlm = { kind: 'webllm' };
const server = {
  kind: 'openai',
  baseUrl: 'http://127.0.0.1:11434/v1',
  roster: { proposers: ['a'], aggregator: 'a', generator: 'a', discriminator: 'a' },
};

describe('run defaults: properties from the quick scan', () => {
  it('counts candidates by property', () => {
    expect([...countByProperty([{ property: 'tc' }, { property: 'band_gap' }, { property: 'tc' }])]).toEqual([
      ['tc', 2],
      ['band_gap', 1],
    ]);
  });

  it('preselects the found properties, most frequent first, and falls back to band gap when none was found', () => {
    expect(defaultRunProperties(counts({ band_gap: 3, curie_temperature: 9 }), offered)).toEqual(['curie_temperature', 'band_gap']);
    expect(defaultRunProperties(counts({}), offered)).toEqual(['band_gap']);
    expect(defaultRunProperties(undefined, offered)).toEqual(['band_gap']);
    // Only properties the picker offers count; without band gap on offer, the first offered one.
    expect(defaultRunProperties(counts({ unknown_thing: 5 }), ['tc', 'density'])).toEqual(['tc']);
    expect(defaultRunProperties(undefined, [])).toEqual([]);
  });

  it('caps the preselection at three and leaves out a stray mention beside the paper’s main property', () => {
    expect(defaultRunProperties(counts({ density: 4, tc: 4, curie_temperature: 5, neel_temperature: 3 }), offered)).toEqual([
      'curie_temperature',
      'tc',
      'density',
    ]);
    // rsc c1jm13879k: band gap ×9, Curie temperature ×1 — a quarter of 9 is 2.25.
    expect(defaultRunProperties(counts({ band_gap: 9, curie_temperature: 1 }), offered)).toEqual(['band_gap']);
    expect(defaultRunProperties(counts({ curie_temperature: 4, tc: 1, neel_temperature: 1 }), offered)).toEqual([
      'curie_temperature',
      'tc',
      'neel_temperature',
    ]);
  });

  it('ranks ties in the picker’s order and names counts', () => {
    expect(rankedFound(counts({ density: 2, band_gap: 2, tc: 0 }), offered)).toEqual([
      { name: 'band_gap', count: 2 },
      { name: 'density', count: 2 },
    ]);
    expect(countedLabel('Curie temperature', 9)).toBe('Curie temperature ×9');
    expect(countedLabel('Band gap', undefined)).toBe('Band gap');
  });
});

describe('run defaults: the engine from the machine', () => {
  it('runs WebLLM only where WebGPU is available with WebLLM’s 128 MB storage-buffer floor', () => {
    expect(webLlmRunsHere(gpu(2 ** 30))).toEqual({ ok: true });
    expect(webLlmRunsHere(gpu(2 ** 27))).toEqual({ ok: true });
    const small = webLlmRunsHere(gpu(64 * 2 ** 20));
    expect(small).toEqual({ ok: false, reason: expect.stringContaining('64 MB; WebLLM needs at least 128 MB') });
    expect(webLlmRunsHere(noGpu)).toEqual({ ok: false, reason: 'This browser has no WebGPU (navigator.gpu is missing).' });
  });

  it('keeps the reader’s saved engine whatever the machine', () => {
    expect(chooseRunEngine(webLlm, { phase: 'done', capability: noGpu }, webLlm)).toEqual({
      phase: 'engine',
      engine: webLlm,
      why: 'chosen',
    });
    expect(chooseRunEngine(server, { phase: 'done', capability: gpu(2 ** 30) }, webLlm)).toEqual({
      phase: 'engine',
      engine: server,
      why: 'chosen',
    });
  });

  it('defaults to WebLLM with WebGPU, and to the setup screen without it or when the check fails', () => {
    expect(chooseRunEngine(null, { phase: 'done', capability: gpu(2 ** 30) }, webLlm)).toEqual({
      phase: 'engine',
      engine: webLlm,
      why: 'webgpu',
    });
    expect(chooseRunEngine(null, { phase: 'done', capability: noGpu }, webLlm)).toEqual({
      phase: 'setup',
      reason: 'This browser has no WebGPU (navigator.gpu is missing).',
    });
    expect(chooseRunEngine(null, { phase: 'done', capability: gpu(2 ** 20) }, webLlm).phase).toBe('setup');
    expect(chooseRunEngine(null, { phase: 'failed', message: 'no offscreen document' }, webLlm)).toEqual({
      phase: 'setup',
      reason: 'WebGPU could not be checked: no offscreen document',
    });
    expect(chooseRunEngine(null, { phase: 'checking' }, webLlm)).toEqual({ phase: 'engine', engine: webLlm, why: 'unchecked' });
    expect(chooseRunEngine(null, { phase: 'unknown' }, webLlm)).toEqual({ phase: 'engine', engine: webLlm, why: 'unchecked' });
  });
});

describe('the model-server setup', () => {
  it('prefills Ollama and LM Studio at their default ports with the commands to run', () => {
    const [ollama, lmStudio] = MODEL_SERVER_PRESETS;
    expect(ollama!.baseUrl).toBe('http://127.0.0.1:11434/v1');
    expect(ollama!.steps.map((step) => step.command)).toContain('OLLAMA_ORIGINS=chrome-extension://* ollama serve');
    expect(ollama!.steps.map((step) => step.command)).toContain(`ollama pull ${ollama!.model}`);
    expect(lmStudio!.baseUrl).toBe('http://127.0.0.1:1234/v1');
  });

  it('builds an OpenAI-compatible engine from the inputs, or says what is missing', () => {
    const result = serverEngine('http://127.0.0.1:11434/v1', 'qwen2.5:7b');
    expect(result).toEqual({
      ok: true,
      engine: expect.objectContaining({
        kind: 'openai',
        baseUrl: 'http://127.0.0.1:11434/v1',
        roster: expect.objectContaining({ proposers: ['qwen2.5:7b'] }),
      }),
    });
    expect(serverEngine('http://127.0.0.1:1234/v1', '  ')).toEqual({ ok: false, message: expect.any(String) });
    expect(serverEngine('not a url', 'm')).toEqual({ ok: false, message: expect.any(String) });
  });
});
