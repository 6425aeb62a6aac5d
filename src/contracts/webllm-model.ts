/**
 * A WebLLM model the reader adds beside WebLLM's prebuilt list: their own compiled model, or one
 * served from their own machine. Field names are WebLLM's `ModelRecord` names (`model_id`,
 * `model`, `model_lib`, `vram_required_MB`, `required_features`), so a record copied from
 * WebLLM's documentation or an `mlc_llm` build reads the same. Untrusted (settings, messages).
 *
 * A model library (`model_lib`, a `.wasm`) is code that runs in the extension's engine document,
 * and the weights are hundreds of MB: both must come over https, or over plain http only from
 * this machine (a loopback address, where a reader serves a model they built themselves).
 */
import { z } from 'zod';

/** `http:` URLs are accepted only for these hosts (this machine). */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** True for an https URL, or an http URL on this machine (127.0.0.1, localhost, [::1]). */
export function isSecureOrLoopbackUrl(text: string): boolean {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return false;
  }
  return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname));
}

// `abort`: a refused URL skips the checks chained after it (`model_lib`'s `.wasm` check parses
// the URL, and would throw on text that is not one instead of reporting it).
const modelUrl = z
  .string()
  .max(2048)
  .refine(isSecureOrLoopbackUrl, { message: 'must be an https URL, or http on this machine (127.0.0.1, localhost or [::1])', abort: true });

/**
 * One custom model record. `model_id`: letters, digits, `.`, `_`, `-` (it names cache entries and
 * appears in run records), at most 128 characters. `model`: the folder holding
 * `mlc-chat-config.json`, `tensor-cache.json` and the weight shards (WebLLM appends
 * `resolve/main/` when the URL has no `/resolve/<branch>/`). `model_lib`: the compiled library
 * (`.wasm`), which must have been built for the WebLLM release the extension runs.
 * `vram_required_MB`: GPU memory for the weights and KV cache, for the load plan (roster.ts).
 * `context_window_size`: an override of the model's context window (tokens, 256–131072).
 */
export const CustomWebLlmModelSchema = z.object({
  model_id: z
    .string()
    .regex(/^[A-Za-z0-9][\w.-]{0,127}$/, 'use letters, digits, ".", "_" or "-" (at most 128 characters), starting with a letter or digit'),
  model: modelUrl,
  model_lib: modelUrl.refine((text) => /\.wasm$/i.test(new URL(text).pathname), 'must name a .wasm model library'),
  vram_required_MB: z.number().positive().max(1_048_576),
  required_features: z.array(z.literal('shader-f16')).max(1).optional(),
  context_window_size: z.number().int().min(256).max(131_072).optional(),
});
export type CustomWebLlmModel = z.infer<typeof CustomWebLlmModelSchema>;

/** At most this many custom models in one settings object or message. */
export const MAX_CUSTOM_MODELS = 16;

export const CustomWebLlmModelsSchema = z
  .array(CustomWebLlmModelSchema)
  .max(MAX_CUSTOM_MODELS)
  .refine((models) => new Set(models.map((model) => model.model_id)).size === models.length, 'each custom model needs its own model_id');
