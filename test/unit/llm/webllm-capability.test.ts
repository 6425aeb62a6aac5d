import { describe, expect, it } from 'vitest';
import { describeWebGpu, detectWebGpu, type GpuAdapterLike, type NavigatorLike } from '../../../src/llm/webgpu-capability';

function adapter(features: string[], extra: Partial<GpuAdapterLike> = {}): GpuAdapterLike {
  return {
    features: new Set(features),
    limits: { maxBufferSize: 1 << 30, maxStorageBufferBindingSize: 1 << 27 },
    info: { vendor: 'google', architecture: 'swiftshader', device: '', description: '' },
    ...extra,
  };
}
const navigatorWith = (found: GpuAdapterLike | null): NavigatorLike => ({ gpu: { requestAdapter: async () => found } });

describe('detectWebGpu', () => {
  it('reports no WebGPU when navigator.gpu is missing (Node, old browsers)', async () => {
    expect(await detectWebGpu({})).toEqual({ available: false, reason: expect.stringContaining('navigator.gpu is missing') });
    expect((await detectWebGpu(undefined)).available).toBe(false);
  });

  it('reports no WebGPU when no adapter is offered or the request throws', async () => {
    expect(await detectWebGpu(navigatorWith(null))).toEqual({ available: false, reason: expect.stringContaining('returned no adapter') });
    const throwing: NavigatorLike = { gpu: { requestAdapter: async () => Promise.reject(new Error('GPU process crashed')) } };
    expect(await detectWebGpu(throwing)).toEqual({ available: false, reason: expect.stringContaining('GPU process crashed') });
  });

  it('reads adapter info, shader-f16 and limits', async () => {
    expect(await detectWebGpu(navigatorWith(adapter([])))).toEqual({
      available: true,
      adapterInfo: { vendor: 'google', architecture: 'swiftshader', device: '', description: '' },
      shaderF16: false,
      maxBufferSize: 1073741824,
      maxStorageBufferBindingSize: 134217728,
      isFallbackAdapter: false,
    });
    const f16 = await detectWebGpu(navigatorWith(adapter(['shader-f16'])));
    expect(f16.available && f16.shaderF16).toBe(true);
  });

  it('falls back to requestAdapterInfo() on builds without adapter.info', async () => {
    const old = adapter([], { info: undefined, requestAdapterInfo: async () => ({ vendor: 'nvidia', architecture: 'ampere' }) });
    const found = await detectWebGpu(navigatorWith(old));
    expect(found.available && found.adapterInfo).toEqual({ vendor: 'nvidia', architecture: 'ampere', device: '', description: '' });
  });
});

describe('describeWebGpu', () => {
  it('tells how to enable WebGPU when it is missing', () => {
    const words = describeWebGpu({ available: false, reason: 'no adapter' });
    expect(words).toMatch(/^WebGPU is not available in this browser: use Chrome\/Edge 113\+/);
    expect(words).toContain('chrome://flags/#enable-unsafe-webgpu');
    expect(words).toContain('(no adapter)');
  });

  it('offers an f32 model when the adapter lacks shader-f16, and says nothing of it otherwise', async () => {
    const without = await detectWebGpu(navigatorWith(adapter([])));
    expect(describeWebGpu(without)).toBe(
      'WebGPU is available on google / swiftshader; this GPU adapter lacks shader-f16: choose an f32 model (q4f32_1).',
    );
    const withF16 = await detectWebGpu(navigatorWith(adapter(['shader-f16'])));
    expect(describeWebGpu(withF16)).not.toContain('lacks shader-f16');
  });
});
