/**
 * ComProScanner's piezoelectric ground truth (Roy et al., ComProScanner; slimeslab/ComProScanner,
 * MIT, `examples/piezo_test/ground_truth.json`; see the dataset's SOURCE.md): 100 papers keyed
 * by DOI, each with `composition_data.compositions_property_values` (composition → d33 value)
 * and one `property_unit` per paper. A value is a number, a `[low, high]` range, or null (the
 * paper names the composition but gives no d33); the paper texts are not in the data root.
 */
import { readRegularFile } from '../../capture/node/regular-file';
import { join } from 'node:path';
import type { ReportedValue } from '../../contracts/triplet';
import type { TruthTriplet } from '../triplet-scorer-types';

/** The property schema the truths are scored as (src/properties/data/d33.json). */
export const D33 = 'd33';

/** The ground-truth file under the data root. */
export function piezoGroundTruthPath(dataRoot: string): string {
  return join(dataRoot, 'datasets', 'comproscanner-piezo', 'ground_truth.json');
}

/** One paper of the ground truth. */
export interface PiezoPaper {
  /** Lower-case DOI, e.g. "10.1016/j.jeurceramsoc.2025.117193". */
  doi: string;
  title: string | null;
  /** Composition–d33 pairs with a value, in file order. */
  truths: TruthTriplet[];
  /** Compositions listed with a null value (no d33 reported); not scored. */
  withoutValue: string[];
  /** The paper's unit as the file writes it, e.g. "pC/N", "p.m./V". */
  unitAsGiven: string;
}

/**
 * A unit as the file writes it, readable by the unit table: a dotted two-letter abbreviation
 * loses its dots ("p.m./V" → "pm/V", "p.m. V−1" → "pm V−1"); otherwise only trimmed.
 */
export function readableUnit(unit: string): string {
  return unit.replace(/(?<!\p{L})(\p{L})\.(\p{L})\./gu, '$1$2').trim();
}

function reportedValue(raw: unknown): ReportedValue | null | undefined {
  if (raw === null) return null;
  if (typeof raw === 'number' && Number.isFinite(raw)) return { kind: 'number', value: raw };
  if (Array.isArray(raw) && raw.length === 2 && raw.every((end) => typeof end === 'number' && Number.isFinite(end)))
    return { kind: 'range', low: Math.min(raw[0], raw[1]), high: Math.max(raw[0], raw[1]) };
  return undefined;
}

interface RawPaper {
  composition_data?: { compositions_property_values?: Record<string, unknown>; property_unit?: unknown };
  article_metadata?: { title?: unknown };
}

/**
 * Parse the ground-truth JSON text into papers, in file order. Throws an Error naming the DOI
 * of the first paper without `composition_data`, or with a value that is not a number, a
 * `[low, high]` pair of numbers or null.
 */
export function parsePiezoGroundTruth(jsonText: string): PiezoPaper[] {
  const data = JSON.parse(jsonText) as Record<string, RawPaper>;
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    throw new Error('ComProScanner ground truth: expected an object keyed by DOI');
  return Object.entries(data).map(([doi, paper]) => {
    const composition = paper.composition_data;
    if (!composition || typeof composition.compositions_property_values !== 'object' || composition.compositions_property_values === null)
      throw new Error(`ComProScanner ground truth ${doi}: no composition_data.compositions_property_values`);
    const unitAsGiven = typeof composition.property_unit === 'string' ? composition.property_unit : '';
    const unit = readableUnit(unitAsGiven);
    const truths: TruthTriplet[] = [];
    const withoutValue: string[] = [];
    for (const [name, raw] of Object.entries(composition.compositions_property_values)) {
      const value = reportedValue(raw);
      if (value === undefined)
        throw new Error(`ComProScanner ground truth ${doi}: value of "${name}" is not a number, a [low, high] pair or null`);
      if (value === null) withoutValue.push(name);
      else truths.push({ aliases: [name], property: D33, value, unit, valueText: JSON.stringify(raw) });
    }
    const title = paper.article_metadata?.title;
    return { doi: doi.trim().toLowerCase(), title: typeof title === 'string' ? title : null, truths, withoutValue, unitAsGiven };
  });
}

/** Load the ground truth of the data root. Rejects when the file is missing or malformed. */
export async function loadPiezoPapers(dataRoot: string): Promise<PiezoPaper[]> {
  return parsePiezoGroundTruth(await readRegularFile(piezoGroundTruthPath(dataRoot), 'utf8'));
}
