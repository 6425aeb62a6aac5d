/**
 * Eunomia case study 3 (Ansari & Moosavi, "Agent-based learning of materials datasets from
 * scientific literature", Digital Discovery 2024; AI4ChemS/Eunomia, MIT; see the dataset's
 * SOURCE.md): MOF water stability labelled by hand per paper. The file
 * `eunomia-water-stability/case-study-3-ground-truth.csv` (UTF-8 with BOM) has the columns
 * `Reference` (the paper's index), `DOI`, `MOF contained`, `True Water Stability` (Stable,
 * Unstable or Not provided) and `Justification Sentence` (the paper's evidence as the annotators
 * copied it, or "Not provided"), and a trailing empty column.
 *
 * Papers are grouped by `Reference`, as Eunomia's post-processing groups its ground truth by
 * "Paper id" (examples/post_process_results_binary.ipynb): one DOI appears under two references
 * and stays two papers. The full texts are not in the data root, so a paper's `evidence` is its
 * distinct justification sentences, in file order.
 */
import { parse } from 'csv-parse/sync';
import { join } from 'node:path';

/** The three classes of Eunomia's water-stability rules (eunomia/prompts.py, `RULES`). */
export const WATER_STABILITY_LABELS = ['Stable', 'Unstable', 'Not provided'] as const;
export type WaterStabilityLabel = (typeof WATER_STABILITY_LABELS)[number];

/** The ground-truth file under the data root. */
export function eunomiaGroundTruthPath(dataRoot: string): string {
  return join(dataRoot, 'datasets', 'eunomia-water-stability', 'case-study-3-ground-truth.csv');
}

/** One labelled MOF of a paper. */
export interface EunomiaMof {
  /** The MOF as the annotators wrote it (trimmed), e.g. "Al-PMOF/m8o66". */
  name: string;
  label: WaterStabilityLabel;
  /** The justification sentence, or null where the file says "Not provided". */
  justification: string | null;
}

/** One paper of the ground truth. */
export interface EunomiaPaper {
  /** `<Reference>/<DOI>`, e.g. "1/10.1038/s41586-019-1798-7" (bandgap-200's paper id shape). */
  id: string;
  reference: string;
  doi: string;
  mofs: EunomiaMof[];
  /** Distinct justification sentences of the paper, in file order (none for a paper whose MOFs are all "Not provided"). */
  evidence: string[];
}

const COLUMNS = {
  reference: 'Reference',
  doi: 'DOI',
  mof: 'MOF contained',
  label: 'True Water Stability',
  sentence: 'Justification Sentence',
};

const NOT_PROVIDED = /^not provided$/i;

/**
 * Parse the ground-truth CSV text into papers, in the order their reference first appears.
 * Throws an Error naming the line of the first row that lacks a reference, a DOI or a MOF, or
 * whose label is not one of `WATER_STABILITY_LABELS`, and when the header lacks a column.
 */
export function parseEunomiaGroundTruth(csvText: string): EunomiaPaper[] {
  const rows = parse(csvText, { columns: true, bom: true, skip_empty_lines: true, relax_column_count: true }) as Record<string, string>[];
  const header = rows[0] ? Object.keys(rows[0]) : [];
  for (const column of Object.values(COLUMNS))
    if (rows.length > 0 && !header.includes(column)) throw new Error(`Eunomia ground truth: no "${column}" column`);
  const papers = new Map<string, EunomiaPaper>();
  rows.forEach((row, index) => {
    const line = index + 2;
    const reference = (row[COLUMNS.reference] ?? '').trim();
    const doi = (row[COLUMNS.doi] ?? '').trim();
    const name = (row[COLUMNS.mof] ?? '').trim();
    const label = (row[COLUMNS.label] ?? '').trim();
    if (!reference || !doi || !name) throw new Error(`Eunomia ground truth line ${line}: reference, DOI and MOF are required`);
    if (!(WATER_STABILITY_LABELS as readonly string[]).includes(label))
      throw new Error(`Eunomia ground truth line ${line}: label "${label}" is not one of ${WATER_STABILITY_LABELS.join(', ')}`);
    const sentence = (row[COLUMNS.sentence] ?? '').trim();
    const justification = sentence === '' || NOT_PROVIDED.test(sentence) ? null : sentence;
    let paper = papers.get(reference);
    if (!paper) {
      paper = { id: `${reference}/${doi}`, reference, doi, mofs: [], evidence: [] };
      papers.set(reference, paper);
    }
    paper.mofs.push({ name, label: label as WaterStabilityLabel, justification });
    if (justification !== null && !paper.evidence.includes(justification)) paper.evidence.push(justification);
  });
  return [...papers.values()];
}
