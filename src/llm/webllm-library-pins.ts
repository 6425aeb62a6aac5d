/**
 * Pins for WebLLM's prebuilt model libraries. A model library (`.wasm`) is code: it runs in the
 * offscreen document, beside the reader's dataset. WebLLM's prebuilt list names each library on
 * the `main` branch of mlc-ai/binary-mlc-llm-libs, a branch that moves, with no integrity hash.
 * A pin names one library file, the commit of that repository that holds it, and the file's SRI
 * hash; `pinModelLibraries` rewrites a prebuilt record to fetch the file at that commit and gives
 * WebLLM the hash (`integrity.model_lib`, `onFailure: "error"`), so a file that differs is refused
 * (web-llm >= 0.2.86 checks it after every fetch and cache read; webllm-errors.ts words the refusal).
 *
 * Pure: the prebuilt list comes in as data, so this module never imports WebLLM.
 */
import { isSriHash } from '../contracts/webllm-model';
import { LlmError } from './llm-port';
import type { WebLlmModelRecord } from './webllm-adapter';

/** Where WebLLM's prebuilt libraries are published: web-llm's `modelLibURLPrefix` up to the branch. */
export const MODEL_LIBRARY_REPOSITORY = 'https://raw.githubusercontent.com/mlc-ai/binary-mlc-llm-libs/';

/** The folder of the web libraries in that repository (web-llm's `modelLibURLPrefix` after the branch). */
const WEB_LIBRARY_FOLDER = 'web-llm-models/';

/** One pinned library file. */
export interface LibraryPin {
  /**
   * The file's path under `web-llm-models/`, as WebLLM's prebuilt list names it, e.g.
   * "v0_2_86/base/Qwen2-0.5B-Instruct-q4f32_1_cs1k-webgpu.wasm". The first folder is the WebLLM
   * release the library was built for, so a WebLLM upgrade (new folder) leaves every library
   * unpinned until it is pinned again: a pin never carries over to a library it was not checked on.
   */
  library: string;
  /** The commit of mlc-ai/binary-mlc-llm-libs that holds the file (40 hex digits). */
  commit: string;
  /** The SRI hash of the file at that commit (`sha256-…`; `isSriHash`). */
  integrity: string;
}

/**
 * The pins of this build. EMPTY: the commit ids and hashes of the default roster's libraries
 * (roster.ts `defaultWebLlmRoster`; under web-llm 0.2.86, `v0_2_86/base/` +
 * Qwen2-1.5B-Instruct-q4f16_1_cs1k, Llama-3.2-1B-Instruct-q4f16_1_cs1k, gemma-2-2b-it-q4f16_1_cs1k,
 * Qwen2-0.5B-Instruct-q4f32_1_cs1k, SmolLM2-360M-Instruct-q4f32_1_cs1k and
 * Llama-3.2-1B-Instruct-q4f32_1_cs1k, each `-webgpu.wasm`) must be read from GitHub, which the
 * machine this was written on cannot reach; none is guessed here. To pin one: take the commit of
 * binary-mlc-llm-libs that holds the file, download the file at that commit, and hash it
 * (`openssl dgst -sha256 -binary FILE | base64`, prefixed `sha256-`).
 */
export const MODEL_LIBRARY_PINS: readonly LibraryPin[] = [];

/**
 * What loading a prebuilt model whose library has no hash does: `refuse` (an `LlmError`
 * 'integrity-failed' naming the model) or `allow` (loaded as today, from `main`, with a console
 * warning). `allow` while `MODEL_LIBRARY_PINS` is empty — `refuse` would stop every WebLLM model;
 * switch to `refuse` once the roster's libraries are pinned.
 */
export type UnpinnedLibraryPolicy = 'refuse' | 'allow';
export const UNPINNED_LIBRARY_POLICY: UnpinnedLibraryPolicy = 'allow';

/**
 * The path under `web-llm-models/` of a library URL on binary-mlc-llm-libs' `main` branch (as
 * WebLLM's prebuilt list names them), e.g. "v0_2_86/base/X-webgpu.wasm"; undefined for any other URL.
 */
export function prebuiltLibraryPath(modelLib: string): string | undefined {
  const prefix = `${MODEL_LIBRARY_REPOSITORY}main/${WEB_LIBRARY_FOLDER}`;
  return modelLib.startsWith(prefix) ? modelLib.slice(prefix.length) : undefined;
}

