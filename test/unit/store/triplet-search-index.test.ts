import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DatasetTriplet } from '../../../src/contracts/dataset';
import type { TripletSearchState } from '../../../src/contracts/messages';
import { createAssayDatabase, type AssayDatabase } from '../../../src/store/assay-database';
import { deleteTriplets, saveTriplets, updateTripletReview } from '../../../src/store/dataset-repository';
import { createTripletSearchIndex, type TripletSearchIndex } from '../../../src/store/triplet-search-index';
import { datasetTriplet } from '../ui/dataset-fixtures';
import { applyEdit } from '../../../src/store/dataset-rows';

/** Row `id` with its own merge key, `quote` as its evidence and `change` on top. */
function row(id: string, quote: string, change: Partial<DatasetTriplet> = {}): DatasetTriplet {
  const base = datasetTriplet({ id, mergeKey: `key-${id}` });
  return { ...base, evidence: { quote: { type: 'TextQuoteSelector', exact: quote, prefix: '', suffix: '' } }, ...change };
}

const ROWS = [
  row('tio2', 'Anatase TiO2 shows strong photoluminescence at 2.9 eV', { material: 'TiO2' }),
  row('bst', 'The optical absorption edge of the film is at 3.1 eV', {
    material: 'Ba0.5Sr0.5TiO3',
    paper: { ...datasetTriplet().paper, key: 'doi:10.1021/acs.nanolett.5b01234', doi: '10.1021/acs.nanolett.5b01234' },
  }),
  row('caoh', 'Portlandite Ca(OH)₂ absorbs below 5 eV', { material: 'Ca(OH)2' }),
  row('gan', 'GaN has a wide direct gap of 3.4 eV', { paper: { ...datasetTriplet().paper, title: 'Blue light from nitrides' } }),
];

let database: AssayDatabase;
let index: TripletSearchIndex;
let states: TripletSearchState[];
let databaseCount = 0;

beforeEach(async () => {
  databaseCount += 1;
  database = createAssayDatabase(`search-index-test-${databaseCount}`);
  await saveTriplets(database, ROWS);
  states = [];
  index = createTripletSearchIndex(database, { chunkSize: 3, onState: (state) => states.push(state) });
});

afterEach(async () => {
  index.close();
  await database.delete();
});

const ids = (text: string) => [...(index.ids(text) ?? ['(not ready)'])].sort();

/** Wait (up to ~2 s) until the index is ready at a generation above `generation`. */
async function changedSince(generation: number): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const state = index.state;
    if (state.status === 'ready' && state.generation > generation) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`the index did not change after generation ${generation}: ${JSON.stringify(index.state)}`);
}

describe('building', () => {
  it('answers nothing until built, then reads the table in chunks with progress', async () => {
    expect(index.ids('film')).toBeUndefined();
    const progress: Array<[number, number]> = [];
    const built = index.build((done, total) => progress.push([done, total]));
    expect(index.ids('film')).toBeUndefined();
    await built;
    expect(progress).toEqual([
      [3, 4],
      [4, 4],
    ]);
    expect(states[0]).toEqual({ status: 'building', done: 0, total: 4, generation: 0 });
    expect(index.state).toEqual({ status: 'ready', rows: 4, generation: 1 });
    expect(ids('film')).toEqual(['bst']);
  });

  it('fails in words when the table cannot be read, and then answers nothing', async () => {
    database.close({ disableAutoOpen: true });
    await expect(index.build()).rejects.toThrow();
    expect(index.state).toMatchObject({ status: 'failed', message: expect.stringMatching(/closed/i) });
    expect(index.ids('film')).toBeUndefined();
  });

  it('gives up, saying so, when the index would outgrow its heap budget', async () => {
    // 4 rows take over 20,000 bytes by the estimate (550 per distinct term alone, and they have ~40).
    const small = createTripletSearchIndex(database, { maxBytes: 10_000 });
    await expect(small.build()).rejects.toThrow(/too large to index/);
    expect(small.state).toMatchObject({
      status: 'failed',
      message: expect.stringMatching(/^the dataset is too large to index in this browser: about 0 MB for \d rows, over 0 MB$/),
    });
    expect(small.ids('film')).toBeUndefined();
    // A budget the 4 rows fit in.
    const enough = createTripletSearchIndex(database, { maxBytes: 100_000 });
    await enough.build();
    expect(enough.ids('film')?.size).toBe(1);
    enough.close();
  });
});

