/**
 * SuperMat 2.0 (`supermat/SuperMat-2.0.csv`; lfoppiano/SuperMat, CC BY 4.0): linked
 * material → Tc records, columns `id, material, tcValue, pressure, me_method, filename`, where
 * `filename` names the paper ("<stem>.superconductors.tei.xml") and values keep their unit as
 * text ("23.7 ± 0.5 K", "below 1.7 K", "15K"). Scored as material–Tc pairs; pressure and
 * method are not scored.
 */
import { parse } from 'csv-parse/sync';
import { parseValueText } from '../../text/quantities/value-text';
import type { TruthTriplet } from '../triplet-scorer-types';

/** Property name of the Tc schema (`src/properties/data/tc.json`). */
export const TC = 'tc';

export interface SupermatPaper {
  /** File stem shared by the CSV and the PDF fixtures, e.g. "L088207003-CC". */
  stem: string;
  truths: TruthTriplet[];
  /** Records whose Tc text holds no number ("n/a", "a few kelvin"): not scorable, counted. */
  unreadable: number;
}

/**
 * Aliases of a SuperMat material mention: the text as annotated, and — when it differs — the
 * same with the spaces PDF extraction put between an element and its subscript removed
 * ("Pr 2 CuO 4" → "Pr2CuO4"), which is how papers and extractors write it.
 */
export function supermatAliases(material: string): string[] {
  const annotated = material.replace(/\s+/g, ' ').trim();
  const joined = annotated
    // element symbol or ")" + space + subscript ("Cu 2", "O 6+δ", "Ba x", "La 2−x")
    .replace(/(?<=[A-Z][a-z]?|\)) (?=[0-9.]*[0-9]|[−+-]|[δxyz](?![a-z]))/g, '')
    // subscript + space + next element symbol ("2 Cu", "x K")
    .replace(/(?<=[0-9δxyz]) (?=[A-Z][a-z]?(?![a-z]{2}))/g, '');
  return joined !== annotated ? [annotated, joined] : [annotated];
}

/** Parse the CSV into papers keyed by file stem, in first-seen order. Throws on missing columns. */
export function parseSupermatTruth(csvText: string): SupermatPaper[] {
  const rows = parse(csvText, { columns: true, skip_empty_lines: true, relax_column_count: true, bom: true }) as Record<string, string>[];
  const first = rows[0];
  if (first && !['material', 'tcValue', 'filename'].every((name) => name in first))
    throw new Error('SuperMat CSV: expected columns material, tcValue, filename');
  const papers = new Map<string, SupermatPaper>();
  for (const row of rows) {
    const stem = (row.filename ?? '').trim().replace(/\.superconductors\.tei\.xml$/, '');
    const material = (row.material ?? '').trim();
    if (!stem || !material) continue;
    const paper = papers.get(stem) ?? { stem, truths: [], unreadable: 0 };
    papers.set(stem, paper);
    const parsed = parseValueText(row.tcValue ?? '');
    if (!parsed) {
      paper.unreadable += 1;
      continue;
    }
    // A bare number is in kelvin: SuperMat's Tc column (Foppiano et al. 2021).
    paper.truths.push({ aliases: supermatAliases(material), property: TC, value: parsed.value, unit: parsed.unitText || 'K' });
  }
  return [...papers.values()];
}
