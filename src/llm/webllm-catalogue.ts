/**
 * The models a WebLLM engine may load: WebLLM's prebuilt list plus the reader's custom records
 * (src/contracts/webllm-model.ts). Pure: the prebuilt list comes in as data, so this module never
 * imports WebLLM; webllm-engine.ts builds the app config from `list()`.
 */
import type { CustomWebLlmModel } from '../contracts/webllm-model';
import { LlmError } from './llm-port';
import type { WebLlmModelRecord } from './webllm-adapter';

/**
 * A custom record in WebLLM's `ModelRecord` shape (the context window goes into `overrides`). Its
 * `integrity` hashes go to WebLLM with `onFailure: "error"` always, so a file that does not match
 * is refused (WebLLM throws its `IntegrityError`; webllm-errors.ts words it), never loaded with a warning.
 */
export function toModelRecord(model: CustomWebLlmModel): WebLlmModelRecord {
  return {
    model_id: model.model_id,
    model: model.model,
    model_lib: model.model_lib,
    vram_required_MB: model.vram_required_MB,
    ...(model.required_features ? { required_features: [...model.required_features] } : {}),
    ...(model.context_window_size !== undefined ? { overrides: { context_window_size: model.context_window_size } } : {}),
    ...(model.integrity ? { integrity: { ...model.integrity, onFailure: 'error' } } : {}),
  };
}

/** Prebuilt models plus registered custom ones; `register` replaces the custom set. */
export interface ModelCatalogue<Prebuilt extends WebLlmModelRecord> {
  /**
   * Make `models` the custom set (replacing the previous one). Rejects with
   * `LlmError('unavailable')`, naming the id, when a custom id is one of WebLLM's prebuilt ids
   * (a custom record must not silently redirect a prebuilt model to other weights or code).
   */
  register(models: readonly CustomWebLlmModel[]): void;
  /** Prebuilt records first, then custom ones in registration order. */
  list(): Array<Prebuilt | WebLlmModelRecord>;
  /** The registered custom records. */
  custom(): readonly CustomWebLlmModel[];
}

/** Build a catalogue over `prebuilt` (WebLLM's `prebuiltAppConfig.model_list`). */
export function createModelCatalogue<Prebuilt extends WebLlmModelRecord>(prebuilt: readonly Prebuilt[]): ModelCatalogue<Prebuilt> {
  const prebuiltIds = new Set(prebuilt.map((record) => record.model_id));
  let custom: CustomWebLlmModel[] = [];
  return {
    register(models) {
      const clash = models.find((model) => prebuiltIds.has(model.model_id));
      if (clash)
        throw new LlmError(
          'unavailable',
          `The custom model id ${clash.model_id} is already one of WebLLM's own models: give your model another id.`,
        );
      custom = [...models];
    },
    list: () => [...prebuilt, ...custom.map(toModelRecord)],
    custom: () => custom,
  };
}
