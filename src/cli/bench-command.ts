/**
 * `assay bench`: timings anyone can reproduce, kept out of pass/fail tests. For each sample
 * paper from the shared fixtures it reports the capture time (file → Article, including DOM or
 * PDF parsing) and the median of repeated `scanArticle` and `extractWithRules` runs — the work
 * the extension does on every captured page, with no model.
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { extractWithRules } from '../extract/rules';
import { resolveDataRoot } from '../eval/data-root';
import { scanArticle } from '../text/scan';
import { captureFile } from './capture-command';

/** Fixture papers timed by default: the largest HTML page, a full-text XML, a two-column PDF. */
export const BENCH_SAMPLES = [
  'fixtures/acs/chp__Toland.et.al.2023_acs.jpca.3c05870.html',
  'fixtures/elsevier/html-legacy/norma__j.ympev.2014.10.009_fulltext.html',
  'fixtures/aps/xml/limesoup__10.1103_PhysRevB.90.214101.xml',
  'fixtures/pdf/iop/limesoup__cm_28_9_094014.pdf',
];

export interface BenchFigure {
  name: string;
  value: number;
  unit: string;
}

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

/** `assay bench [--data DIR] [--runs N] [--json] [file …]`. Returns the exit code. */
export async function runBench(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options: { json: { type: 'boolean' }, data: { type: 'string' }, runs: { type: 'string' } } });
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
  const files = parsed.positionals.length ? parsed.positionals : BENCH_SAMPLES.map((sample) => join(dataRoot, sample));
  const figures: BenchFigure[] = [];
  for (const file of files) {
    const name = file.split('/').pop() ?? file;
    process.stderr.write(`assay bench: ${name}\n`);
    try {
      const started = performance.now();
      const article = await captureFile(file);
      figures.push({ name: `capture ${name}`, value: round(performance.now() - started), unit: 'ms' });
      figures.push({ name: `article length ${name}`, value: article.text.length, unit: 'characters' });
      figures.push({ name: `scan ${name} (median of ${runs})`, value: round(medianMilliseconds(() => scanArticle(article), runs)), unit: 'ms' });
      figures.push({ name: `rules extraction ${name} (median of ${runs})`, value: round(medianMilliseconds(() => extractWithRules(article), runs)), unit: 'ms' });
    } catch (error) {
      process.stderr.write(`assay bench: ${file}: ${(error as Error).message}\n`);
      return 1;
    }
  }
  const machine = `${process.platform} ${process.arch}, Node ${process.versions.node}`;
  if (parsed.values.json) process.stdout.write(JSON.stringify({ machine, figures }) + '\n');
  else process.stdout.write([`machine: ${machine}`, ...figures.map((figure) => `${figure.name}: ${figure.value} ${figure.unit}`)].join('\n') + '\n');
  return 0;
}

function round(milliseconds: number): number {
  return Math.round(milliseconds * 10) / 10;
}
