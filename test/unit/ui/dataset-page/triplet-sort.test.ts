import { describe, expect, it } from 'vitest';
import { datasetTriplet } from '../dataset-fixtures';
import {
  nextSort,
  siSortValue,
  sortDescription,
  sortKey,
  sortKeyedIds,
  type TripletSort,
} from '../../../../src/ui/dataset-page/triplet-sort';
import type { DatasetTriplet } from '../../../../src/contracts/dataset';

const label = (name: string) => ({ band_gap: 'Band gap', tc: 'Tc' })[name] ?? name;

/** Sort `rows` by `sort` as the table does and give their ids. */
function order(rows: DatasetTriplet[], sort: TripletSort): string[] {
  return sortKeyedIds(
    rows.map((row) => ({ id: row.id, savedAt: row.savedAt, key: sortKey(row, sort.column, label) })),
    sort,
  );
}

const J_PER_EV = 1.602176634e-19;
/** A band gap of `ev` eV written in `unit` (`printed` as printed), with its SI value in joules; `si: null` for a unit that does not convert. */
function gap(id: string, printed: number, unit: string, joules: number | null, savedAt = '2026-01-01T00:00:00.000Z'): DatasetTriplet {
  return datasetTriplet({
    id,
    value: { kind: 'number', value: printed },
    unit,
    si: joules === null ? null : { value: { kind: 'number', value: joules }, unit: 'kg m^2 s^-2' },
    savedAt,
  });
}

