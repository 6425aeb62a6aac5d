/** The Markdown table of `assay eval sofc-exp|msptc` without `--json`: both scorings of the triplets and the quantities. */
import type { PrfFigures } from '../rescorable';
import { percent } from '../report-table';

/** The part of a value-corpus result the table shows. */
export interface ValueCorpusFigures {
  dataset: string;
  engine: string;
  n: number;
  strict: PrfFigures;
  lenient: PrfFigures;
  quantities: { strict: PrfFigures; lenient: PrfFigures };
}

/** One line per scored part and scoring: counts, then P/R/F1 as percentages. */
export function valueCorpusTable(result: ValueCorpusFigures): string {
  const lines = [
    `${result.dataset} (dev, ${result.n} papers)`,
    '',
    '| predictions of | scoring | predictions | truths | matched | P % | R % | F1 % |',
    '|---|---|---:|---:|---:|---:|---:|---:|',
  ];
  const parts: Array<[string, string, PrfFigures]> = [
    [`${result.engine} triplets`, 'strict', result.strict],
    [`${result.engine} triplets`, 'lenient', result.lenient],
    ['parseQuantities', 'strict', result.quantities.strict],
    ['parseQuantities', 'lenient', result.quantities.lenient],
  ];
  for (const [source, mode, figures] of parts)
    lines.push(
      `| ${source} | ${mode} | ${figures.predictions} | ${figures.truths} | ${figures.matched} | ${percent(figures.precision)} | ${percent(figures.recall)} | ${percent(figures.f1)} |`,
    );
  return lines.join('\n') + '\n';
}
