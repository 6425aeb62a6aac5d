/**
 * Markdown tables for humans (`assay eval` without `--json`, and the README's side-by-side
 * table of replayed tools). Ratios print as percentages with one decimal.
 */
import type { Counts } from './triplet-scorer';

/** One row of a comparison table. */
export interface ScoreRow extends Counts {
  /** What produced the predictions: a replay name or an engine. */
  name: string;
  version: string;
  n: number;
  f1At: Record<'0.1%' | '1%' | '10%', number>;
  /** Engines only: share of produced triplets that ground; "–" in the table otherwise. */
  groundingRate?: number;
}

/** "0.4567" → "45.7". */
export function percent(ratio: number): string {
  return (100 * ratio).toFixed(1);
}

/** A Markdown table: one line per row, P/R/F1 at 0.1%, F1 at 1% and 10%, counts and grounding rate. */
export function scoreTable(rows: readonly ScoreRow[]): string {
  const lines = [
    '| tool | version | papers | predictions | truths | matched | P % | R % | F1 % (0.1%) | F1 % (1%) | F1 % (10%) | grounded % |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const row of rows) {
    lines.push(
      `| ${row.name} | ${row.version} | ${row.n} | ${row.predictions} | ${row.truths} | ${row.matched} | ${percent(row.precision)} | ${percent(row.recall)} | ${percent(row.f1)} | ${percent(row.f1At['1%'])} | ${percent(row.f1At['10%'])} | ${row.groundingRate === undefined ? '–' : percent(row.groundingRate)} |`,
    );
  }
  return lines.join('\n') + '\n';
}
