/**
 * `estimateBatch` (assay extract … --estimate): counts papers, pages and characters of a folder
 * of hand-written papers, and its calls and tokens are the preset bench's, summed — with no
 * model called.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { benchPresetOnArticle, createPresetBenchContext, type PresetBenchContext } from '../../../src/bench/bench-presets';
import { estimateBatch, estimateModels, formatEstimate, type BatchEstimate } from '../../../src/cli/batch/batch-estimate';
import { captureFile } from '../../../src/cli/capture-command';
import type { Article } from '../../../src/contracts/article';
import { BROWSER_PRESET, PAPER_PRESET } from '../../../src/matrix/presets';
import { loadPropertySchemas, selectPropertySchemas } from '../../../src/properties';
import { sharedDataSkipReason, sharedPath } from '../../support/shared-data';
import { minimalPdf } from '../capture/pdf/minimal-pdf';

const properties = selectPropertySchemas(loadPropertySchemas(), ['band_gap', 'bulk_modulus']);
const bandGapOnly = properties.filter((property) => property.name === 'band_gap');

const METHODS = 'Samples were grown by chemical vapour deposition on sapphire and annealed in nitrogen before the measurements were made. ';
const PAPERS: Record<string, string> = {
  'gan.txt': `Optical properties of wurtzite GaN\n\nThe band gap of GaN is 3.4 eV at room temperature. ${METHODS}\n\nNanoindentation gives a bulk modulus of 210 GPa for GaN.\n`,
  'zno.txt': `Excitons in ZnO films\n\nWe find a band gap of 3.37 eV for ZnO at 300 K. ${METHODS.repeat(3)}\n`,
  'nothing.txt': `A paper on nothing in particular\n\n${'The samples were prepared and measured as described in the methods section. '.repeat(8)}\n`,
  'empty.txt': '',
};

let folder: string;
let files: string[];
let pdfFile: string;

beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'assay-batch-estimate-'));
  for (const [name, text] of Object.entries(PAPERS)) writeFileSync(join(folder, name), text);
  pdfFile = join(folder, 'cdte.pdf');
  writeFileSync(
    pdfFile,
    minimalPdf({
      pages: [
        [
          { text: 'Absorption edge of CdTe thin films', x: 72, y: 720, size: 18 },
          { text: 'The optical band gap of CdTe is 1.5 eV, from the absorption edge of the films.', x: 72, y: 660 },
        ],
        [{ text: 'The films were deposited by close-spaced sublimation on glass.', x: 72, y: 700 }],
      ],
    }),
  );
  files = [...Object.keys(PAPERS).map((name) => join(folder, name)), pdfFile];
});

// No model may be called: the only network a model engine reaches is through fetch.
beforeEach(() => {
  vi.spyOn(globalThis, 'fetch').mockImplementation(() => {
    throw new Error('the estimate called a model');
  });
});
afterEach(() => vi.restoreAllMocks());

/** The articles of the files capture reads (all but the empty one). */
async function readable(paths: readonly string[]): Promise<Article[]> {
  const articles: Article[] = [];
  for (const path of paths)
    await captureFile(path).then(
      (article) => articles.push(article),
      () => undefined,
    );
  return articles;
}

describe('estimateBatch', () => {
  let bench: PresetBenchContext;
  let articles: Article[];
  beforeAll(async () => {
    bench = await createPresetBenchContext();
    articles = await readable(files);
  }, 60_000);

  it('counts papers, unreadable files, PDF pages and characters', async () => {
    const estimate = await estimateBatch(files, { preset: PAPER_PRESET, models: PAPER_PRESET.models, properties: bandGapOnly });
    expect(estimate).toMatchObject({
      papers: 5,
      readable: 4,
      unreadable: [{ file: join(folder, 'empty.txt'), code: 'empty' }],
      pages: 2,
      pagedPapers: 1,
      characters: articles.reduce((total, article) => total + article.text.length, 0),
      preset: 'paper',
      tokens: 'exact',
      papersWithoutCandidates: 1,
    });
    expect(estimate.characters).toBeGreaterThan(PAPERS['gan.txt']!.length);
    expect(estimate.seconds).toBeGreaterThan(0);
    expect(globalThis.fetch).not.toHaveBeenCalled();
  }, 60_000);

  for (const preset of [PAPER_PRESET, BROWSER_PRESET]) {
    it(`${preset.name} preset: calls and tokens are the bench's, summed over papers and properties; best ≤ worst`, async () => {
      const progress: Array<[number, number]> = [];
      const estimate = await estimateBatch(files, {
        preset,
        models: preset.models,
        properties,
        concurrency: 3,
        onPaper: (done, total) => progress.push([done, total]),
      });
      const expected = { calls: { best: 0, worst: 0 }, promptTokens: { best: 0, worst: 0 }, completionTokens: { best: 0, worst: 0 } };
      for (const article of articles)
        for (const property of properties)
          for (const scenario of ['best', 'worst'] as const) {
            const cost = await benchPresetOnArticle(article, preset, property, scenario, bench);
            expected.calls[scenario] += cost.calls;
            expected.promptTokens[scenario] += cost.promptTokens;
            expected.completionTokens[scenario] += cost.completionTokens;
          }
      expect(estimate).toMatchObject(expected);
      expect(estimate.calls.best).toBeGreaterThan(0);
      for (const figure of ['calls', 'promptTokens', 'completionTokens'] as const)
        expect(estimate[figure].best, figure).toBeLessThan(estimate[figure].worst);
      expect(progress).toEqual([1, 2, 3, 4, 5].map((done) => [done, 5]));
      // The browser preset names no models: the estimate counts the WebLLM roster's, as the bench does.
      expect(estimate.models).toEqual(
        preset.name === 'paper'
          ? [
              'Qwen/Qwen2.5-7B-Instruct',
              'mistralai/Mistral-7B-Instruct-v0.3',
              'google/gemma-2-9b-it',
              'meta-llama/Llama-3.2-11B-Vision-Instruct',
              'meta-llama/Llama-3.1-8B-Instruct',
            ]
          : bench.roster.proposers,
      );
      expect(estimate.tokens).toBe('exact');
    }, 120_000);
  }

  it('counts with the models given; a model with no known tokenizer makes the tokens estimated', async () => {
    const models = { ...PAPER_PRESET.models, proposers: ['my-lab/own-model-7b', 'Qwen/Qwen2.5-7B-Instruct'] };
    const estimate = await estimateBatch([join(folder, 'gan.txt')], { preset: PAPER_PRESET, models, properties: bandGapOnly });
    expect(estimate.models).toEqual([
      'my-lab/own-model-7b',
      'Qwen/Qwen2.5-7B-Instruct',
      'meta-llama/Llama-3.2-11B-Vision-Instruct',
      'meta-llama/Llama-3.1-8B-Instruct',
    ]);
    expect(estimate.tokens).toBe('estimated');
    const defaults = await benchPresetOnArticle(articles[0]!, PAPER_PRESET, bandGapOnly[0]!, 'worst', bench);
    expect(estimate.calls.worst).toBe(defaults.calls);
    expect(estimate.promptTokens.worst).not.toBe(defaults.promptTokens);
  }, 60_000);

  it('stops when the signal fires', async () => {
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(
      estimateBatch(files, { preset: BROWSER_PRESET, models: {}, properties: bandGapOnly, signal: controller.signal }),
    ).rejects.toThrow('stop');
  });

  it.skipIf(sharedDataSkipReason())(
    'counts the pages of a real PDF (2 in its page tree)',
    async () => {
      const pdf = sharedPath('fixtures', 'pdf', 'supercon', 'supermat__PHC3410729-CC.pdf');
      const estimate = await estimateBatch([pdf], { preset: BROWSER_PRESET, models: {}, properties: bandGapOnly });
      expect(estimate).toMatchObject({ readable: 1, pages: 2, pagedPapers: 1 });
    },
    60_000,
  );
});

