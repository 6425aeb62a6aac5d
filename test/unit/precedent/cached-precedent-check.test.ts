import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAssayDatabase, type AssayDatabase } from '../../../src/store/assay-database';
import { saveTriplets } from '../../../src/store/dataset-repository';
import { importReferenceTable } from '../../../src/precedent/cached-precedent-check';
import { runPrecedentCheck } from '../../../src/precedent/cached-precedent-check';
import { datasetTriplet } from '../ui/dataset-fixtures';

// The table writes the formula "B2Mg"; the reader asks about "MgB2" (same normalized formula).
const CSV = ['refno,material,property_name,property_value,property_unit', 'NAT410063,B2Mg,tc,39,K', 'JLTP000001,Nb3Sn,tcn,1.5,K', ''].join(
  '\n',
);
const LITERATURE = { source: 'open literature', found: 0, note: 'not searched (turn on in Settings when a model engine is set)' };
const at = (iso: string) => () => new Date(iso);

const MGB2_ROW = datasetTriplet({
  id: 'mgb2-1',
  mergeKey: 'doi:10.1038/35065039|B2Mg|tc|39 K',
  paper: {
    key: 'doi:10.1038/35065039',
    doi: '10.1038/35065039',
    url: null,
    title: 'Superconductivity at 39 K in magnesium diboride',
    authors: ['Nagamatsu J'],
    journal: 'Nature',
    year: 2001,
  },
  material: 'MgB2',
  property: 'tc',
  value: { kind: 'number', value: 39 },
  unit: 'K',
  si: { value: { kind: 'number', value: 39 }, unit: 'K' },
  evidence: { quote: { type: 'TextQuoteSelector', exact: 'MgB2 becomes superconducting at 39 K', prefix: '', suffix: '' } },
});

let database: AssayDatabase;
let databaseCount = 0;

beforeEach(async () => {
  databaseCount += 1;
  database = createAssayDatabase(`assay-precedent-check-${databaseCount}`);
  await importReferenceTable(database, 'supercon.csv', CSV, { now: at('2026-11-01T00:00:00Z'), newId: () => 'table-1' });
});

afterEach(async () => {
  await database.delete();
});

describe('runPrecedentCheck', () => {
  it('answers MgB2 from the table row written B2Mg, says the literature was not searched, and dates the check', async () => {
    const record = await runPrecedentCheck(database, { material: ' MgB2 ', property: 'tc' }, { now: at('2026-11-22T06:00:00Z') });
    expect(record.material).toBe('MgB2');
    expect(record.checkedAt).toBe('2026-11-22T06:00:00.000Z');
    expect(record.check.answer).toBe('Yes');
    expect(record.check.values).toEqual([
      { kind: 'Tc', value: 39, unit: 'K', reference: { code: 'NAT410063' }, quote: 'NAT410063,B2Mg,tc,39,K', origin: 'supercon.csv' },
    ]);
    expect(record.check.searched.at(-1)).toEqual(LITERATURE);
  });

  it('returns the cached answer until asked to re-check; the re-check sees a row saved since', async () => {
    const first = await runPrecedentCheck(database, { material: 'MgB2', property: 'tc' }, { now: at('2026-11-22T06:00:00Z') });
    await saveTriplets(database, [MGB2_ROW]);

    // Another spelling, a later clock: still the first check (same key B2Mg|tc).
    const cached = await runPrecedentCheck(database, { material: 'B2Mg', property: 'tc' }, { now: at('2026-11-22T07:00:00Z') });
    expect(cached).toEqual(first);
    expect(cached.check.values).toHaveLength(1);

    const rechecked = await runPrecedentCheck(
      database,
      { material: 'MgB2', property: 'tc' },
      { recheck: true, now: at('2026-11-22T08:00:00Z') },
    );
    expect(rechecked.checkedAt).toBe('2026-11-22T08:00:00.000Z');
    expect(rechecked.check.answer).toBe('Yes');
    // The table row and the dataset row, each with its own reference.
    expect(rechecked.check.values.map((value) => [value.value, value.reference.code ?? value.reference.doi, value.origin]).sort()).toEqual([
      [39, '10.1038/35065039', 'your dataset'],
      [39, 'NAT410063', 'supercon.csv'],
    ]);
    // The cache now holds the re-check.
    expect(await runPrecedentCheck(database, { material: 'MgB2', property: 'tc' })).toEqual(rechecked);
  });

  it('answers No from a Tcn row', async () => {
    const record = await runPrecedentCheck(database, { material: 'Nb3Sn', property: 'tc' });
    expect(record.check.answer).toBe('No');
    expect(record.check.values.map((value) => [value.kind, value.value])).toEqual([['Tcn', 1.5]]);
  });

  it('is Unknown for a material no source holds, listing everything searched', async () => {
    const record = await runPrecedentCheck(database, { material: 'YBa2Cu3O7', property: 'tc' });
    expect(record.check.answer).toBe('Unknown');
    expect(record.check.values).toEqual([]);
    expect(record.check.searched.map((entry) => entry.source)).toEqual(expect.arrayContaining(['supercon.csv', 'open literature']));
    expect(record.check.searched.at(-1)).toEqual(LITERATURE);
    expect(record.check.unknownBecause).toContain('open literature (not searched (turn on in Settings when a model engine is set))');
  });
});
