/**
 * `assay bench`: timings anyone can reproduce, kept out of pass/fail tests. For each sample
 * paper from the shared fixtures it reports the capture time (file → Article, including DOM or
 * PDF parsing) and the median of repeated `scanArticle` and `extractWithRules` runs — the work
 * the extension does on every captured page, with no model. `--presets`: LLM calls, tokens and
 * model loads per paper of the SLM-MATRIX presets on the bandgap-200 dev papers, worst and best
 * case (see src/bench/bench-presets.ts).
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { BenchFigure } from '../bench/bench-figure';
import { extractWithRules } from '../extract/rules';
import { resolveDataRoot } from '../eval/data-root';
import { loadPropertySchemas } from '../properties';
import { buildArticleIndex } from '../text/article-index';
import { scanArticle } from '../text/scan';
import { captureFile } from './capture-command';

/** Fixture papers timed by default: the largest HTML page, a full-text XML, a two-column PDF. */
export const BENCH_SAMPLES = [
  'fixtures/acs/chp__Toland.et.al.2023_acs.jpca.3c05870.html',
  'fixtures/elsevier/html-legacy/norma__j.ympev.2014.10.009_fulltext.html',
  'fixtures/aps/xml/limesoup__10.1103_PhysRevB.90.214101.xml',
  'fixtures/pdf/iop/limesoup__cm_28_9_094014.pdf',
];

/** Median of `runs` timings of `work`, in milliseconds (one untimed warm-up run first). */
export function medianMilliseconds(work: () => unknown, runs: number): number {
  work();
  const times: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const started = performance.now();
    work();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] ?? Number.NaN;
}

/** The bandgap-200 dev papers (`text-pub/*.txt`) in index order, the first `limit`. */
export async function bandgapPaperFiles(dataRoot: string, limit?: number): Promise<string[]> {
  const folder = join(dataRoot, 'datasets', 'bandgap-200', 'text-pub');
  const names = (await readdir(folder)).filter((name) => name.endsWith('.txt'));
  names.sort((a, b) => Number.parseInt(a, 10) - Number.parseInt(b, 10) || a.localeCompare(b));
  return names.slice(0, limit ?? names.length).map((name) => join(folder, name));
}

/**
 * `--presets`: the `paper` and `browser` presets × worst and best case × before (scan passage)
 * and after (retrieval) on each paper of `files`, band gap only. → the figures of
 * `presetFigures`, one block per preset, case and reading.
 */
export async function presetBenchFigures(files: readonly string[], progress: (line: string) => void = () => {}): Promise<BenchFigure[]> {
  const [{ benchPresetOnArticle, createPresetBenchContext, presetFigures }, { MATRIX_PRESETS }, { selectPropertySchemas }] =
    await Promise.all([import('../bench/bench-presets'), import('../matrix/presets'), import('../properties')]);
  const [bandGap] = selectPropertySchemas(loadPropertySchemas(), ['band_gap']);
  if (!bandGap) throw new Error('the band_gap property schema is missing');
  const articles = [];
  for (const file of files) articles.push(await captureFile(file));
  const figures: BenchFigure[] = [];
  const context = await createPresetBenchContext();
  for (const preset of [MATRIX_PRESETS.paper, MATRIX_PRESETS.browser]) {
    for (const scenario of ['worst', 'best'] as const) {
      for (const reading of ['before', 'after'] as const) {
        progress(`${preset.name} preset, ${scenario} case, ${reading}, ${articles.length} papers`);
        const costs = [];
        for (const article of articles) costs.push(await benchPresetOnArticle(article, preset, bandGap, scenario, context, reading));
        figures.push(...presetFigures(preset.name, scenario, costs, reading));
      }
    }
  }
  return figures;
}

/** `assay bench [--data DIR] [--runs N] [--json] [file …]` or `assay bench --presets [--data DIR] [--limit N] [--json]`. Returns the exit code. */
export async function runBench(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        json: { type: 'boolean' },
        data: { type: 'string' },
        runs: { type: 'string' },
        presets: { type: 'boolean' },
        limit: { type: 'string' },
      },
    });
  } catch (error) {
    process.stderr.write(`assay bench: ${(error as Error).message}\n`);
    return 2;
  }
  const runs = Number(parsed.values.runs ?? 7);
  if (!Number.isInteger(runs) || runs < 1) {
    process.stderr.write('assay bench: --runs takes a whole number ≥ 1\n');
    return 2;
  }
  const dataRoot = resolveDataRoot(parsed.values.data);
  const machine = `${process.platform} ${process.arch}, Node ${process.versions.node}`;
  const print = (figures: BenchFigure[]): void => {
    if (parsed.values.json) process.stdout.write(JSON.stringify({ machine, figures }) + '\n');
    else
      process.stdout.write(
        [`machine: ${machine}`, ...figures.map((figure) => `${figure.name}: ${figure.value} ${figure.unit}`)].join('\n') + '\n',
      );
  };
  if (parsed.values.presets) {
    const limit = parsed.values.limit === undefined ? undefined : Number(parsed.values.limit);
    if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) {
      process.stderr.write('assay bench: --limit takes a whole number ≥ 1\n');
      return 2;
    }
    try {
      const files = parsed.positionals.length ? parsed.positionals : await bandgapPaperFiles(dataRoot, limit);
      print(await presetBenchFigures(files, (line) => process.stderr.write(`assay bench: ${line}\n`)));
      return 0;
    } catch (error) {
      process.stderr.write(`assay bench: ${(error as Error).message}\n`);
      return 1;
    }
  }
  const files = parsed.positionals.length ? parsed.positionals : BENCH_SAMPLES.map((sample) => join(dataRoot, sample));
  const figures: BenchFigure[] = [];
  const catalogue = loadPropertySchemas();
  for (const file of files) {
    const name = file.split('/').pop() ?? file;
    process.stderr.write(`assay bench: ${name}\n`);
    try {
      const started = performance.now();
      const article = await captureFile(file);
      figures.push({ name: `capture ${name}`, value: round(performance.now() - started), unit: 'ms' });
      figures.push({ name: `article length ${name}`, value: article.text.length, unit: 'characters' });
      figures.push({
        name: `scan ${name} (median of ${runs})`,
        value: round(medianMilliseconds(() => scanArticle(buildArticleIndex(article, catalogue)), runs)),
        unit: 'ms',
      });
      figures.push({
        name: `rules extraction ${name} (median of ${runs})`,
        value: round(medianMilliseconds(() => extractWithRules(article), runs)),
        unit: 'ms',
      });
    } catch (error) {
      process.stderr.write(`assay bench: ${file}: ${(error as Error).message}\n`);
      return 1;
    }
  }
  print(figures);
  return 0;
}

function round(milliseconds: number): number {
  return Math.round(milliseconds * 10) / 10;
}
