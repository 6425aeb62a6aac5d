/** Custom WebLLM model records: which URLs a reader may load code and weights from, and the list's limits. */
import { createHash } from 'node:crypto';
import { isValidSRI } from '@mlc-ai/web-llm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OffscreenEnvelopeSchema } from '../../../src/contracts/messages';
import {
  CustomWebLlmModelSchema,
  CustomWebLlmModelsSchema,
  isSecureOrLoopbackUrl,
  isSriHash,
  MAX_CUSTOM_MODELS,
  type CustomWebLlmModel,
} from '../../../src/contracts/webllm-model';

const URL_MESSAGE = 'must be an https URL, or http on this machine (127.0.0.1, localhost or [::1])';

const record = (overrides: Partial<Record<keyof CustomWebLlmModel, unknown>> = {}) => ({
  model_id: 'Qwen2.5-0.5B-own-q4f32_1-MLC',
  model: 'https://models.example.org/qwen-own/',
  model_lib: 'https://models.example.org/qwen-own/qwen-own-webgpu.wasm',
  vram_required_MB: 944.6,
  ...overrides,
});

/** The messages of the issues at `path` when `value` is refused (fails the test when it is accepted). */
function problemsAt(value: unknown, path: string): string[] {
  const parsed = CustomWebLlmModelSchema.safeParse(value);
  if (parsed.success) throw new Error(`expected ${JSON.stringify(value)} to be refused`);
  return parsed.error.issues.filter((issue) => issue.path.join('.') === path).map((issue) => issue.message);
}

describe('isSecureOrLoopbackUrl', () => {
  it.each([
    'https://huggingface.co/mlc-ai/Qwen2.5-0.5B-Instruct-q4f32_1-MLC',
    'http://127.0.0.1:8000/model/',
    'http://localhost:8000/model/',
    'http://LOCALHOST/model/',
    'http://[::1]:8000/model/',
  ])('accepts %s', (url) => {
    expect(isSecureOrLoopbackUrl(url)).toBe(true);
  });

  it.each([
    'http://models.example.org/model/',
    // Hosts that merely start with a loopback name are other machines.
    'http://localhost.example.org/model/',
    'http://127.0.0.1.example.org/model/',
    'http://192.168.1.20:8000/model/',
    'javascript:alert(1)',
    'file:///home/reader/model.wasm',
    'data:application/wasm;base64,AGFzbQ==',
    'ftp://models.example.org/model.wasm',
    'models.example.org/model.wasm',
    '',
  ])('refuses %s', (url) => {
    expect(isSecureOrLoopbackUrl(url)).toBe(false);
  });
});

