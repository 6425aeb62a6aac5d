/**
 * Synthetic dataset rows for the e2e scale benchmark and the crash-during-save test: many rows
 * that are valid `DatasetTriplet`s with realistic provenance, and never merge with each other.
 */
import type { DatasetTriplet } from '../../src/contracts/dataset';
import { mergeKeyOf } from '../../src/store/dataset-triplet';

const PROPERTIES = [
  'band_gap',
  'tc',
  'bulk_modulus',
  'curie_temperature',
  'neel_temperature',
  'lattice_constant',
  'lattice_a',
  'lattice_b',
  'lattice_c',
  'd33',
  'density',
  'bet_surface_area',
];
const ELEMENTS = ['Ti', 'Zn', 'Ga', 'In', 'Sn', 'Cu', 'Fe', 'Ni', 'Co', 'Mn', 'Nb', 'Ta', 'Sr', 'Ba', 'La', 'Y', 'Bi', 'Mo', 'W', 'V'];
const ANIONS = ['O', 'N', 'S', 'Se', 'Te'];

/** Material i: a binary compound "TiO2", "ZnSe3", … (500 distinct). */
function material(index: number): string {
  const element = ELEMENTS[index % ELEMENTS.length]!;
  const anion = ANIONS[Math.floor(index / ELEMENTS.length) % ANIONS.length]!;
  const count = 1 + Math.floor(index / (ELEMENTS.length * ANIONS.length));
  return `${element}${anion}${count === 1 ? '' : count}`;
}

/**
 * Synthetic row `index` (0-based), saved at `now` (ISO 8601): a distinct fact shaped like a real
 * one — evidence selectors, SI value, DOI — over 500 materials × 12 properties × 17 papers.
 */
export function syntheticRow(index: number, now: string): DatasetTriplet {
  const paperIndex = index % 17;
  const doi = `10.9999/bench.${paperIndex}`;
  // Distinct for every row (+ index µeV), and printed as it is stored: an import refuses a value its
  // valueText does not read as, and sends a verified row whose quote does not print it to review.
  const value = Math.round((0.5 + (index % 997) / 100) * 1000) / 1000 + index / 1e6;
  const printed = String(Math.round(value * 1e6) / 1e6);
  const quote = `The measured value for ${material(index % 500)} is ${printed} eV in sample ${index}.`;
  const base: Omit<DatasetTriplet, 'mergeKey'> = {
    id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
    paper: {
      key: `doi:${doi}`,
      doi,
      url: `https://example.org/${doi}`,
      title: `Benchmark paper ${paperIndex}`,
      authors: ['A. Author', 'B. Author'],
      journal: 'Bench. J.',
      year: 2000 + paperIndex,
    },
    material: material(index % 500),
    property: PROPERTIES[index % PROPERTIES.length]!,
    value: { kind: 'number', value: Number(printed) },
    valueText: printed,
    unit: 'eV',
    si: { value: { kind: 'number', value: Number(printed) * 1.602176634e-19 }, unit: 'kg m^2 s^-2' },
    evidence: {
      quote: { type: 'TextQuoteSelector', exact: quote, prefix: 'Results. ', suffix: ' See Fig. 2.' },
      position: { type: 'TextPositionSelector', start: 100, end: 100 + quote.length },
      blockId: `b${index % 40}`,
    },
    status: 'verified',
    review: { decision: index % 5 === 0 ? 'accepted' : 'pending' },
    votes: ['moa', 'gd'],
    models: ['Qwen2.5-1.5B-Instruct-q4f16_1-MLC', 'Llama-3.2-1B-Instruct-q4f16_1-MLC'],
    savedAt: now,
  };
  return { ...base, mergeKey: mergeKeyOf(base) };
}
