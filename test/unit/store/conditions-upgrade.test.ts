/**
 * The v8 upgrade (structured conditions, issue 26): a database created by an older Assay at
 * version 7 (or 6), holding rows whose `conditions` is free text, opened with today's code.
 * The old schemas are declared here as those versions declared them, so the test does not
 * depend on today's createAssayDatabase for the "before".
 */
import 'fake-indexeddb/auto';
import { Dexie } from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import type { DatasetTriplet } from '../../../src/contracts/dataset';
import { createAssayDatabase, type AssayDatabase } from '../../../src/store/assay-database';
import { saveTriplets } from '../../../src/store/dataset-repository';
import { migratedRow } from '../../../src/store/migrate-conditions';
import { bandGapRow, TIO2_PAPER } from '../export/dataset-fixtures';
import { mergeKeyOf } from '../../../src/store/dataset-triplet';

/** The key the code before issue 26 gave a row: no conditions part. */
function oldKey(row: DatasetTriplet): string {
  return mergeKeyOf({ ...row, conditions: undefined });
}

/** A row as versions ≤ 7 stored it: `conditions` free text (or absent), key without conditions. */
function legacyRow(index: number, conditions: string | undefined, material = `sample ${index}`): DatasetTriplet {
  const { conditions: _conditions, ...rest } = bandGapRow;
  const row = { ...rest, id: `legacy-${index}`, material, savedAt: `2024-01-01T00:00:${String(index % 60).padStart(2, '0')}.000Z` };
  const stored = conditions === undefined ? row : { ...row, conditions };
  return { ...stored, mergeKey: oldKey(stored as DatasetTriplet) } as unknown as DatasetTriplet;
}

/** A database at `version` (6 or 7) as those versions declared it, holding `rows`. Closed on return. */
async function legacyDatabase(name: string, version: 6 | 7, rows: readonly DatasetTriplet[]): Promise<void> {
  const old = new Dexie(name);
  old.version(1).stores({ papers: 'key, capturedAt, doi' });
  old.version(2).stores({ runs: 'id, [paperKey+startedAt], status' });
  old.version(3).stores({ triplets: 'id, &mergeKey, paper.key, material, property, status, savedAt' });
  old.version(4).stores({ papers: 'key, capturedAt, doi, url' });
  old.version(5).stores({ referenceTables: 'id, importedAt', precedents: 'key' });
  old.version(6).stores({ paperVersions: '++id, [paperKey+capturedAt]' });
  if (version === 7)
    old.version(7).stores({
      triplets: 'id, &mergeKey, paper.key, [material+savedAt], [property+savedAt], [status+savedAt], savedAt',
      importJobs: 'id, startedAt',
      importFiles: 'id',
    });
  await old.open();
  expect(old.verno).toBe(version);
  for (let start = 0; start < rows.length; start += 5000) await old.table('triplets').bulkAdd(rows.slice(start, start + 5000));
  old.close();
}

let opened: AssayDatabase | undefined;
let count = 0;
const nextName = () => `assay-conditions-upgrade-${(count += 1)}`;

afterEach(async () => {
  await opened?.delete();
  opened = undefined;
});

