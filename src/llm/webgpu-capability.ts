/**
 * WebGPU capability check for the WebLLM engine, without importing `@mlc-ai/web-llm`: it only
 * asks `navigator.gpu` for an adapter and reads its features and limits. Runs in any page or
 * worker; in Node (no `navigator.gpu`) it reports WebGPU unavailable.
 */
import type { WebGpuCapability } from '../contracts/messages';

/** The slice of a WebGPU adapter this module reads (the real `GPUAdapter` satisfies it). */
export interface GpuAdapterLike {
  features: { has(feature: string): boolean };
  limits: { maxBufferSize: number; maxStorageBufferBindingSize: number };
  /** Chrome 114+: a property; older builds: `requestAdapterInfo()`. */
  info?: { vendor?: string; architecture?: string; device?: string; description?: string };
  requestAdapterInfo?: () => Promise<{ vendor?: string; architecture?: string; device?: string; description?: string }>;
  isFallbackAdapter?: boolean;
}

/** The slice of `navigator` this module reads. */
export interface NavigatorLike {
  gpu?: { requestAdapter(options?: { powerPreference?: 'high-performance' | 'low-power' }): Promise<GpuAdapterLike | null> };
}

/**
 * Ask `navigatorLike.gpu` for a high-performance adapter and describe it:
 * `{ available: false, reason }` when there is no `navigator.gpu`, no adapter, or the request
 * throws; else `{ available: true, adapterInfo, shaderF16, maxBufferSize,
 * maxStorageBufferBindingSize, isFallbackAdapter }`. Never throws.
 */
export async function detectWebGpu(navigatorLike: NavigatorLike | undefined): Promise<WebGpuCapability> {
  const gpu = navigatorLike?.gpu;
  if (!gpu) return { available: false, reason: 'navigator.gpu is missing: this browser does not expose WebGPU' };
  let adapter: GpuAdapterLike | null;
  try {
    adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
  } catch (error) {
    return { available: false, reason: `requesting a WebGPU adapter failed: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (!adapter) return { available: false, reason: 'navigator.gpu.requestAdapter() returned no adapter (GPU blocked, disabled or absent)' };
  const info = adapter.info ?? (await adapter.requestAdapterInfo?.().catch(() => undefined)) ?? {};
  return {
    available: true,
    adapterInfo: {
      vendor: info.vendor ?? '',
      architecture: info.architecture ?? '',
      device: info.device ?? '',
      description: info.description ?? '',
    },
    shaderF16: adapter.features.has('shader-f16'),
    maxBufferSize: adapter.limits.maxBufferSize,
    maxStorageBufferBindingSize: adapter.limits.maxStorageBufferBindingSize,
    isFallbackAdapter: adapter.isFallbackAdapter ?? false,
  };
}

/** What to tell a person when WebGPU is missing. */
export const NO_WEBGPU_ADVICE =
  'WebGPU is not available in this browser: use Chrome/Edge 113+ (or another browser with WebGPU enabled), ' +
  'or enable chrome://flags/#enable-unsafe-webgpu (on Linux also chrome://flags/#enable-vulkan), then restart the browser.';

/** What to tell a person when the adapter lacks `shader-f16`. */
export const NO_SHADER_F16_ADVICE = 'this GPU adapter lacks shader-f16: choose an f32 model (q4f32_1)';

/**
 * The capability in words for the user: the no-WebGPU advice (with the reason), or the
 * adapter's name plus, when it lacks `shader-f16`, the f32 advice.
 */
export function describeWebGpu(capability: WebGpuCapability): string {
  if (!capability.available) return `${NO_WEBGPU_ADVICE} (${capability.reason})`;
  const { vendor, architecture, description } = capability.adapterInfo;
  const name = [description || vendor || 'unknown vendor', architecture].filter(Boolean).join(' / ');
  const fallback = capability.isFallbackAdapter ? ' (software fallback adapter: slow)' : '';
  const f16 = capability.shaderF16 ? 'supports shader-f16 (f16 and f32 models both run)' : NO_SHADER_F16_ADVICE;
  return `WebGPU is available on ${name}${fallback}; ${f16}.`;
}
