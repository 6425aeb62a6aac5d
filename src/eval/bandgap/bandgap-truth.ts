/**
 * The bandgap-200 ground truth (`manual_pub__manual.csv`, `manual_arxiv__manual.csv`; upstream
 * wenkaining/Bandgap-Extraction-Comparison, see the dataset's SOURCE.md). Columns: `index`,
 * `doi`, `material` (aliases separated by ";"), classes, `Manual` (band gap in eV, possibly
 * "~1.45", "1.5-2.3" or "<0.002") and `source` (evidence sentence or "Table N"). A row with an
 * empty material marks a paper without any band gap: the paper is kept, with no truths.
 */
import { parse } from 'csv-parse/sync';
import { parseValueText } from '../../text/quantities/value-text';
import type { TruthTriplet } from '../triplet-scorer-types';

/** Property name used for every bandgap-200 triplet. */
export const BAND_GAP = 'band_gap';

export interface BandgapPaper {
  /** The dataset's paper number (1-based, as in file names and recorded outputs). */
  index: number;
  doi: string;
  truths: TruthTriplet[];
}

/**
 * Parse the truth CSV into papers in index order. Throws on a missing `index`/`material`/
 * `Manual` column, or on a row with a material but a value that does not parse.
 */
export function parseBandgapTruth(csvText: string): BandgapPaper[] {
  const rows = parse(csvText, { relax_column_count: true, skip_empty_lines: true, bom: true }) as string[][];
  const header = rows[0] ?? [];
  const column = (name: string) => {
    const position = header.indexOf(name);
    if (position === -1) throw new Error(`bandgap truth CSV: no "${name}" column`);
    return position;
  };
  const [indexColumn, doiColumn, materialColumn, valueColumn, sourceColumn] = ['index', 'doi', 'material', 'Manual', 'source'].map(
    column,
  ) as [number, number, number, number, number];
  const papers = new Map<number, BandgapPaper>();
  for (const [rowNumber, row] of rows.slice(1).entries()) {
    const index = Number(row[indexColumn]);
    if (!Number.isInteger(index)) continue;
    const paper = papers.get(index) ?? { index, doi: (row[doiColumn] ?? '').trim(), truths: [] };
    papers.set(index, paper);
    const aliases = (row[materialColumn] ?? '')
      .split(';')
      .map((alias) => alias.trim())
      .filter(Boolean);
    if (aliases.length === 0) continue;
    const parsed = parseValueText(row[valueColumn] ?? '');
    if (!parsed) throw new Error(`bandgap truth CSV row ${rowNumber + 2}: value "${row[valueColumn]}" is not a number`);
    const source = (row[sourceColumn] ?? '').trim();
    paper.truths.push({
      aliases,
      property: BAND_GAP,
      value: parsed.value,
      unit: 'eV',
      valueText: (row[valueColumn] ?? '').trim(),
      ...(parsed.bound ? { bound: parsed.bound } : {}),
      ...(source ? { source } : {}),
    });
  }
  return [...papers.values()].sort((a, b) => a.index - b.index);
}