describe('the v8 upgrade', () => {
  for (const version of [7, 6] as const) {
    it(`rewrites free-text conditions of a version-${version} database as one 'other' condition and recomputes every key`, async () => {
      const name = nextName();
      const rows = [
        legacyRow(1, 'HSE06, 300 K'),
        legacyRow(2, '   '),
        legacyRow(3, undefined),
        legacyRow(4, ''),
        // Same fact twice, told apart only by conditions: before v8 they could not both be saved,
        // so the second is another material here; after, each has a key of its own.
        legacyRow(5, 'GGA/PBE', 'GaN'),
        // Saved at v7 by code that already wrote structured conditions, under the key of before.
        { ...legacyRow(6, undefined), conditions: [{ kind: 'method' as const, value: 'HSE06' }] },
      ];
      await legacyDatabase(name, version, rows);

      opened = createAssayDatabase(name);
      await opened.open();
      expect(opened.verno).toBe(8);
      const stored = await opened.triplets.orderBy('id').toArray();
      expect(stored.map((row) => row.id)).toEqual(rows.map((row) => row.id));
      const byId = new Map(stored.map((row) => [row.id, row]));
      expect(byId.get('legacy-1')!.conditions).toEqual([{ kind: 'other', value: 'HSE06, 300 K', text: 'HSE06, 300 K' }]);
      expect(byId.get('legacy-1')!.mergeKey).toBe(`${rows[0]!.mergeKey}|other=hse06, 300 k`);
      expect(byId.get('legacy-6')!.conditions).toEqual([{ kind: 'method', value: 'HSE06' }]);
      expect(byId.get('legacy-6')!.mergeKey).toBe(`${rows[5]!.mergeKey}|method=hse06`);
      // Blank text is no condition: the field goes, the key keeps its old four parts.
      for (const id of ['legacy-2', 'legacy-3', 'legacy-4']) {
        expect(byId.get(id)).not.toHaveProperty('conditions');
        expect(byId.get(id)!.mergeKey).toBe(rows.find((row) => row.id === id)!.mergeKey);
      }
      for (const row of stored) {
        expect(row.mergeKey).toBe(mergeKeyOf(row));
        // Everything else is as it was.
        const { conditions: _a, mergeKey: _b, ...rest } = row;
        const { conditions: _c, mergeKey: _d, ...before } = rows.find((legacy) => legacy.id === row.id)!;
        expect(rest).toEqual(before);
      }
      // The unique index holds the new keys: saving the same fact under the same condition merges.
      const again = migratedRow({ ...rows[0]!, id: 'again' });
      const result = await saveTriplets(opened, [again]);
      expect(result).toMatchObject({ added: 0, merged: 1 });
    });
  }

  it('keeps both rows when an old key rule made one row’s new key another row’s stored key (no row lost, no failed open)', async () => {
    const name = nextName();
    const withConditions = legacyRow(1, 'HSE06', 'GaN');
    const newKey = migratedRow(withConditions).mergeKey;
    // A row without conditions (so left as it is) holding, as a stale key, exactly the key the first row is about to get.
    const stale = { ...legacyRow(2, undefined, 'AlN'), mergeKey: newKey };
    await legacyDatabase(name, 7, [withConditions, stale]);
    opened = createAssayDatabase(name);
    const stored = await opened.triplets.orderBy('id').toArray();
    expect(stored.map((row) => [row.id, row.mergeKey])).toEqual([
      ['legacy-1', `${newKey}|id=legacy-1`],
      ['legacy-2', newKey],
    ]);
    expect(stored[0]!.conditions).toEqual([{ kind: 'other', value: 'HSE06', text: 'HSE06' }]);
  });

  it('moves a row onto a key another row gives up later in the walk', async () => {
    const name = nextName();
    const first = legacyRow(1, 'HSE06', 'GaN');
    const wanted = migratedRow(first).mergeKey;
    // legacy-2 holds that key (stale) and moves off it: it has conditions of its own.
    const second = { ...legacyRow(2, 'PBE', 'AlN'), mergeKey: wanted };
    await legacyDatabase(name, 7, [first, second]);
    opened = createAssayDatabase(name);
    const stored = await opened.triplets.orderBy('id').toArray();
    expect(stored.map((row) => row.mergeKey)).toEqual([wanted, mergeKeyOf(second)]);
  });

  // 5,000 rows by default, to keep the suite quick; ASSAY_UPGRADE_ROWS=20000 measures the figure
  // quoted in src/store/migrate-conditions.ts.
  it('migrates a few thousand rows (timed and printed)', async () => {
    const name = nextName();
    const size = Number(process.env.ASSAY_UPGRADE_ROWS ?? 5000);
    const rows = Array.from({ length: size }, (_, index) =>
      legacyRow(index, index % 2 === 0 ? `method ${index % 7}, at ${index % 300} K` : undefined),
    );
    let started = performance.now();
    await legacyDatabase(name, 7, rows);
    console.log(`seeding ${size} rows: ${((performance.now() - started) / 1000).toFixed(2)} s`);
    opened = createAssayDatabase(name);
    started = performance.now();
    await opened.open();
    const seconds = (performance.now() - started) / 1000;
    console.log(`v8 upgrade of ${size} rows (half with free-text conditions), fake-indexeddb: ${seconds.toFixed(2)} s`);
    expect(await opened.triplets.count()).toBe(size);
    const sample = await opened.triplets.get('legacy-1234');
    expect(sample!.conditions).toEqual([{ kind: 'other', value: 'method 2, at 34 K', text: 'method 2, at 34 K' }]);
    expect(sample!.mergeKey).toBe(mergeKeyOf(sample!));
  }, 120_000);
});

