/**
 * Markdown tables for humans (`assay eval` without `--json`, and the README's side-by-side
 * table of replayed tools). Ratios print as percentages with one decimal; strict columns come
 * first (the headline), the lenient P/R/F1 after them.
 */
import type { ConditionsFigure } from './scored-triplets';
import type { ModeFigures } from './triplet-scorer';

/** One row of a comparison table. */
export interface ScoreRow {
  /** What produced the predictions: a replay name or an engine. */
  name: string;
  version: string;
  n: number;
  strict: ModeFigures;
  lenient: ModeFigures;
  /** Engines only: share of produced triplets that ground; "–" in the table otherwise. */
  groundingRate?: number;
  /** Truths named with a condition qualifier and how many were matched strictly (issue 26); "–" when absent. */
  conditions?: ConditionsFigure;
}

/** "0.4567" → "45.7". */
export function percent(ratio: number): string {
  return (100 * ratio).toFixed(1);
}

/**
 * A Markdown table: one line per row — counts, strict P/R/F1 at 0.1% with strict F1 at 1% and
 * 10%, lenient P/R/F1 at 0.1%, the grounding rate, and the truths named with a condition
 * qualifier matched strictly ("11/36").
 */
export function scoreTable(rows: readonly ScoreRow[]): string {
  const lines = [
    '| tool | version | papers | predictions | truths | strict matched | strict P % | strict R % | strict F1 % (0.1%) | strict F1 % (1%) | strict F1 % (10%) | lenient matched | lenient P % | lenient R % | lenient F1 % | grounded % | with conditions matched |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const { name, version, n, strict, lenient, groundingRate, conditions } of rows) {
    const withConditions = conditions && conditions.truths > 0 ? `${conditions.matched}/${conditions.truths}` : '–';
    lines.push(
      `| ${name} | ${version} | ${n} | ${strict.predictions} | ${strict.truths} | ${strict.matched} | ${percent(strict.precision)} | ${percent(strict.recall)} | ${percent(strict.f1)} | ${percent(strict.f1At['1%'])} | ${percent(strict.f1At['10%'])} | ${lenient.matched} | ${percent(lenient.precision)} | ${percent(lenient.recall)} | ${percent(lenient.f1)} | ${groundingRate === undefined ? '–' : percent(groundingRate)} | ${withConditions} |`,
    );
  }
  return lines.join('\n') + '\n';
}