describe('estimateModels', () => {
  it("fills the roles not given from the preset's models, then the WebLLM roster", () => {
    expect(estimateModels(PAPER_PRESET, { generator: 'llama3.1:8b' })).toEqual({ ...PAPER_PRESET.models, generator: 'llama3.1:8b' });
    expect(estimateModels(BROWSER_PRESET, { aggregator: 'qwen2.5:7b' })).toEqual({
      proposers: ['Qwen2.5-1.5B-Instruct-q4f16_1-MLC', 'Llama-3.2-1B-Instruct-q4f16_1-MLC', 'gemma-2-2b-it-q4f16_1-MLC'],
      aggregator: 'qwen2.5:7b',
      generator: 'Qwen2.5-1.5B-Instruct-q4f16_1-MLC',
      discriminator: 'gemma-2-2b-it-q4f16_1-MLC',
    });
  });
});

describe('formatEstimate', () => {
  const estimate: BatchEstimate = {
    papers: 120,
    readable: 117,
    unreadable: [
      { file: 'a.pdf', code: 'no-text-layer', message: 'The PDF has no text layer.' },
      ...Array.from({ length: 6 }, (_, index) => ({ file: `b${index}.txt`, code: 'empty', message: 'The file is empty (0 bytes).' })),
    ].slice(0, 3),
    pages: 1432,
    pagedPapers: 100,
    characters: 4_250_000,
    preset: 'paper',
    models: ['Qwen/Qwen2.5-7B-Instruct', 'meta-llama/Llama-3.1-8B-Instruct'],
    tokens: 'exact',
    calls: { best: 2400, worst: 9800 },
    promptTokens: { best: 3_100_000, worst: 12_440_000 },
    completionTokens: { best: 150_000, worst: 980_000 },
    papersWithoutCandidates: 17,
    seconds: 12.34,
  };

  it('says papers, pages, preset and models, calls and tokens as best–worst ranges', () => {
    expect(formatEstimate(estimate).split('\n')).toEqual([
      '120 papers (3 unreadable), 1,432 PDF pages in 100 PDFs, 4,250,000 characters',
      'preset paper (Qwen/Qwen2.5-7B-Instruct, meta-llama/Llama-3.1-8B-Instruct)',
      '2,400–9,800 calls (best–worst case); 17 papers with nothing to read make none',
      '3.1–12.4 M prompt tokens (exact); at least 150,000–980,000 completion tokens (scripted replies: real models write more); repair calls not counted',
      'estimated in 12.3 s without calling a model',
      'unreadable: a.pdf: The PDF has no text layer. [no-text-layer]',
      'unreadable: b0.txt: The file is empty (0 bytes). [empty]',
      'unreadable: b1.txt: The file is empty (0 bytes). [empty]',
    ]);
  });

  it('names five unreadable files and counts the rest; says when there are no PDFs', () => {
    const many = {
      ...estimate,
      pagedPapers: 0,
      pages: 0,
      unreadable: Array.from({ length: 8 }, (_, index) => ({ file: `b${index}.txt`, code: 'empty', message: 'empty' })),
    };
    const lines = formatEstimate(many).split('\n');
    expect(lines[0]).toBe('120 papers (8 unreadable), no PDFs, 4,250,000 characters');
    expect(lines.filter((line) => line.startsWith('unreadable: '))).toHaveLength(5);
    expect(lines.at(-1)).toBe('… and 3 more unreadable');
  });
});