describe('words', () => {
  beforeEach(() => index.build());

  it('needs every word, each as a word start, in any case and order and in any field', () => {
    expect(ids('TiO')).toEqual(['tio2']);
    expect(ids('photolum')).toEqual(['tio2']);
    expect(ids('PHOTOLUMINESCENCE anatase')).toEqual(['tio2']);
    expect(ids('direct wide')).toEqual(['gan']);
    // A word of the property name ("band_gap"), of the title, of the quote.
    expect(ids('gap')).toEqual(['bst', 'caoh', 'gan', 'tio2']);
    expect(ids('gap nitrides')).toEqual(['gan']);
    expect(ids('edge photolum')).toEqual([]);
    // Text starting inside a word is not a word start (the substring scan found these).
    expect(ids('luminescence')).toEqual([]);
    expect(ids('TiO3')).toEqual([]);
  });

  it('finds a formula and a DOI whole, and their parts after a punctuation mark', () => {
    expect(ids('Ba0.5Sr0.5TiO3')).toEqual(['bst']);
    expect(ids('ba0.5')).toEqual(['bst']);
    expect(ids('10.1021/acs.nanolett.5b01234')).toEqual(['bst']);
    expect(ids('nanolett')).toEqual(['bst']);
    expect(ids('acs.nanolett.5b')).toEqual(['bst']);
    expect(ids('Ca(OH)2')).toEqual(['caoh']);
    expect(ids('(OH)')).toEqual(['caoh']);
    // NFKC: the quote's "Ca(OH)₂" is "ca(oh)2"; "TiO₂" typed finds "TiO2".
    expect(ids('TiO₂ anatase')).toEqual(['tio2']);
  });

  it('answers newest first: savedAt descending, then id descending', async () => {
    await saveTriplets(database, [
      row('old', 'Rutile sample', { savedAt: '2020-01-01T00:00:00.000Z' }),
      row('new', 'Rutile sample', { savedAt: '2030-01-01T00:00:00.000Z' }),
      row('tie-a', 'Rutile sample', { savedAt: '2025-01-01T00:00:00.000Z' }),
      row('tie-b', 'Rutile sample', { savedAt: '2025-01-01T00:00:00.000Z' }),
    ]);
    await changedSince(1);
    expect([...index.ids('rutile')!]).toEqual(['new', 'tie-b', 'tie-a', 'old']);
  });

  it('has no answer for a search without a word (the caller scans)', () => {
    expect(index.ids('  ... ')).toBeUndefined();
  });
});