describe('merge keys with conditions', () => {
  const gan = (value: number, method: string): DatasetTriplet => {
    const row: DatasetTriplet = {
      ...bandGapRow,
      paper: TIO2_PAPER,
      material: 'BPN-GaN',
      value: { kind: 'number', value },
      valueText: String(value),
      si: null,
      conditions: [{ kind: 'method', value: method }],
    };
    return { ...row, mergeKey: mergeKeyOf(row) };
  };

  it('keeps 1.86 eV (GGA/PBE) and 2.31 eV (HSE06) apart, and 2.31 eV under two methods apart', async () => {
    opened = createAssayDatabase(nextName());
    const rows = [gan(1.86, 'GGA/PBE'), gan(2.31, 'HSE06'), gan(2.31, 'GGA/PBE')].map((row, index) => ({ ...row, id: `r${index}` }));
    expect(new Set(rows.map((row) => row.mergeKey)).size).toBe(3);
    expect(await saveTriplets(opened, rows)).toMatchObject({ added: 3, merged: 0 });
  });

  it('merges the same fact under the same conditions, whatever their order, case or spans', async () => {
    opened = createAssayDatabase(nextName());
    const first: DatasetTriplet = {
      ...gan(2.31, 'HSE06'),
      id: 'a',
      conditions: [
        { kind: 'method', value: 'HSE06', text: 'at the HSE06 level', position: { type: 'TextPositionSelector', start: 4, end: 22 } },
        { kind: 'direction', value: 'indirect' },
      ],
    };
    const second: DatasetTriplet = {
      ...first,
      id: 'b',
      conditions: [
        { kind: 'direction', value: 'Indirect' },
        { kind: 'method', value: 'hse06' },
      ],
    };
    const [a, b] = [first, second].map((row) => ({ ...row, mergeKey: mergeKeyOf(row) }));
    expect(a!.mergeKey).toBe(b!.mergeKey);
    expect(a!.mergeKey).toMatch(/\|direction=indirect;method=hse06$/);
    expect(await saveTriplets(opened, [a!, b!])).toMatchObject({ added: 1, merged: 1 });
  });

  it('keeps a provenance through a merge when the kept side was saved without one', async () => {
    opened = createAssayDatabase(nextName());
    const { provenance: _none, ...without } = gan(2.31, 'HSE06');
    await saveTriplets(opened, [{ ...without, id: 'first', review: { decision: 'pending' } }]);
    await saveTriplets(opened, [
      { ...without, id: 'second', review: { decision: 'pending' }, provenance: { kind: 'cited', reference: '[19]' } },
    ]);
    const stored = await opened.triplets.toArray();
    expect(stored.map((row) => [row.id, row.provenance])).toEqual([['first', { kind: 'cited', reference: '[19]' }]]);
  });

  it('reads a legacy string as one other condition', () => {
    const structured = mergeKeyOf({ ...bandGapRow, conditions: [{ kind: 'other', value: 'anatase' }] });
    expect(mergeKeyOf({ ...bandGapRow, conditions: ' anatase ' as never })).toBe(structured);
    expect(mergeKeyOf({ ...bandGapRow, conditions: '' as never })).toBe(mergeKeyOf({ ...bandGapRow, conditions: undefined }));
  });
});