describe('CustomWebLlmModelSchema', () => {
  it('accepts an https record, and one served over plain http from this machine', () => {
    expect(CustomWebLlmModelSchema.parse(record())).toEqual(record());
    const local = record({ model: 'http://127.0.0.1:8000/qwen-own/', model_lib: 'http://[::1]:8000/libs/qwen-own.wasm' });
    expect(CustomWebLlmModelSchema.parse(local)).toEqual(local);
  });

  it('refuses weights over plain http from another host, naming the rule', () => {
    expect(problemsAt(record({ model: 'http://models.example.org/qwen-own/' }), 'model')).toEqual([URL_MESSAGE]);
  });

  it.each(['javascript:alert(1)', 'file:///home/reader/qwen-own.wasm', 'data:application/wasm;base64,AGFzbQ=='])(
    'refuses the model library %s with the URL rule alone',
    (modelLib) => {
      expect(problemsAt(record({ model_lib: modelLib }), 'model_lib')).toEqual([URL_MESSAGE]);
    },
  );

  it('refuses text that is not a URL with the URL rule, rather than throwing', () => {
    // The schema parses untrusted messages: a parse that throws would take the message listener down with it.
    expect(() => CustomWebLlmModelSchema.safeParse(record({ model_lib: 'qwen-own.wasm' }))).not.toThrow();
    expect(problemsAt(record({ model_lib: 'qwen-own.wasm' }), 'model_lib')).toEqual([URL_MESSAGE]);
    expect(problemsAt(record({ model: 'not a url' }), 'model')).toEqual([URL_MESSAGE]);
    const envelope = {
      target: 'assay-offscreen',
      request: { type: 'load-model', modelId: 'x', customModels: [record({ model_lib: '::' })] },
    };
    expect(OffscreenEnvelopeSchema.safeParse(envelope).success).toBe(false);
  });

  it('refuses a model library that is not a .wasm file, judged by the path alone', () => {
    expect(problemsAt(record({ model_lib: 'https://models.example.org/qwen-own/lib.js' }), 'model_lib')).toEqual([
      'must name a .wasm model library',
    ]);
    expect(problemsAt(record({ model_lib: 'https://models.example.org/lib.js?name=x.wasm' }), 'model_lib')).toEqual([
      'must name a .wasm model library',
    ]);
    expect(CustomWebLlmModelSchema.safeParse(record({ model_lib: 'https://models.example.org/LIB.WASM?v=2' })).success).toBe(true);
  });

  it('refuses URLs over 2048 characters', () => {
    const long = `https://models.example.org/${'a'.repeat(2048)}/`;
    expect(CustomWebLlmModelSchema.safeParse(record({ model: long })).success).toBe(false);
  });

  it('refuses model ids that could not name a cache entry, with the rule in words', () => {
    const rule = 'use letters, digits, ".", "_" or "-" (at most 128 characters), starting with a letter or digit';
    for (const id of ['', '-leading-dash', 'has space', 'slash/in/id', 'a'.repeat(129)])
      expect(problemsAt(record({ model_id: id }), 'model_id')).toEqual([rule]);
    expect(CustomWebLlmModelSchema.safeParse(record({ model_id: 'a'.repeat(128) })).success).toBe(true);
  });

  it('bounds the VRAM figure, the features and the context window', () => {
    expect(CustomWebLlmModelSchema.safeParse(record({ vram_required_MB: 0 })).success).toBe(false);
    expect(CustomWebLlmModelSchema.safeParse(record({ required_features: ['shader-f16'] })).success).toBe(true);
    expect(CustomWebLlmModelSchema.safeParse(record({ required_features: ['timestamp-query'] })).success).toBe(false);
    expect(CustomWebLlmModelSchema.safeParse(record({ context_window_size: 255 })).success).toBe(false);
    expect(CustomWebLlmModelSchema.safeParse(record({ context_window_size: 4096.5 })).success).toBe(false);
    expect(CustomWebLlmModelSchema.safeParse(record({ context_window_size: 131_072 })).success).toBe(true);
  });
});

describe('CustomWebLlmModelsSchema', () => {
  const numbered = (count: number) => Array.from({ length: count }, (_, index) => record({ model_id: `own-model-${index}` }));

  it(`accepts up to ${MAX_CUSTOM_MODELS} models and refuses one more`, () => {
    expect(MAX_CUSTOM_MODELS).toBe(16);
    expect(CustomWebLlmModelsSchema.safeParse(numbered(16)).success).toBe(true);
    const parsed = CustomWebLlmModelsSchema.safeParse(numbered(17));
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues).toEqual([expect.objectContaining({ code: 'too_big', maximum: 16 })]);
  });

  it('refuses two models with the same id, saying so', () => {
    const parsed = CustomWebLlmModelsSchema.safeParse([record(), record({ model: 'https://mirror.example.org/qwen-own/' })]);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => issue.message)).toEqual(['each custom model needs its own model_id']);
  });

  it('reports a bad record by its index in the list', () => {
    const parsed = CustomWebLlmModelsSchema.safeParse([record(), record({ model_id: 'second', model: 'http://example.org/m/' })]);
    expect(parsed.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([['1.model', URL_MESSAGE]]);
  });
});

