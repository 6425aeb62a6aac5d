import { describe, expect, it } from 'vitest';
import { DEFAULT_GPU_BUDGET_MB, defaultWebLlmRoster } from '../../../../src/llm/roster';
import {
  bytesText,
  cacheText,
  gpuBudgetOf,
  rosterModelRows,
  shownRoster,
  persistenceText,
  storageSplitText,
  storageText,
  vramText,
} from '../../../../src/ui/settings/settings-model';
import { parseGpuBudget } from '../../../../src/llm/engines/webllm-engine-kind';

describe('bytesText and storageText', () => {
  it('writes MB below 1 GB and GB from 1 GB (binary units)', () => {
    expect(bytesText(0)).toBe('0.0 MB');
    // 12 897 485 / 1 048 576 = 12.30… MB
    expect(bytesText(12_897_485)).toBe('12.3 MB');
    // 1 610 612 736 = 1.5 × 2^30
    expect(bytesText(1_610_612_736)).toBe('1.50 GB');
    expect(bytesText(1024 ** 3)).toBe('1.00 GB');
  });

  it('says what is used of the quota, or which figure is missing', () => {
    expect(storageText({ usage: 12_897_485, quota: 1_610_612_736 })).toBe('Using 12.3 MB of 1.50 GB the browser allows Assay.');
    expect(storageText({ usage: 1_048_576 })).toBe('Using 1.0 MB (the browser gives no quota).');
    expect(storageText({})).toBe('The browser gives no storage figures.');
  });
});

describe('storageSplitText and persistenceText', () => {
  it("splits Chromium's usage into models (Cache Storage) and the dataset (IndexedDB)", () => {
    // 1 288 490 189 / 2^30 = 1.20 GB; 26 528 972 / 2^20 = 25.3 MB
    expect(storageSplitText({ usage: 1_315_019_161, usageDetails: { caches: 1_288_490_189, indexedDB: 26_528_972 } })).toBe(
      'Models: 1.20 GB · papers, runs and dataset: 25.3 MB.',
    );
    // A kind with nothing stored is left out of usageDetails.
    expect(storageSplitText({ usage: 3_145_728, usageDetails: { indexedDB: 3_145_728 } })).toBe(
      'Models: 0.0 MB · papers, runs and dataset: 3.0 MB.',
    );
    expect(storageSplitText({ usage: 3_145_728, quota: 1e9 })).toBeNull();
  });

  it("explains the browser's answer to Assay's last request", () => {
    const refused = { occasion: 'first-rows' as const, askedAt: '2026-11-29T10:30:00.000Z', granted: false };
    expect(persistenceText(null, refused)).toBe('Whether your data is kept is not known yet.');
    expect(persistenceText(false, null)).toMatch(
      /^Persistent storage is off: .* Assay asks for it when a model download starts and when your dataset gets its first rows\.$/,
    );
    expect(persistenceText(false, refused)).toContain(
      'Assay asked on 2026-11-29, when rows were saved to your dataset, and the browser said no: Chromium decides from how much you use Assay',
    );
    expect(persistenceText(true, { occasion: 'model-download', askedAt: '2026-11-28T08:00:00.000Z', granted: true })).toBe(
      'Persistent storage is on: the browser will not clear your dataset or downloaded models to free space. It was granted on 2026-11-28, when a model download started.',
    );
    // Persistent without Assay's asking (e.g. granted before the record was kept): no story to tell.
    expect(persistenceText(true, refused)).toBe(
      'Persistent storage is on: the browser will not clear your dataset or downloaded models to free space.',
    );
    expect(persistenceText(false, { ...refused, granted: true })).toContain('has been taken back since');
  });
});

describe('rosterModelRows', () => {
  it('lists each model once with its roles and its cache status', () => {
    const roster = defaultWebLlmRoster(true);
    const rows = rosterModelRows(roster, [
      { modelId: 'gemma-2-2b-it-q4f16_1-MLC', cached: true, vramMB: 1895.3, requiresF16: true, loaded: true } as never,
      { modelId: 'Qwen2.5-1.5B-Instruct-q4f16_1-MLC', cached: false, vramMB: 1629.75 },
    ]);
    expect(rows).toEqual([
      { modelId: 'Qwen2.5-1.5B-Instruct-q4f16_1-MLC', roles: 'proposer 1, generator', vramMB: 1629.75, cached: false, loaded: false },
      { modelId: 'Llama-3.2-1B-Instruct-q4f16_1-MLC', roles: 'proposer 2', vramMB: null, cached: null, loaded: false },
      { modelId: 'gemma-2-2b-it-q4f16_1-MLC', roles: 'proposer 3, aggregator, discriminator', vramMB: 1895.3, cached: true, loaded: true },
    ]);
    expect(vramText(1895.3)).toBe('1895 MB of GPU memory');
    expect(vramText(null)).toBe('size unknown');
    expect([cacheText(true), cacheText(false), cacheText(null), cacheText(true, true)]).toEqual([
      'Downloaded',
      'Not downloaded',
      'Checking…',
      'Downloaded, loaded on the GPU',
    ]);
  });
});

describe('shownRoster and the GPU budget', () => {
  it('shows the reader’s WebLLM roster, else the default for the adapter', () => {
    const own = { proposers: ['a'], aggregator: 'a', generator: 'a', discriminator: 'a' };
    expect(shownRoster({ kind: 'webllm', roster: own }, true)).toEqual({ roster: own, own: true });
    expect(shownRoster({ kind: 'webllm' }, false)).toEqual({ roster: defaultWebLlmRoster(false), own: false });
    expect(shownRoster({ kind: 'openai', baseUrl: 'http://127.0.0.1:11434/v1', roster: own }, true)).toEqual({
      roster: defaultWebLlmRoster(true),
      own: false,
    });
  });

  it('reads the budget from the engine with the default 6144 MB', () => {
    expect(gpuBudgetOf({ kind: 'webllm' })).toBe(DEFAULT_GPU_BUDGET_MB);
    expect(gpuBudgetOf({ kind: 'webllm', gpuBudgetMB: 3072 })).toBe(3072);
  });

  it('accepts whole MB from 256', () => {
    expect(parseGpuBudget(' 4096 ')).toEqual({ ok: true, megabytes: 4096 });
    expect(parseGpuBudget('256')).toEqual({ ok: true, megabytes: 256 });
    expect(parseGpuBudget('255').ok).toBe(false);
    expect(parseGpuBudget('4.5').ok).toBe(false);
    expect(parseGpuBudget('').ok).toBe(false);
  });
});
