import 'fake-indexeddb/auto';
import { Dexie, type ObservabilitySet } from 'dexie';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createAssayDatabase, type AssayDatabase } from '../../../src/store/assay-database';
import { deleteTriplets, saveTriplets } from '../../../src/store/dataset-repository';
import { followTripletWrites, TRIPLET_WRITES_CHANNEL, type TripletChanges } from '../../../src/store/triplet-mutations';
import { datasetTriplet } from '../ui/dataset-fixtures';

let database: AssayDatabase;
let heard: TripletChanges[];
let unfollow: () => void;
let databaseCount = 0;

beforeEach(() => {
  databaseCount += 1;
  database = createAssayDatabase(`mutations-test-${databaseCount}`);
  heard = [];
  unfollow = followTripletWrites(database.name).subscribe((changes) => heard.push(changes));
});

afterEach(async () => {
  unfollow();
  await database.delete();
});

const rows = (count: number) => Array.from({ length: count }, (_, index) => datasetTriplet({ id: `r${index}`, mergeKey: `k${index}` }));

/** Wait (up to ~2 s) for the `count`th announcement. */
async function heardCount(count: number): Promise<TripletChanges> {
  for (let attempt = 0; attempt < 200 && heard.length < count; attempt += 1) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(heard.length).toBeGreaterThanOrEqual(count);
  return heard[count - 1]!;
}

it('announces every key of a committed 1,000-row write once, and none of it in Dexie’s own parts', async () => {
  const parts: ObservabilitySet[] = [];
  const listen = (set: ObservabilitySet) => parts.push(set);
  Dexie.on.storagemutated.subscribe(listen);
  try {
    await saveTriplets(database, rows(1000));
    const changes = await heardCount(1);
    expect(changes.wide).toBe(false);
    expect(changes.keys).toHaveLength(1000);
    expect(new Set(changes.keys)).toEqual(new Set(rows(1000).map((row) => row.id)));
    // Dexie's parts name only Dexie's own ranges (what live queries read), not a key list of ours.
    expect(parts.flatMap((set) => Object.keys(set)).every((name) => name.startsWith('idb://') || name === 'all')).toBe(true);
  } finally {
    Dexie.on.storagemutated.unsubscribe(listen);
  }
});

it('announces deleted keys, a clear() as wide, and nothing for a transaction that fails', async () => {
  await saveTriplets(database, rows(3));
  await heardCount(1);
  await deleteTriplets(database, ['r1']);
  expect(await heardCount(2)).toEqual({ keys: ['r1'], wide: false });
  await database.triplets.clear();
  expect((await heardCount(3)).wide).toBe(true);
  await expect(
    database.transaction('rw', database.triplets, async () => {
      await database.triplets.add(datasetTriplet({ id: 'lost', mergeKey: 'lost' }));
      throw new Error('abort');
    }),
  ).rejects.toThrow('abort');
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(heard).toHaveLength(3);
});

it('ignores announcements of other databases and of another shape', async () => {
  const other = new BroadcastChannel(TRIPLET_WRITES_CHANNEL);
  try {
    other.postMessage({ database: 'another', keys: ['a'], wide: false });
    other.postMessage({ database: database.name, keys: 'a', wide: false });
    other.postMessage(null);
    other.postMessage({ database: database.name, keys: ['a', 7], wide: false });
    expect(await heardCount(1)).toEqual({ keys: ['a'], wide: false });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(heard).toHaveLength(1);
  } finally {
    other.close();
  }
});
