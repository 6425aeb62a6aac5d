import { describe, expect, it } from 'vitest';
import { defaultWebLlmRoster } from '../../../../src/llm/roster';
import { downloadText, estimatedDownloadMB, modelDownloads } from '../../../../src/ui/welcome/model-downloads';

describe('estimatedDownloadMB', () => {
  it('multiplies the parameters in the name by the bits per weight of the quantization', () => {
    // 1.5e9 × 4.5 bits / 8 = 843 750 000 bytes = 804.7 MiB
    expect(estimatedDownloadMB('Qwen2.5-1.5B-Instruct-q4f16_1-MLC')).toBe(805);
    // 360e6 × 5 / 8 = 225 000 000 bytes = 214.6 MiB
    expect(estimatedDownloadMB('SmolLM2-360M-Instruct-q4f32_1-MLC')).toBe(215);
    // lower-case "2b", as gemma names it: 2e9 × 4.5 / 8 bytes = 1072.9 MiB
    expect(estimatedDownloadMB('gemma-2-2b-it-q4f16_1-MLC')).toBe(1073);
    // unquantized f16 weights: 2 bytes per parameter
    expect(estimatedDownloadMB('Qwen2.5-0.5B-Instruct-q0f16-MLC')).toBe(954);
  });

  it('is null for an id without a size or a known quantization, never a guess', () => {
    expect(estimatedDownloadMB('my-own-model-q4f16_1-MLC')).toBeNull();
    expect(estimatedDownloadMB('Llama-3.2-1B-Instruct')).toBeNull();
    expect(estimatedDownloadMB('Llama-3.2-1B-Instruct-q8f16_9-MLC')).toBeNull();
  });
});

describe('modelDownloads', () => {
  it('lists each model of the default roster once, with its roles, and sums what is still to download', () => {
    const roster = defaultWebLlmRoster(true);
    const unknown = modelDownloads(roster);
    expect(unknown.rows.map((row) => row.modelId)).toEqual([
      'Qwen2.5-1.5B-Instruct-q4f16_1-MLC',
      'Llama-3.2-1B-Instruct-q4f16_1-MLC',
      'gemma-2-2b-it-q4f16_1-MLC',
    ]);
    expect(unknown.rows[2]!.roles).toBe('proposer 3, aggregator, discriminator');
    expect(unknown.totalDownloadMB).toBe(805 + 536 + 1073);

    const oneCached = modelDownloads(roster, [{ modelId: 'gemma-2-2b-it-q4f16_1-MLC', cached: true, vramMB: 1895.3 }]);
    expect(oneCached.totalDownloadMB).toBe(805 + 536);
    expect(oneCached.rows[2]).toMatchObject({ cached: true, vramMB: 1895.3 });
  });

  it('has no total when a model still to download has no estimate', () => {
    const roster = { proposers: ['mine-q4f16_1'], aggregator: 'mine-q4f16_1', generator: 'mine-q4f16_1', discriminator: 'mine-q4f16_1' };
    expect(modelDownloads(roster).totalDownloadMB).toBeNull();
  });
});

describe('downloadText', () => {
  it('says MB below a GB, GB with one decimal above, and "size unknown" for null', () => {
    expect(downloadText(805)).toBe('about 805 MB');
    expect(downloadText(2414)).toBe('about 2.4 GB');
    expect(downloadText(null)).toBe('size unknown');
  });
});
