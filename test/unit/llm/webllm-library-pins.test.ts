/**
 * Pinning WebLLM's prebuilt model libraries to a commit with an integrity hash: the rewrite of a
 * record, the table check, the unpinned policy, and what this build leaves unpinned. The pins in
 * these tests name a made-up library; the real table is checked as it is.
 */
import { prebuiltAppConfig } from '@mlc-ai/web-llm';
import { describe, expect, it, vi } from 'vitest';
import { LlmError } from '../../../src/llm/llm-port';
import { defaultWebLlmRoster, rosterModelIds } from '../../../src/llm/roster';
import type { WebLlmModelRecord } from '../../../src/llm/webllm-adapter';
import {
  checkLibraryPins,
  checkPinnedLoad,
  MODEL_LIBRARY_PINS,
  pinModelLibraries,
  prebuiltLibraryPath,
  type LibraryPin,
} from '../../../src/llm/webllm-library-pins';

const MAIN = 'https://raw.githubusercontent.com/mlc-ai/binary-mlc-llm-libs/main/web-llm-models/';
/** A made-up library and pin: neither the commit nor the hash names a real file. */
const MADE_UP: LibraryPin = {
  library: 'v9_9_9/base/Made-Up-1B-q4f32_1_cs1k-webgpu.wasm',
  commit: '0123456789abcdef0123456789abcdef01234567',
  integrity: `sha256-${Buffer.alloc(32, 7).toString('base64')}`,
};
const RECORDS: WebLlmModelRecord[] = [
  {
    model_id: 'Made-Up-1B-q4f32_1-MLC',
    model: 'https://huggingface.co/x/Made-Up',
    model_lib: `${MAIN}${MADE_UP.library}`,
    vram_required_MB: 900,
  },
  { model_id: 'Other-1B-q4f32_1-MLC', model_lib: `${MAIN}v9_9_9/base/Other-1B-q4f32_1_cs1k-webgpu.wasm`, vram_required_MB: 800 },
];

describe('pinModelLibraries', () => {
  it('fetches a pinned library at its commit and gives WebLLM its hash with onFailure "error"', () => {
    const { records, unpinned } = pinModelLibraries(RECORDS, [MADE_UP]);
    expect(records[0]).toEqual({
      ...RECORDS[0],
      model_lib: `https://raw.githubusercontent.com/mlc-ai/binary-mlc-llm-libs/${MADE_UP.commit}/web-llm-models/${MADE_UP.library}`,
      integrity: { model_lib: MADE_UP.integrity, onFailure: 'error' },
    });
    expect(records[1]).toBe(RECORDS[1]);
    expect([...unpinned]).toEqual(['Other-1B-q4f32_1-MLC']);
  });

  it('does not pin a library of another WebLLM release (another folder) with the same file name', () => {
    const older = { ...RECORDS[0]!, model_lib: `${MAIN}v9_9_8/base/Made-Up-1B-q4f32_1_cs1k-webgpu.wasm` };
    const { records, unpinned } = pinModelLibraries([older], [MADE_UP]);
    expect(records[0]!.model_lib).toBe(older.model_lib);
    expect([...unpinned]).toEqual([older.model_id]);
  });

  it('counts a hash from WebLLM’s own list as pinned, and makes its failure an error', () => {
    const hashed = { ...RECORDS[1]!, integrity: { model_lib: MADE_UP.integrity, onFailure: 'warn' as const } };
    const { records, unpinned } = pinModelLibraries([hashed], []);
    expect(records[0]!.integrity).toEqual({ model_lib: MADE_UP.integrity, onFailure: 'error' });
    expect(unpinned.size).toBe(0);
  });
});

describe('checkLibraryPins', () => {
  it.each([
    [{ ...MADE_UP, commit: 'main' }, 'the commit must be 40 lower-case hex digits'],
    [{ ...MADE_UP, commit: MADE_UP.commit.toUpperCase() }, 'the commit must be 40 lower-case hex digits'],
    [{ ...MADE_UP, integrity: '338ab000a62274cb47fa0696aa244d4b1d73db4e6f144b429915d1cfe44d2e6a' }, 'the integrity must be an SRI hash'],
    [{ ...MADE_UP, library: '../evil.wasm' }, 'the library must be a .wasm path'],
    [{ ...MADE_UP, library: 'v9_9_9/base/lib.js' }, 'the library must be a .wasm path'],
  ])('refuses %j', (pin, problem) => {
    expect(() => checkLibraryPins([pin])).toThrow(problem);
  });

  it('refuses a library pinned twice, and accepts the made-up pin', () => {
    expect(() => checkLibraryPins([MADE_UP, MADE_UP])).toThrow('pinned twice');
    expect(() => checkLibraryPins([MADE_UP])).not.toThrow();
  });

  it('accepts this build’s table', () => {
    expect(() => checkLibraryPins(MODEL_LIBRARY_PINS)).not.toThrow();
  });
});

describe('checkPinnedLoad', () => {
  const unpinned = new Set(['Other-1B-q4f32_1-MLC']);

  it('refuses an unpinned model under "refuse", naming it, before anything is fetched', () => {
    expect(() => checkPinnedLoad(['Made-Up-1B-q4f32_1-MLC', 'Other-1B-q4f32_1-MLC'], unpinned, 'refuse')).toThrow(LlmError);
    expect(() => checkPinnedLoad(['Other-1B-q4f32_1-MLC'], unpinned, 'refuse')).toThrow(
      /^Other-1B-q4f32_1-MLC was not loaded: its model library .* is not pinned/,
    );
    expect(() => checkPinnedLoad(['Made-Up-1B-q4f32_1-MLC'], unpinned, 'refuse')).not.toThrow();
  });

  it('lets it load under "allow", warning once per unpinned model', () => {
    const warn = vi.fn();
    checkPinnedLoad(['Made-Up-1B-q4f32_1-MLC', 'Other-1B-q4f32_1-MLC'], unpinned, 'allow', warn);
    expect(warn.mock.calls).toEqual([['Other-1B-q4f32_1-MLC']]);
  });
});

describe('this build', () => {
  it('reads the library path of every prebuilt record of web-llm 0.2.86 (all on the main branch)', () => {
    const paths = prebuiltAppConfig.model_list.map((record) => prebuiltLibraryPath(record.model_lib));
    expect(paths.every((path) => path !== undefined && /^v0_2_86\/base\/[\w.-]+\.wasm$/.test(path))).toBe(true);
  });

  it('leaves every default-roster model unpinned: the commits and hashes could not be read where this was built (fill MODEL_LIBRARY_PINS, then update this list)', () => {
    const roster = [...new Set([...rosterModelIds(defaultWebLlmRoster(true)), ...rosterModelIds(defaultWebLlmRoster(false))])];
    const { unpinned } = pinModelLibraries(prebuiltAppConfig.model_list as WebLlmModelRecord[], MODEL_LIBRARY_PINS);
    expect(roster.filter((modelId) => unpinned.has(modelId))).toEqual([
      'Qwen2.5-1.5B-Instruct-q4f16_1-MLC',
      'Llama-3.2-1B-Instruct-q4f16_1-MLC',
      'gemma-2-2b-it-q4f16_1-MLC',
      'Qwen2.5-0.5B-Instruct-q4f32_1-MLC',
      'SmolLM2-360M-Instruct-q4f32_1-MLC',
      'Llama-3.2-1B-Instruct-q4f32_1-MLC',
    ]);
  });
});
