/** Saved triplets for the dataset page's tests. */
import type { DatasetTriplet } from '../../../src/contracts/dataset';

/** A verified, pending band gap of GaN (3.4 eV) from one paper, saved 2026-01-01; `change` overrides fields. */
export function datasetTriplet(change: Partial<DatasetTriplet> = {}): DatasetTriplet {
  const base: DatasetTriplet = {
    id: 'triplet-1',
    mergeKey: 'doi:10.1000/gan|GaN|band_gap|3.4 eV',
    paper: {
      key: 'doi:10.1000/gan',
      doi: '10.1000/gan',
      url: null,
      title: 'Band gap of GaN',
      authors: ['Nakamura S', 'Mukai T'],
      journal: 'Jpn. J. Appl. Phys.',
      year: 1994,
    },
    material: 'GaN',
    property: 'band_gap',
    value: { kind: 'number', value: 3.4 },
    unit: 'eV',
    si: { value: { kind: 'number', value: 5.447e-19 }, unit: 'kg m^2 s^-2' },
    evidence: { quote: { type: 'TextQuoteSelector', exact: 'GaN has a band gap of 3.4 eV', prefix: '', suffix: '' }, page: 2 },
    status: 'verified',
    review: { decision: 'pending' },
    votes: ['moa', 'gd'],
    models: ['qwen2.5-1.5b'],
    savedAt: '2026-01-01T00:00:00.000Z',
  };
  return { ...base, ...change };
}
