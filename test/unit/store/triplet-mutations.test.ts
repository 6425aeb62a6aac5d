import 'fake-indexeddb/auto';
import { Dexie, RangeSet, type ObservabilitySet } from 'dexie';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createAssayDatabase, type AssayDatabase } from '../../../src/store/assay-database';
import { saveTriplets, deleteTriplets } from '../../../src/store/dataset-repository';
import { tripletChanges, writtenKeysPart } from '../../../src/store/triplet-mutations';
import { datasetTriplet } from '../ui/dataset-fixtures';

let database: AssayDatabase;
let heard: ObservabilitySet[];
let databaseCount = 0;
const listen = (parts: ObservabilitySet) => heard.push(structuredClone(parts));

beforeEach(() => {
  databaseCount += 1;
  database = createAssayDatabase(`mutations-test-${databaseCount}`);
  heard = [];
  Dexie.on.storagemutated.subscribe(listen);
});

afterEach(async () => {
  Dexie.on.storagemutated.unsubscribe(listen);
  await database.delete();
});

const rows = (count: number) => Array.from({ length: count }, (_, index) => datasetTriplet({ id: `r${index}`, mergeKey: `k${index}` }));
/** The changes of the last event about this database's triplets. */
const lastChanges = () =>
  heard
    .map((parts) => tripletChanges(parts, database.name))
    .filter((changes) => changes !== undefined)
    .at(-1);

it('lists every key of a 1,000-row write, which Dexie itself reports as the whole range', async () => {
  await saveTriplets(database, rows(1000));
  const changes = lastChanges()!;
  expect(changes.wide).toBe(false);
  expect(changes.keys).toHaveLength(1000);
  expect(new Set(changes.keys)).toEqual(new Set(rows(1000).map((row) => row.id)));
  // Dexie's own part, read alone, is wide for the same write.
  const dexieOnly = heard.map((parts) => ({ [`idb://${database.name}/triplets/`]: parts[`idb://${database.name}/triplets/`]! })).at(-1)!;
  expect(tripletChanges(dexieOnly, database.name)?.wide).toBe(true);
});

it('lists deleted keys, and reports a clear() as wide', async () => {
  await saveTriplets(database, rows(3));
  await deleteTriplets(database, ['r1']);
  expect(lastChanges()).toEqual({ keys: ['r1'], wide: false });
  await database.triplets.clear();
  expect(lastChanges()?.wide).toBe(true);
});

it('reads Dexie’s own part when the writer had no middleware, and ignores other tables and databases', () => {
  const part = `idb://${database.name}/triplets/`;
  const listed = tripletChanges({ [part]: new RangeSet().addKeys(['b', 'a']) }, database.name)!;
  expect({ keys: listed.keys.sort(), wide: listed.wide }).toEqual({ keys: ['a', 'b'], wide: false });
  expect(tripletChanges({ [part]: new RangeSet('a', 'c') }, database.name)?.wide).toBe(true);
  expect(tripletChanges({ [`idb://${database.name}/papers/`]: new RangeSet().addKey('a') }, database.name)).toBeUndefined();
  expect(tripletChanges({ [writtenKeysPart('other')]: new RangeSet().addKey('a') }, database.name)).toBeUndefined();
  expect(tripletChanges({ all: new RangeSet(-Infinity, [[]]) }, database.name)?.wide).toBe(true);
});