/** The SRI hash of `bytes` with `algorithm` (sha256, sha384, sha512). */
const sri = (algorithm: string, bytes: Uint8Array) => `${algorithm}-${createHash(algorithm).update(bytes).digest('base64')}`;

describe('isSriHash', () => {
  it('accepts the SRI hash of any bytes with sha256, sha384 or sha512', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), fc.constantFrom('sha256', 'sha384', 'sha512'), (bytes, algorithm) => {
        expect(isSriHash(sri(algorithm, bytes))).toBe(true);
      }),
    );
  });

  it('judges any text as WebLLM’s own isValidSRI does, so no hash it would refuse at load time gets in', () => {
    // Text near the format: real hashes cut, extended, re-labelled or re-padded, and arbitrary text.
    const nearHash = fc
      .tuple(
        fc.constantFrom('sha256', 'sha384', 'sha512', 'sha1', 'md5', 'SHA256'),
        fc.uint8Array({ minLength: 1, maxLength: 8 }),
        fc.integer({ min: -3, max: 3 }),
        fc.constantFrom('', '=', '==', '===', 'A', '?x', ' sha256-abc'),
      )
      .map(([label, bytes, cut, tail]) => {
        const digest = createHash('sha256').update(bytes).digest('base64').replace(/=+$/, '');
        return `${label}-${cut >= 0 ? digest.slice(0, digest.length - cut) : digest + 'A'.repeat(-cut)}${tail}`;
      });
    fc.assert(
      fc.property(fc.oneof(nearHash, fc.string({ maxLength: 100 })), (text) => {
        expect(isSriHash(text)).toBe(isValidSRI(text));
      }),
      { numRuns: 500 },
    );
  });

  it.each(['', 'sha256-', 'md5-rL0Y20zC+Fzt72VPzMSk2A==', `sha256-${'A'.repeat(43)}=?ct=application/wasm`, `sha256-${'A'.repeat(42)}==`])(
    'refuses %j',
    (text) => {
      expect(isSriHash(text)).toBe(false);
    },
  );
});

describe('CustomWebLlmModelSchema: integrity', () => {
  const library = sri('sha256', new TextEncoder().encode('made-up model library'));

  it('accepts WebLLM’s integrity fields with SRI hashes and keeps them as given', () => {
    const integrity = {
      model_lib: library,
      config: sri('sha384', new Uint8Array([1])),
      tokenizer: { 'tokenizer.json': sri('sha512', new Uint8Array([2])) },
      onFailure: 'error',
    };
    expect(CustomWebLlmModelSchema.parse(record({ integrity })).integrity).toEqual(integrity);
  });

  it('refuses a hash that is not an SRI hash, naming the field and the format', () => {
    const hex = '338ab000a62274cb47fa0696aa244d4b1d73db4e6f144b429915d1cfe44d2e6a';
    expect(problemsAt(record({ integrity: { model_lib: `sha256-${hex}` } }), 'integrity.model_lib')).toEqual([
      expect.stringContaining('must be an SRI hash'),
    ]);
    expect(problemsAt(record({ integrity: { tokenizer: { 'tokenizer.json': hex } } }), 'integrity.tokenizer.tokenizer.json')).toHaveLength(
      1,
    );
  });

  it('refuses onFailure "warn" (WebLLM would load a file that does not match), a misspelt key and a tokenizer file WebLLM never checks', () => {
    expect(problemsAt(record({ integrity: { model_lib: library, onFailure: 'warn' } }), 'integrity.onFailure')).toEqual([
      'must be "error" or left out: Assay never loads a model file whose hash does not match',
    ]);
    expect(CustomWebLlmModelSchema.safeParse(record({ integrity: { modelLib: library } })).success).toBe(false);
    expect(CustomWebLlmModelSchema.safeParse(record({ integrity: { tokenizer: { 'vocab.txt': library } } })).success).toBe(false);
  });
});