describe('following the table', () => {
  beforeEach(() => index.build());

  it('adds a saved row, re-indexes an edited one and drops a deleted one', async () => {
    let generation = index.state.generation;
    const zno = row('zno', 'Wurtzite nanorods emit in the UV', { material: 'ZnO' });
    await saveTriplets(database, [zno]);
    await changedSince(generation);
    expect(ids('wurtz')).toEqual(['zno']);
    expect(ids('ZnO')).toEqual(['zno']);

    generation = index.state.generation;
    await saveTriplets(database, [applyEdit(zno, { material: 'ZnS' }, new Date('2026-02-01T00:00:00.000Z'))]);
    await changedSince(generation);
    expect(ids('ZnO')).toEqual([]);
    expect(ids('ZnS wurtz')).toEqual(['zno']);

    generation = index.state.generation;
    await deleteTriplets(database, ['gan']);
    await changedSince(generation);
    expect(ids('nitrides')).toEqual([]);
    expect(ids('gap')).toEqual(['bst', 'caoh', 'tio2', 'zno']);
    expect(index.state).toMatchObject({ status: 'ready', rows: 4 });
  });

  it('keeps a companion in step, and is settled whenever it reports ready', async () => {
    const kept = new Map<string, string>();
    const companion = {
      put: (stored: DatasetTriplet) => {
        const changed = kept.get(stored.id) !== stored.material;
        kept.set(stored.id, stored.material);
        return changed;
      },
      delete: (id: string) => void kept.delete(id),
      clear: () => kept.clear(),
      bytes: 0,
    };
    const settledWhenReady: Array<{ pending: number | undefined; settled: boolean }> = [];
    const followed: TripletSearchIndex = createTripletSearchIndex(database, {
      chunkSize: 3,
      companion,
      onState: (state) => {
        if (state.status === 'ready') settledWhenReady.push({ pending: state.pending, settled: followed.settled });
      },
    });
    expect(followed.settled).toBe(false);
    await followed.build();
    expect(followed.settled).toBe(true);
    expect([...kept.keys()].sort()).toEqual(ROWS.map((stored) => stored.id).sort());
    const generation = followed.state.generation;
    await saveTriplets(
      database,
      Array.from({ length: 10 }, (_, number) => row(`film-${number}`, `Film ${number}`)),
    );
    await deleteTriplets(database, ['gan']);
    for (let attempt = 0; attempt < 200 && !(followed.state.generation > generation && kept.size === ROWS.length + 9); attempt += 1)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(kept.has('film-9')).toBe(true);
    expect(kept.has('gan')).toBe(false);
    // Every ready state without rows pending is settled; with rows pending it is not.
    expect(settledWhenReady.some(({ pending }) => pending !== undefined)).toBe(true);
    expect(settledWhenReady.every(({ pending, settled }) => settled === (pending === undefined))).toBe(true);
    followed.close();
    expect(followed.settled).toBe(false);
  });

  it('past its budget, drops the text search but keeps its companion in step, saying so', async () => {
    const kept = new Set<string>();
    const companion = {
      put: (stored: DatasetTriplet) => !kept.has(stored.id) && Boolean(kept.add(stored.id)),
      delete: (id: string) => void kept.delete(id),
      clear: () => kept.clear(),
      // 100 bytes a row: with the index's own 250 a row, 14 rows (3,500 bytes) fit in 10,000; the text search (~40 terms at 550) does not.
      get bytes() {
        return 100 * kept.size;
      },
    };
    const large = createTripletSearchIndex(database, { chunkSize: 3, companion, maxBytes: 10_000 });
    await large.build();
    expect(large.state).toMatchObject({
      status: 'ready',
      rows: 4,
      searchStopped: expect.stringMatching(/^the search index would take about 0 MB for \d rows, over 0 MB$/),
    });
    expect(large.settled).toBe(true);
    // Searches scan from now on; the companion still follows every write.
    expect(large.ids('film')).toBeUndefined();
    const generation = large.state.generation;
    await saveTriplets(
      database,
      Array.from({ length: 10 }, (_, number) => row(`film-${number}`, `Film ${number}`)),
    );
    await deleteTriplets(database, ['gan']);
    for (let attempt = 0; attempt < 200 && !(large.settled && kept.size === ROWS.length + 9); attempt += 1)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(kept.has('film-9')).toBe(true);
    expect(kept.has('gan')).toBe(false);
    expect(large.state).toMatchObject({ status: 'ready', rows: 13, searchStopped: expect.any(String) });
    expect(large.state.generation).toBeGreaterThan(generation);
    // Past the budget even without the text search (13 rows × 350 bytes > 4,000): the index gives up and empties the companion.
    const small = createTripletSearchIndex(database, { companion, maxBytes: 4000 });
    await expect(small.build()).rejects.toThrow(/too large to index/);
    expect(kept.size).toBe(0);
    large.close();
  });

  it('leaves the answers alone when a write changes no indexed text', async () => {
    const generation = index.state.generation;
    await updateTripletReview(database, 'gan', { decision: 'accepted', at: '2026-02-01T00:00:00.000Z' });
    await saveTriplets(database, [row('zno', 'ZnO')]);
    await changedSince(generation);
    // One change (the new row), not two: the review left the text as it was.
    expect(index.state.generation).toBe(generation + 1);
  });

  it('follows writes made through another connection (another context) by their keys, even 1,000 at once', async () => {
    const other = createAssayDatabase(database.name);
    const generation = index.state.generation;
    await saveTriplets(
      other,
      Array.from({ length: 1000 }, (_, number) => row(`bulk-${number}`, `Perovskite film number ${number}`)),
    );
    await changedSince(generation);
    expect(index.ids('perovskite')?.size).toBe(1000);
    expect(ids('number 999')).toEqual(['bulk-999']);
    // Listed keys: the table was never read whole again.
    expect(states.filter((state) => state.status === 'updating')).toEqual([]);
    other.close();
  });

  it('re-reads the whole table after a change too wide to list, keeping unchanged rows', async () => {
    const generation = index.state.generation;
    await saveTriplets(
      database,
      Array.from({ length: 60 }, (_, number) => row(`plain-${number}`, `Spinel sample ${number}`)),
    );
    await changedSince(generation);
    expect(index.ids('spinel')?.size).toBe(60);
    // A range delete names no keys: the whole table is read again.
    const ranged = index.state.generation;
    await database.triplets.where(':id').between('plain-', 'plain-\uffff').delete();
    await changedSince(ranged);
    expect(states.some((state) => state.status === 'updating')).toBe(true);
    expect(index.ids('spinel')?.size ?? 0).toBe(0);
    expect(ids('photolum')).toEqual(['tio2']);

    const cleared = index.state.generation;
    await database.triplets.clear();
    await changedSince(cleared);
    expect(ids('gap')).toEqual([]);
    expect(index.state).toMatchObject({ status: 'ready', rows: 0 });
  });

  it('stops following when closed', async () => {
    index.close();
    await saveTriplets(database, [row('zno', 'Wurtzite ZnO')]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(index.ids('wurtz')).toBeUndefined();
  });
});
