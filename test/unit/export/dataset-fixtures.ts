/**
 * Dataset rows for store and export tests: a band gap with evidence selectors (its quote holds
 * commas, double quotes and a newline; its paper a non-ASCII author and TeX specials in the
 * title), a Tc range from a PDF page, an edited capacity with the model's original answer, and
 * a row from a page with no DOI. SI values are worked out by hand in the comments.
 */
import type { DatasetTriplet, SourcePaper } from '../../../src/contracts/dataset';
import { mergeKeyOf } from '../../../src/store/dataset-triplet';

export const TIO2_PAPER: SourcePaper = {
  key: 'doi:10.1021/acs.jpcc.9b01234',
  doi: '10.1021/acs.jpcc.9b01234',
  url: 'https://pubs.acs.org/doi/10.1021/acs.jpcc.9b01234',
  title: 'Band gap of TiO₂ films: 50% Nb & Ta co-doping in {sol_gel} routes',
  authors: ['José García-Müller', 'Pierre-Gilles de Gennes', 'Wei Zhang'],
  journal: 'J. Phys. Chem. C',
  year: 2019,
};

export const YBCO_PAPER: SourcePaper = {
  key: 'doi:10.1103/physrevlett.58.908',
  doi: '10.1103/PhysRevLett.58.908',
  url: null,
  title: 'Superconductivity at 93 K in a new mixed-phase Y-Ba-Cu-O compound system at ambient pressure',
  authors: ['Wu, M. K.', 'Ashburn, J. R.', 'Chu, C. W.'],
  journal: 'Physical Review Letters',
  volume: '58',
  pages: '908-910',
  year: 1987,
};

export const BLOG_PAPER: SourcePaper = {
  key: 'url:https://example.org/notes/lfp-cathodes',
  doi: null,
  url: 'https://example.org/notes/lfp-cathodes',
  title: 'Notes on LiFePO4 cathodes',
  authors: [],
  journal: null,
  year: null,
};

function withKey(row: Omit<DatasetTriplet, 'mergeKey'>): DatasetTriplet {
  return { ...row, mergeKey: mergeKeyOf(row) };
}

const QUOTE = 'The optical band gap of anatase TiO₂ was "3.2 eV", measured by UV–vis,\nsee Fig. 2';

/** 3.2 eV = 3.2 × 1.602176634e-19 J = 5.1269652288e-19 kg m^2 s^-2. */
export const bandGapRow: DatasetTriplet = withKey({
  id: '0b6f1f0e-1111-4a6b-9c1d-000000000001',
  paper: TIO2_PAPER,
  material: 'TiO₂',
  property: 'band_gap',
  value: { kind: 'number', value: 3.2 },
  valueText: '3.2',
  unit: 'eV',
  si: { value: { kind: 'number', value: 5.1269652288e-19 }, unit: 'kg m^2 s^-2' },
  conditions: [{ kind: 'other', value: 'anatase, room temperature' }],
  evidence: {
    quote: { type: 'TextQuoteSelector', exact: QUOTE, prefix: 'Results. ', suffix: ' for the Tauc plot.' },
    position: { type: 'TextPositionSelector', start: 1200, end: 1200 + QUOTE.length },
    blockId: 'b12',
  },
  status: 'verified',
  review: { decision: 'accepted', at: '2025-03-02T09:00:00.000Z' },
  votes: ['moa', 'gd'],
  models: ['Qwen2.5-1.5B-Instruct-q4f16_1-MLC', 'Llama-3.2-1B-Instruct-q4f16_1-MLC'],
  runId: 'run-tio2',
  savedAt: '2025-03-02T09:00:00.000Z',
});

/** 92–93 K is already SI: 92–93 K. */
export const tcRangeRow: DatasetTriplet = withKey({
  id: '0b6f1f0e-1111-4a6b-9c1d-000000000002',
  paper: YBCO_PAPER,
  material: 'YBa2Cu3O7-δ',
  property: 'tc',
  value: { kind: 'range', low: 92, high: 93 },
  valueText: '92–93',
  unit: 'K',
  si: { value: { kind: 'range', low: 92, high: 93 }, unit: 'K' },
  evidence: {
    quote: {
      type: 'TextQuoteSelector',
      exact: 'a stable superconducting transition between 92 and 93 K',
      prefix: 'We observe ',
      suffix: '.',
    },
    page: 3,
  },
  status: 'needs_review',
  review: { decision: 'pending' },
  votes: ['moa'],
  models: ['Qwen2.5-1.5B-Instruct-q4f16_1-MLC'],
  runId: 'run-ybco',
  savedAt: '2025-03-03T10:00:00.000Z',
});

/** Edited from 160 to 170 mAh/g: 170 × 3.6 C / 1e-3 kg = 612000 A s kg^-1. */
export const editedRow: DatasetTriplet = withKey({
  id: '0b6f1f0e-1111-4a6b-9c1d-000000000003',
  paper: TIO2_PAPER,
  material: 'LiFePO4',
  property: 'specific_capacity',
  value: { kind: 'number', value: 170, uncertainty: 5 },
  valueText: '170 ± 5',
  unit: 'mAh/g',
  si: { value: { kind: 'number', value: 612000 }, unit: 'kg^-1 s A' },
  status: 'verified',
  review: {
    decision: 'edited',
    at: '2025-03-04T11:00:00.000Z',
    original: { material: 'LiFePO4', value: { kind: 'number', value: 160 }, valueText: '160', unit: 'mAh/g' },
  },
  votes: ['moa', 'gd'],
  models: ['Qwen2.5-1.5B-Instruct-q4f16_1-MLC'],
  runId: 'run-tio2',
  savedAt: '2025-03-04T11:00:00.000Z',
});

/** A page without DOI, no evidence, no run (entered by hand); 3.45 V = 3.45 kg m^2 s^-3 A^-1. */
export const noDoiRow: DatasetTriplet = withKey({
  id: '0b6f1f0e-1111-4a6b-9c1d-000000000004',
  paper: BLOG_PAPER,
  material: 'LiFePO4',
  property: 'voltage',
  value: { kind: 'number', value: 3.45, approximate: true },
  valueText: '~3.45',
  unit: 'V',
  si: { value: { kind: 'number', value: 3.45 }, unit: 'kg m^2 s^-3 A^-1' },
  conditions: [{ kind: 'other', value: 'vs. Li/Li+, C/10' }],
  status: 'needs_review',
  review: { decision: 'pending' },
  votes: [],
  models: [],
  savedAt: '2025-03-01T08:00:00.000Z',
});

export const datasetRows: DatasetTriplet[] = [bandGapRow, tcRangeRow, editedRow, noDoiRow];
