/**
 * A model file whose hash does not match is refused: WebLLM's own `verifyIntegrity` (web-llm
 * 0.2.86, run here under Node, whose Web Crypto it uses) over a made-up library, behind a stand-in
 * engine that checks the record's `integrity` the way WebLLM's `reload` does, through the adapter,
 * the catalogue and the error mapping.
 */
import { createHash } from 'node:crypto';
import { IntegrityError, verifyIntegrity } from '@mlc-ai/web-llm';
import { describe, expect, it } from 'vitest';
import { CustomWebLlmModelSchema } from '../../../src/contracts/webllm-model';
import { LlmError } from '../../../src/llm/llm-port';
import { createWebLlm, type WebLlmEngineLike, type WebLlmModelRecord } from '../../../src/llm/webllm-adapter';
import { createModelCatalogue } from '../../../src/llm/webllm-catalogue';
import { toWebLlmError } from '../../../src/llm/webllm-errors';
import type { WebGpuCapability } from '../../../src/contracts/messages';

const LIBRARY_URL = 'http://127.0.0.1:8000/tiny-own/tiny-own-webgpu.wasm';
/** A made-up model library (the bytes stand in for a .wasm; only their hash matters here). */
const LIBRARY = new TextEncoder().encode('\0asm made-up model library, version 1');
const TAMPERED = new TextEncoder().encode('\0asm made-up model library, version 2');
const sha256 = (bytes: Uint8Array) => `sha256-${createHash('sha256').update(bytes).digest('base64')}`;

const gpu: WebGpuCapability = {
  available: true,
  adapterInfo: { vendor: 'google', architecture: 'swiftshader', device: '', description: '' },
  shaderF16: false,
  maxBufferSize: 1 << 30,
  maxStorageBufferBindingSize: 1 << 30,
  isFallbackAdapter: false,
};

/**
 * A stand-in MLCEngine whose `reload` does what WebLLM 0.2.86's does with a record's library:
 * fetch it (here from `served`), then `verifyIntegrity(bytes, integrity.model_lib, url, integrity.onFailure)`.
 */
function verifyingEngine(records: () => readonly WebLlmModelRecord[], served: Map<string, Uint8Array>): WebLlmEngineLike {
  return {
    reload: async (ids) => {
      for (const id of [ids].flat()) {
        const record = records().find((candidate) => candidate.model_id === id)!;
        const bytes = served.get(record.model_lib!)!;
        if (record.integrity?.model_lib)
          await verifyIntegrity(bytes.slice().buffer, record.integrity.model_lib, record.model_lib!, record.integrity.onFailure);
      }
    },
    unload: async () => undefined,
    chat: { completions: { create: async () => ({ choices: [] }) } },
  };
}

/** The reader's model record with `integrity`, parsed as settings and messages are. */
const ownModel = (integrity: unknown) =>
  CustomWebLlmModelSchema.parse({
    model_id: 'tiny-own',
    model: 'http://127.0.0.1:8000/tiny-own/',
    model_lib: LIBRARY_URL,
    vram_required_MB: 700,
    integrity,
  });

function webLlmServing(library: Uint8Array, integrity: unknown) {
  const catalogue = createModelCatalogue<WebLlmModelRecord>([]);
  catalogue.register([ownModel(integrity)]);
  const served = new Map([[LIBRARY_URL, library]]);
  return createWebLlm({
    engineFactory: async () => verifyingEngine(catalogue.list, served),
    models: catalogue.list,
    capability: async () => gpu,
  });
}

describe('model library integrity', () => {
  it('WebLLM’s verifyIntegrity refuses the made-up library under a wrong hash with its IntegrityError, and passes it under its own', async () => {
    await expect(verifyIntegrity(LIBRARY.slice().buffer, sha256(LIBRARY), LIBRARY_URL, 'error')).resolves.toBeUndefined();
    const refused = verifyIntegrity(TAMPERED.slice().buffer, sha256(LIBRARY), LIBRARY_URL, 'error');
    await expect(refused).rejects.toBeInstanceOf(IntegrityError);
    await expect(refused).rejects.toMatchObject({ url: LIBRARY_URL, expected: sha256(LIBRARY), actual: sha256(TAMPERED) });
  });

  it('a custom model whose library does not match its hash is not loaded: LlmError integrity-failed naming the file and both hashes', async () => {
    const webLlm = webLlmServing(TAMPERED, { model_lib: sha256(LIBRARY) });
    const error = await webLlm.load(['tiny-own']).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(LlmError);
    expect(error).toMatchObject({ code: 'integrity-failed' });
    const message = (error as LlmError).message;
    expect(message).toContain(LIBRARY_URL);
    expect(message).toContain(`expected ${sha256(LIBRARY)}`);
    expect(message).toContain(`got ${sha256(TAMPERED)}`);
    expect(webLlm.loadedModels()).toEqual([]);
  });

  it('the same model loads when the library matches its hash', async () => {
    const webLlm = webLlmServing(LIBRARY, { model_lib: sha256(LIBRARY) });
    await webLlm.load(['tiny-own']);
    expect(webLlm.loadedModels()).toEqual(['tiny-own']);
  });

  it('a mismatch is an error even for a record that gives no onFailure (WebLLM gets "error" from Assay, never "warn")', async () => {
    const catalogue = createModelCatalogue<WebLlmModelRecord>([]);
    catalogue.register([ownModel({ model_lib: sha256(LIBRARY) })]);
    expect(catalogue.list()[0]!.integrity).toEqual({ model_lib: sha256(LIBRARY), onFailure: 'error' });
  });

  it('words WebLLM’s IntegrityError by its message alone when the fields are lost (an error that crossed a worker boundary)', () => {
    const crossed = Object.assign(
      new Error(
        `Integrity verification failed for ${LIBRARY_URL}\n  Expected: ${sha256(LIBRARY)}\n  Actual: ${sha256(TAMPERED)}\nThis may indicate file corruption or tampering.`,
      ),
      { name: 'IntegrityError' },
    );
    const mapped = toWebLlmError(crossed, { phase: 'load', modelId: 'tiny-own' });
    expect(mapped.code).toBe('integrity-failed');
    expect(mapped.message).toContain(
      `${LIBRARY_URL} does not match the hash it is pinned to (expected ${sha256(LIBRARY)}, got ${sha256(TAMPERED)})`,
    );
  });
});
