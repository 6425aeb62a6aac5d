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

/** Digest bytes per SRI algorithm (SHA-256, SHA-384, SHA-512 output sizes, FIPS 180-4). */
const SRI_DIGEST_BYTES: Record<string, number> = { sha256: 32, sha384: 48, sha512: 64 };

/**
 * True for one Subresource Integrity hash, `sha256-`, `sha384-` or `sha512-` then the standard
 * base64 of the digest (https://www.w3.org/TR/SRI/#the-integrity-attribute), whose decoded length
 * is the algorithm's digest size. The same rule as WebLLM's `isValidSRI` (web-llm 0.2.86
 * lib/integrity): a hash WebLLM would reject as malformed at load time is refused here, on entry.
 * SRI's lists of hashes and `?options` are not accepted (WebLLM checks one hash per file).
 */
export function isSriHash(text: string): boolean {
  const match = /^(sha256|sha384|sha512)-([A-Za-z0-9+/]+={0,2})$/.exec(text);
  if (!match) return false;
  const [, algorithm, digest] = match as unknown as [string, string, string];
  return base64ByteLength(digest) === SRI_DIGEST_BYTES[algorithm];
}

/** Bytes encoded by base64 `text` (padded or not), or undefined when its length or padding cannot be base64. */
function base64ByteLength(text: string): number | undefined {
  const padding = text.length - text.replace(/=+$/, '').length;
  const remainder = text.length % 4;
  if (remainder === 1 || padding > 2 || (padding > 0 && remainder !== 0)) return undefined;
  const full = Math.floor(text.length / 4) * 3;
  return padding > 0 ? full - padding : full + (remainder === 0 ? 0 : remainder - 1);
}

const SRI_MESSAGE =
  'must be an SRI hash: "sha256-", "sha384-" or "sha512-" then the base64 digest (e.g. `openssl dgst -sha256 -binary FILE | base64`)';

/** One SRI hash (`isSriHash`); 100 characters holds the longest, sha512's 95. */
export const SriHashSchema = z.string().max(100).refine(isSriHash, SRI_MESSAGE);

/**
 * The hashes WebLLM checks a model's files against before using them (WebLLM's `ModelIntegrity`,
 * web-llm >= 0.2.86; field names as WebLLM's): `config` for `mlc-chat-config.json`, `model_lib`
 * for the `.wasm` library, `tokenizer` per tokenizer file (WebLLM checks `tokenizer.json` and
 * `tokenizer.model`). Unknown keys are refused (a misspelt key would otherwise check nothing).
 * `onFailure`: WebLLM's `"warn"` logs a mismatch and loads the file anyway, so it is refused here;
 * Assay always sends `"error"` (`toModelRecord`, src/llm/webllm-catalogue.ts).
 */
export const ModelIntegritySchema = z.strictObject({
  config: SriHashSchema.optional(),
  model_lib: SriHashSchema.optional(),
  tokenizer: z.partialRecord(z.enum(['tokenizer.json', 'tokenizer.model']), SriHashSchema).optional(),
  onFailure: z
    .literal('error', { error: 'must be "error" or left out: Assay never loads a model file whose hash does not match' })
    .optional(),
});
export type ModelIntegrity = z.infer<typeof ModelIntegritySchema>;

/**
 * One custom model record. `model_id`: letters, digits, `.`, `_`, `-` (it names cache entries and
 * appears in run records), at most 128 characters. `model`: the folder holding
 * `mlc-chat-config.json`, `tensor-cache.json` and the weight shards (WebLLM appends
 * `resolve/main/` when the URL has no `/resolve/<branch>/`). `model_lib`: the compiled library
 * (`.wasm`), which must have been built for the WebLLM release the extension runs.
 * `vram_required_MB`: GPU memory for the weights and KV cache, for the load plan (roster.ts).
 * `context_window_size`: an override of the model's context window (tokens, 256–131072).
 * `integrity`: SRI hashes of the library, config and tokenizer (`ModelIntegritySchema`); a file
 * that does not match is refused at load time.
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
  integrity: ModelIntegritySchema.optional(),
});
export type CustomWebLlmModel = z.infer<typeof CustomWebLlmModelSchema>;

/** At most this many custom models in one settings object or message. */
export const MAX_CUSTOM_MODELS = 16;

export const CustomWebLlmModelsSchema = z
  .array(CustomWebLlmModelSchema)
  .max(MAX_CUSTOM_MODELS)
  .refine((models) => new Set(models.map((model) => model.model_id)).size === models.length, 'each custom model needs its own model_id');
