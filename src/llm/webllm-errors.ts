/**
 * Turning WebLLM / WebGPU failures into `LlmError`s with a specific code and words a person can
 * act on. WebLLM throws named Error classes (WebGPUNotAvailableError, ShaderF16SupportError,
 * DeviceLostError, …) and plain Errors from fetch and the TVM runtime; matching is by
 * `error.name` first, then by message patterns, because the classes are not exported stably
 * across versions and errors crossing a worker boundary keep only name and message.
 */
import { LlmError } from './llm-port';
import { NO_SHADER_F16_ADVICE, NO_WEBGPU_ADVICE } from './webgpu-capability';

/** Where the failure happened: while loading weights/compiling, or while generating. */
export type WebLlmPhase = 'load' | 'generate';

/** The f32 sibling of an f16 model id (`…-q4f16_1-MLC` → `…-q4f32_1-MLC`, `q0f16` → `q0f32`), or undefined. */
export function f32VariantOf(modelId: string): string | undefined {
  const variant = modelId.replace(/q(\d)f16(_\d)?/, (_match, bits: string, suffix: string | undefined) => `q${bits}f32${suffix ?? ''}`);
  return variant === modelId ? undefined : variant;
}

/** The no-shader-f16 error for `modelId`, naming its f32 variant when `knownModelIds` has it. */
export function noShaderF16Error(modelId: string, knownModelIds: readonly string[]): LlmError {
  const variant = f32VariantOf(modelId);
  const offer = variant && knownModelIds.includes(variant) ? `: choose ${variant} instead` : ': choose an f32 model (q4f32_1)';
  return new LlmError('no-shader-f16', `${modelId} needs shader-f16, but ${NO_SHADER_F16_ADVICE.replace(/: choose.*$/, '')}${offer}.`);
}

const describe = (error: unknown): { name: string; message: string } =>
  error instanceof Error ? { name: error.name, message: error.message } : { name: '', message: String(error) };

/** The file, expected and actual hashes of WebLLM's `IntegrityError` (its fields, else read from its message). */
function integrityFailure(error: unknown, message: string): { url: string; expected: string; actual: string } {
  const fields = (error ?? {}) as { url?: unknown; expected?: unknown; actual?: unknown };
  const read = (field: unknown, pattern: RegExp) => (typeof field === 'string' ? field : (pattern.exec(message)?.[1] ?? '(unknown)'));
  return {
    url: read(fields.url, /verification failed for (\S+)/),
    expected: read(fields.expected, /Expected:\s*(\S+)/),
    actual: read(fields.actual, /Actual:\s*(\S+)/),
  };
}

/**
 * The words for a model file that failed its integrity check while loading `modelId` (the first
 * model of the load): which file, the hash it should have and the one it has, and that it was not used.
 */
export function integrityError(modelId: string, failure: { url: string; expected: string; actual: string }): LlmError {
  return new LlmError(
    'integrity-failed',
    `Loading ${modelId} stopped: the model file ${failure.url} does not match the hash it is pinned to (expected ${failure.expected}, got ${failure.actual}), so it was not used. ` +
      'The file was changed where it is served, damaged on the way, or tampered with. If you built or replaced it yourself, put its new hash in your model’s record; otherwise do not use it.',
  );
}

/**
 * Map any error thrown by a WebLLM engine to an `LlmError`:
 * a file whose hash does not match its `integrity` (WebLLM's `IntegrityError`) → 'integrity-failed',
 * naming the file and both hashes; no WebGPU → 'no-webgpu' (how to enable it); shader-f16 missing → 'no-shader-f16' (the f32
 * variant); out-of-memory or a device lost while loading (WebLLM's own diagnosis: OOM) →
 * 'out-of-gpu-memory'; a fetch/cache failure → 'download-failed' (retry resumes from the cached
 * shards); device lost while generating → 'device-lost' (reload the engine and resume);
 * AbortError → 'aborted'; anything else → 'unavailable' with the original message.
 */
export function toWebLlmError(
  error: unknown,
  context: { phase: WebLlmPhase; modelId: string; knownModelIds?: readonly string[] },
): LlmError {
  if (error instanceof LlmError) return error;
  const { name, message } = describe(error);
  const text = `${name}: ${message}`;
  if (name === 'IntegrityError' || /^Integrity verification failed for /.test(message))
    return integrityError(context.modelId, integrityFailure(error, message));
  if (name === 'ContextWindowSizeExceededError' || /exceed context window/i.test(message))
    return new LlmError(
      'unavailable',
      `The prompt is longer than ${context.modelId}'s context window (${message.split('\n')[0]}): choose a model with a longer context window, or the browser preset, whose passages are shorter.`,
    );
  if (name === 'AbortError' || /\baborted\b/i.test(message))
    return new LlmError('aborted', `Loading or running ${context.modelId} was cancelled.`);
  if (
    /WebGPUNotAvailableError|WebGPUNotFoundError/.test(name) ||
    /Cannot find WebGPU|WebGPU is not supported|Unable to find a compatible GPU/i.test(message)
  ) {
    return new LlmError('no-webgpu', `${NO_WEBGPU_ADVICE} (${message})`);
  }
  if (name === 'ShaderF16SupportError' || /shader-f16/i.test(message))
    return noShaderF16Error(context.modelId, context.knownModelIds ?? []);
  if (/out of memory|\bOOM\b|allocation failed|Failed to allocate|maxBufferSize|maxStorageBufferBindingSize/i.test(text)) {
    return new LlmError('out-of-gpu-memory', outOfMemoryMessage(context.modelId, message));
  }
  if (name === 'DeviceLostError' || /device (was )?lost/i.test(message)) {
    return context.phase === 'load'
      ? new LlmError('out-of-gpu-memory', outOfMemoryMessage(context.modelId, message))
      : new LlmError(
          'device-lost',
          `The GPU device was lost while running ${context.modelId} (${message}); reload the engine and resume the run.`,
        );
  }
  if (
    /fetch|network|Cannot fetch|NetworkError|ERR_|Load failed|status\s*\d{3}|\b(404|403|5\d\d)\b|cache/i.test(text) ||
    (name === 'TypeError' && context.phase === 'load')
  ) {
    return new LlmError('download-failed', `Model download failed (${context.modelId}: ${message}); retry resumes from the cached shards.`);
  }
  return new LlmError('unavailable', `The WebLLM engine failed on ${context.modelId}: ${message}`);
}

function outOfMemoryMessage(modelId: string, detail: string): string {
  return `Not enough GPU memory for ${modelId} (${detail}): close other GPU-heavy tabs, or choose a smaller model or a shorter context.`;
}
