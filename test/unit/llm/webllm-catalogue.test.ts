/** The WebLLM model catalogue: prebuilt records plus the reader's custom ones, in WebLLM's `ModelRecord` shape. */
import { describe, expect, it } from 'vitest';
import type { CustomWebLlmModel } from '../../../src/contracts/webllm-model';
import { LlmError } from '../../../src/llm/llm-port';
import { createModelCatalogue, toModelRecord } from '../../../src/llm/webllm-catalogue';

const PREBUILT = [
  {
    model_id: 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC',
    model: 'https://huggingface.co/mlc-ai/Qwen2.5-0.5B-Instruct-q4f32_1-MLC',
    model_lib:
      'https://raw.githubusercontent.com/mlc-ai/binary-mlc-llm-libs/main/web-llm-models/v0_2_48/Qwen2-0.5B-Instruct-q4f32_1-ctx4k_cs1k-webgpu.wasm',
    vram_required_MB: 1060.2,
  },
  { model_id: 'gemma-2-2b-it-q4f16_1-MLC', vram_required_MB: 1895.3, required_features: ['shader-f16'] },
];

const own = (modelId: string, extra: Partial<CustomWebLlmModel> = {}): CustomWebLlmModel => ({
  model_id: modelId,
  model: `http://127.0.0.1:8000/${modelId}/`,
  model_lib: `http://127.0.0.1:8000/${modelId}/${modelId}-webgpu.wasm`,
  vram_required_MB: 700,
  ...extra,
});

describe('toModelRecord', () => {
  it('keeps the URLs and VRAM, and puts the context window into WebLLM’s overrides', () => {
    expect(toModelRecord(own('tiny-own', { required_features: ['shader-f16'], context_window_size: 2048 }))).toEqual({
      model_id: 'tiny-own',
      model: 'http://127.0.0.1:8000/tiny-own/',
      model_lib: 'http://127.0.0.1:8000/tiny-own/tiny-own-webgpu.wasm',
      vram_required_MB: 700,
      required_features: ['shader-f16'],
      overrides: { context_window_size: 2048 },
    });
  });

  it('leaves out the features and overrides a record does not give', () => {
    const record = toModelRecord(own('tiny-own'));
    expect(record).not.toHaveProperty('required_features');
    expect(record).not.toHaveProperty('overrides');
  });

  it('copies the features, so the record shares no array with the settings it came from', () => {
    const model = own('tiny-own', { required_features: ['shader-f16'] });
    const record = toModelRecord(model);
    record.required_features!.push('timestamp-query');
    expect(model.required_features).toEqual(['shader-f16']);
  });
});

describe('createModelCatalogue', () => {
  it('lists the prebuilt records alone until custom ones are registered, then both, prebuilt first', () => {
    const catalogue = createModelCatalogue(PREBUILT);
    expect(catalogue.list()).toEqual(PREBUILT);
    expect(catalogue.custom()).toEqual([]);
    catalogue.register([own('tiny-own'), own('small-own', { context_window_size: 1024 })]);
    expect(catalogue.list().map((record) => record.model_id)).toEqual([
      'Qwen2.5-0.5B-Instruct-q4f32_1-MLC',
      'gemma-2-2b-it-q4f16_1-MLC',
      'tiny-own',
      'small-own',
    ]);
    expect(catalogue.list()[3]).toEqual(toModelRecord(own('small-own', { context_window_size: 1024 })));
    expect(catalogue.custom().map((model) => model.model_id)).toEqual(['tiny-own', 'small-own']);
  });

  it('replaces the custom set on each registration; an empty list removes them all', () => {
    const catalogue = createModelCatalogue(PREBUILT);
    catalogue.register([own('tiny-own'), own('small-own')]);
    catalogue.register([own('small-own', { vram_required_MB: 900 })]);
    expect(catalogue.list().slice(PREBUILT.length)).toEqual([toModelRecord(own('small-own', { vram_required_MB: 900 }))]);
    catalogue.register([]);
    expect(catalogue.list()).toEqual(PREBUILT);
  });

  it('refuses a custom id that is one of WebLLM’s own, naming it, and keeps the previous custom set', () => {
    const catalogue = createModelCatalogue(PREBUILT);
    catalogue.register([own('tiny-own')]);
    let caught: unknown;
    try {
      catalogue.register([own('other-own'), own('gemma-2-2b-it-q4f16_1-MLC')]);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(LlmError);
    expect(caught).toMatchObject({
      code: 'unavailable',
      message: "The custom model id gemma-2-2b-it-q4f16_1-MLC is already one of WebLLM's own models: give your model another id.",
    });
    // A refused registration changes nothing: the prebuilt record still points at WebLLM's weights.
    expect(catalogue.custom().map((model) => model.model_id)).toEqual(['tiny-own']);
    expect(catalogue.list().find((record) => record.model_id === 'gemma-2-2b-it-q4f16_1-MLC')).toEqual(PREBUILT[1]);
  });

  it('is not changed by later edits to the array it was registered with', () => {
    const catalogue = createModelCatalogue(PREBUILT);
    const models = [own('tiny-own')];
    catalogue.register(models);
    models.push(own('late-own'));
    expect(catalogue.custom().map((model) => model.model_id)).toEqual(['tiny-own']);
  });
});