describe('sorting the dataset table', () => {
  const rows = [
    gap('a', 3.4, 'eV', 3.4 * J_PER_EV),
    gap('b', 3300, 'meV', 3.3 * J_PER_EV), // printed larger, physically smaller
    gap('c', 1.1, 'eV', 1.1 * J_PER_EV),
    gap('d', 2, 'arb.', null), // no SI value
    gap('e', 5.4e-19, 'J', 5.4e-19), // 3.37 eV
  ];

  it('sorts values by their SI value, so meV and J compare right with eV, and puts rows without one last both ways', () => {
    expect(order(rows, { column: 'value', direction: 'ascending' })).toEqual(['c', 'b', 'e', 'a', 'd']);
    expect(order(rows, { column: 'value', direction: 'descending' })).toEqual(['a', 'e', 'b', 'c', 'd']);
    expect(order(rows, { column: 'display', direction: 'ascending' })).toEqual(['c', 'b', 'e', 'a', 'd']);
  });

  it('takes a range by its low end', () => {
    const range = datasetTriplet({ si: { value: { kind: 'range', low: 1, high: 9 }, unit: 'K' } });
    expect(siSortValue(range)).toBe(1);
    expect(siSortValue({ si: null })).toBeNull();
  });

  it('collates text case-insensitively with numbers in numeric order, blanks last, ties newest first', () => {
    const materials = [
      datasetTriplet({ id: 'm1', material: 'TiO10', savedAt: '2026-01-01T00:00:01.000Z' }),
      datasetTriplet({ id: 'm2', material: 'tio2', savedAt: '2026-01-01T00:00:02.000Z' }),
      datasetTriplet({ id: 'm3', material: 'GaN', savedAt: '2026-01-01T00:00:03.000Z' }),
      datasetTriplet({ id: 'm4', material: 'GaN', savedAt: '2026-01-01T00:00:04.000Z' }),
      datasetTriplet({ id: 'm5', material: 'Ångström', savedAt: '2026-01-01T00:00:05.000Z' }),
    ];
    expect(order(materials, { column: 'material', direction: 'ascending' })).toEqual(['m5', 'm4', 'm3', 'm2', 'm1']);
    // Descending flips the keys, not the ties: equal materials stay newest first.
    expect(order(materials, { column: 'material', direction: 'descending' })).toEqual(['m1', 'm2', 'm4', 'm3', 'm5']);

    const conditions = [
      datasetTriplet({ id: 'x', conditions: [{ kind: 'other', value: 'at 300 K' }] }),
      datasetTriplet({ id: 'y' }),
      datasetTriplet({ id: 'z', conditions: [{ kind: 'other', value: 'at 4 K' }] }),
    ];
    // "at 4 K" before "at 300 K": numbers inside text compare as numbers.
    expect(order(conditions, { column: 'otherConditions', direction: 'ascending' })).toEqual(['z', 'x', 'y']);
    expect(order(conditions, { column: 'otherConditions', direction: 'descending' })).toEqual(['x', 'z', 'y']);

    // Each condition kind with a column sorts by its own values; other kinds do not count towards it.
    const measured = [
      datasetTriplet({
        id: 't1',
        conditions: [
          { kind: 'temperature', value: '300 K' },
          { kind: 'method', value: 'ARPES' },
        ],
      }),
      datasetTriplet({
        id: 't2',
        conditions: [
          { kind: 'temperature', value: '4 K' },
          { kind: 'method', value: 'UV–vis' },
        ],
      }),
      datasetTriplet({ id: 't3', conditions: [{ kind: 'pressure', value: '10 GPa' }], provenance: { kind: 'cited', reference: '[3]' } }),
    ];
    expect(order(measured, { column: 'temperature', direction: 'ascending' })).toEqual(['t2', 't1', 't3']);
    expect(order(measured, { column: 'method', direction: 'descending' })).toEqual(['t2', 't1', 't3']);
    // Ties (no pressure) newest first, then by id descending as the table's own order.
    expect(order(measured, { column: 'pressure', direction: 'ascending' })).toEqual(['t3', 't2', 't1']);
    expect(sortKey(measured[2]!, 'provenance', label)).toBe('cited [3]');
    expect(sortKey(measured[0]!, 'provenance', label)).toBeNull();
  });

  it('sorts the property column by the label it shows, and pages numerically', () => {
    const props = [datasetTriplet({ id: 'p1', property: 'tc' }), datasetTriplet({ id: 'p2', property: 'band_gap' })];
    expect(order(props, { column: 'property', direction: 'ascending' })).toEqual(['p2', 'p1']);
    const pages = [10, 9, undefined].map((page, index) =>
      datasetTriplet({
        id: `page-${index}`,
        evidence: { quote: { type: 'TextQuoteSelector', exact: 'q', prefix: '', suffix: '' }, ...(page !== undefined && { page }) },
      }),
    );
    expect(order(pages, { column: 'page', direction: 'ascending' })).toEqual(['page-1', 'page-0', 'page-2']);
  });

  it('sorts the authors column by the short list it shows, papers without authors last', () => {
    const paper = datasetTriplet({}).paper;
    const rows = [
      datasetTriplet({ id: 'z', paper: { ...paper, authors: ['Zoe Zhang', 'Anna Berg'] } }),
      datasetTriplet({ id: 'none', paper: { ...paper, authors: [] } }),
      datasetTriplet({ id: 'a', paper: { ...paper, authors: ['Schulz, Philip'] } }),
    ];
    expect(sortKey(rows[0]!, 'authors', label)).toBe('Z. Zhang, A. Berg');
    expect(order(rows, { column: 'authors', direction: 'ascending' })).toEqual(['a', 'z', 'none']);
  });

  it('sorts by date both ways, oldest first ascending', () => {
    const dated = ['2026-01-03', '2026-01-01', '2026-01-02'].map((day, index) =>
      datasetTriplet({ id: `d${index}`, savedAt: `${day}T00:00:00.000Z` }),
    );
    expect(order(dated, { column: 'saved', direction: 'ascending' })).toEqual(['d1', 'd2', 'd0']);
    expect(order(dated, { column: 'saved', direction: 'descending' })).toEqual(['d0', 'd2', 'd1']);
  });

  it('flips the direction on the same header and starts another column ascending (the date newest first)', () => {
    expect(nextSort({ column: 'value', direction: 'ascending' }, 'value')).toEqual({ column: 'value', direction: 'descending' });
    expect(nextSort({ column: 'value', direction: 'descending' }, 'value')).toEqual({ column: 'value', direction: 'ascending' });
    expect(nextSort({ column: 'value', direction: 'descending' }, 'material')).toEqual({ column: 'material', direction: 'ascending' });
    expect(nextSort({ column: 'value', direction: 'ascending' }, 'saved')).toEqual({ column: 'saved', direction: 'descending' });
    expect(sortDescription({ column: 'saved', direction: 'descending' })).toBe('newest first');
    expect(sortDescription({ column: 'display', direction: 'ascending' })).toBe('sorted by value (display unit), ascending');
  });
});