/** The URL of `pin`'s file at its commit. */
export function pinnedLibraryUrl(pin: LibraryPin): string {
  return `${MODEL_LIBRARY_REPOSITORY}${pin.commit}/${WEB_LIBRARY_FOLDER}${pin.library}`;
}

/**
 * Check a pin table: each pin names a `.wasm` path of plain segments (no `..`, no query), a
 * 40-hex-digit commit and an SRI hash, and each library is pinned once. Throws `Error` naming
 * the first bad pin (a broken table is a build mistake, found by the unit test on the real table).
 */
export function checkLibraryPins(pins: readonly LibraryPin[]): void {
  const seen = new Set<string>();
  for (const pin of pins) {
    const problem =
      !/^(?:[\w.-]+\/)*[\w.-]+\.wasm$/.test(pin.library) || pin.library.split('/').some((part) => /^\.+$/.test(part))
        ? 'the library must be a .wasm path under web-llm-models/'
        : !/^[0-9a-f]{40}$/.test(pin.commit)
          ? 'the commit must be 40 lower-case hex digits'
          : !isSriHash(pin.integrity)
            ? 'the integrity must be an SRI hash (sha256-…)'
            : seen.has(pin.library)
              ? 'the library is pinned twice'
              : undefined;
    if (problem) throw new Error(`Model library pin ${JSON.stringify(pin.library)}: ${problem}.`);
    seen.add(pin.library);
  }
}

/** The prebuilt records with their libraries pinned, and the ids of those that carry no library hash. */
export interface PinnedModelRecords<Record extends WebLlmModelRecord> {
  records: Record[];
  /** Ids of records whose library has neither a pin nor a hash from WebLLM's own list. */
  unpinned: ReadonlySet<string>;
}

/**
 * Pin WebLLM's prebuilt `records` with `pins` (`checkLibraryPins` first; throws as it does). A
 * record whose `model_lib` is a pinned library on `main` gets `model_lib` = the file at the pin's
 * commit and `integrity.model_lib` = the pin's hash. Every record with an `integrity` (a pin's, or
 * one WebLLM's own list gives) gets `onFailure: "error"`. A record whose library has no hash is
 * kept as it is and its id listed in `unpinned`.
 */
export function pinModelLibraries<Record extends WebLlmModelRecord>(
  records: readonly Record[],
  pins: readonly LibraryPin[],
): PinnedModelRecords<Record> {
  checkLibraryPins(pins);
  const byLibrary = new Map(pins.map((pin) => [pin.library, pin]));
  const unpinned = new Set<string>();
  const pinned = records.map((record): Record => {
    const library = record.model_lib === undefined ? undefined : prebuiltLibraryPath(record.model_lib);
    const pin = library === undefined ? undefined : byLibrary.get(library);
    const withPin: Record = pin
      ? { ...record, model_lib: pinnedLibraryUrl(pin), integrity: { ...record.integrity, model_lib: pin.integrity, onFailure: 'error' } }
      : record.integrity
        ? { ...record, integrity: { ...record.integrity, onFailure: 'error' } }
        : record;
    if (!withPin.integrity?.model_lib) unpinned.add(record.model_id);
    return withPin;
  });
  return { records: pinned, unpinned };
}

/**
 * Apply `policy` to a load of `modelIds`: under `refuse`, throw `LlmError('integrity-failed')`
 * naming the first model in `unpinned` (its library would be code from a moving branch, unchecked);
 * under `allow`, hand the unpinned ones to `warn` and return.
 */
export function checkPinnedLoad(
  modelIds: readonly string[],
  unpinned: ReadonlySet<string>,
  policy: UnpinnedLibraryPolicy,
  warn: (modelId: string) => void = (modelId) =>
    console.warn(`Assay: ${modelId}'s model library comes from binary-mlc-llm-libs' main branch, with no integrity hash.`),
): void {
  const open = modelIds.filter((modelId) => unpinned.has(modelId));
  if (open.length === 0) return;
  if (policy === 'refuse')
    throw new LlmError(
      'integrity-failed',
      `${open[0]} was not loaded: its model library (code that would run beside your dataset) is not pinned to a fixed version with an integrity hash in this build of Assay. Choose another model, or add your own model record with its "integrity" hash.`,
    );
  for (const modelId of open) warn(modelId);
}
