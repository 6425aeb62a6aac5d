import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { DatasetTriplet } from '../../../../src/contracts/dataset';
import type { TripletSearchRequest } from '../../../../src/contracts/messages';
import type { TripletSearch } from '../../../../src/extension/triplet-search-client';
import { CATALOG_PREPARE_DELAY_MS, serveTripletSearch } from '../../../../src/extension/triplet-search-host';
import { createAssayDatabase, type AssayDatabase } from '../../../../src/store/assay-database';
import { queryTriplets, saveTriplets, type TripletQuery } from '../../../../src/store/dataset-repository';
import { sortedTripletIds } from '../../../../src/ui/dataset-page/sorted-triplets';
import { createTripletCatalog } from '../../../../src/ui/dataset-page/triplet-catalog';
import { TRIPLET_COLUMNS } from '../../../../src/ui/dataset-page/triplet-columns';
import { sortKey, sortKeyedIds, type TripletSort } from '../../../../src/ui/dataset-page/triplet-sort';
import { serveDatasetWorker, servedPerTest, until } from '../../../support/dataset-worker-channel';
import { datasetTriplet } from '../dataset-fixtures';

const LABELS: Record<string, string> = { band_gap: 'Band gap', tc: 'Tc' };
const label = (name: string) => LABELS[name] ?? name.replaceAll('_', ' ');
// "tio2" and "TiO2" collate equal: their rows must tie, newest first, in both orders.
const MATERIALS = ['TiO2', 'GaN', 'zno', 'TiO10', 'Ångström', 'tio2', 'CdTe'];
const STATUSES = ['verified', 'needs_review', 'rejected'] as const;
const DECISIONS = ['pending', 'accepted', 'edited'] as const;
const METHODS = ['HSE06', 'GGA-PBE', 'UV-vis', ''];

/** 60 rows over every kind of key: values with and without SI, conditions, pages, authors, equal save times, a property without a label. */
function seedRows(): DatasetTriplet[] {
  return Array.from({ length: 60 }, (_, index) => {
    const property = ['band_gap', 'tc', 'bulk_modulus'][index % 3]!;
    const method = METHODS[index % METHODS.length]!;
    return datasetTriplet({
      id: `row-${String((index * 17) % 60).padStart(2, '0')}`,
      mergeKey: `key-${index}`,
      material: MATERIALS[index % MATERIALS.length]!,
      property,
      status: STATUSES[index % 3]!,
      review: { decision: DECISIONS[index % 3]! },
      si: index % 7 === 3 ? null : { value: { kind: 'number', value: ((index * 37) % 23) + 0.5 }, unit: 'J' },
      unit: index % 5 === 0 ? 'meV' : 'eV',
      conditions: method ? [{ kind: 'method', value: method }] : [],
      paper: {
        key: `doi:10.1000/p${index % 4}`,
        doi: index % 6 === 0 ? null : `10.1000/p${index % 4}`,
        url: null,
        title: `Paper ${index % 4}`,
        authors: index % 2 ? ['Nakamura S'] : ['Zhang W', 'Li X'],
        journal: null,
        year: null,
      },
      evidence: {
        quote: { type: 'TextQuoteSelector', exact: `Quote ${index % 9} of the paper`, prefix: '', suffix: '' },
        ...(index % 4 !== 0 && { page: index % 5 }),
      },
      savedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, Math.floor(index / 3))).toISOString(),
    });
  });
}

const rows = seedRows();

/** The order the page's own in-memory sort gives the rows matching `test`. */
function inMemory(selected: readonly DatasetTriplet[], sort: TripletSort): string[] {
  return sortKeyedIds(
    selected.map((row) => ({ id: row.id, savedAt: row.savedAt, key: sortKey(row, sort.column, label) })),
    sort,
  );
}

const QUERIES: Array<{ query: TripletQuery; test: (row: DatasetTriplet) => boolean }> = [
  { query: {}, test: () => true },
  { query: { material: 'TIO' }, test: (row) => row.material.toLowerCase().startsWith('tio') },
  { query: { property: 'tc', status: 'verified' }, test: (row) => row.property === 'tc' && row.status === 'verified' },
  { query: { decision: 'edited' }, test: (row) => row.review.decision === 'edited' },
  { query: { paperKey: 'doi:10.1000/p2' }, test: (row) => row.paper.key === 'doi:10.1000/p2' },
];

describe('the dataset worker’s catalog', () => {
  it('orders every filter by every column, both ways, exactly as the page’s in-memory sort does', () => {
    // Filters first on a new catalog (the matches alone sorted, small ones ranked among themselves),
    // then every query after the unfiltered one (filtering the order of every row, kept from it).
    let catalog = createTripletCatalog();
    for (const queries of [QUERIES.slice(1), QUERIES]) {
      catalog = createTripletCatalog();
      for (const row of rows) expect(catalog.put(row)).toBe(true);
      for (const { query, test } of queries) {
        for (const { id: column } of TRIPLET_COLUMNS) {
          for (const direction of ['ascending', 'descending'] as const) {
            const sort = { column, direction };
            expect(catalog.order({ query, sort, labels: LABELS }, undefined), `${JSON.stringify(query)} ${column} ${direction}`).toEqual(
              inMemory(rows.filter(test), sort),
            );
          }
        }
      }
    }
    // The collation-equal materials tie: newest first among "TiO2" and "tio2" in both directions.
    const ascending = catalog.order(
      { query: { material: 'tio2' }, sort: { column: 'material', direction: 'ascending' }, labels: {} },
      undefined,
    )!;
    const descending = catalog.order(
      { query: { material: 'tio2' }, sort: { column: 'material', direction: 'descending' }, labels: {} },
      undefined,
    )!;
    expect(ascending).toEqual(descending);
    expect(ascending).toEqual(
      inMemory(
        rows.filter((row) => row.material.toLowerCase() === 'tio2'),
        { column: 'saved', direction: 'descending' },
      ),
    );
  });

  it('keeps to the search index’s answer, and answers nothing for a column it does not know', () => {
    const catalog = createTripletCatalog();
    for (const row of rows) catalog.put(row);
    const found = new Set(rows.filter((_, index) => index % 4 === 1).map((row) => row.id));
    const sort: TripletSort = { column: 'value', direction: 'descending' };
    expect(catalog.order({ query: { search: 'quote' }, sort, labels: {} }, found)).toEqual(
      inMemory(
        rows.filter((row) => found.has(row.id)),
        sort,
      ),
    );
    expect(catalog.order({ query: {}, sort: { column: 'colour', direction: 'ascending' }, labels: {} }, undefined)).toBeUndefined();
  });

  it('follows edits and deletes, says when nothing it keeps changed, and answers nothing while an unreadable row is stored', () => {
    const catalog = createTripletCatalog();
    for (const row of rows) catalog.put(row);
    const sort: TripletSort = { column: 'value', direction: 'ascending' };
    const first = catalog.order({ query: {}, sort, labels: {} }, undefined)!;
    expect(catalog.put(rows[0]!)).toBe(false);
    // The row with the smallest value becomes the largest.
    const smallest = rows.find((row) => row.id === first[0])!;
    const edited = { ...smallest, si: { value: { kind: 'number' as const, value: 1000 }, unit: 'J' } };
    expect(catalog.put(edited)).toBe(true);
    const after = catalog.order({ query: {}, sort, labels: {} }, undefined)!;
    expect(after).toEqual(
      inMemory(
        rows.map((row) => (row.id === edited.id ? edited : row)),
        sort,
      ),
    );
    expect(after.indexOf(edited.id)).toBeGreaterThan(after.indexOf(first[1]!));
    catalog.delete(edited.id);
    expect(catalog.order({ query: {}, sort, labels: {} }, undefined)).not.toContain(edited.id);

    const bytes = catalog.bytes;
    expect(bytes).toBeGreaterThan(rows.length * 100);
    const broken = { ...rows[1]!, paper: undefined } as unknown as DatasetTriplet;
    expect(catalog.put(broken)).toBe(true);
    expect(catalog.order({ query: {}, sort, labels: {} }, undefined)).toBeUndefined();
    catalog.delete(broken.id);
    expect(catalog.order({ query: {}, sort, labels: {} }, undefined)).toHaveLength(rows.length - 2);
    catalog.clear();
    expect(catalog.bytes).toBe(0);
    expect(catalog.order({ query: {}, sort, labels: {} }, undefined)).toEqual([]);
  });
});

describe('the page asking the worker’s catalog over a MessageChannel', () => {
  const current = servedPerTest('catalog-test', rows);
  let database: AssayDatabase;
  let client: TripletSearch;
  let requests: TripletSearchRequest[];

  beforeEach(() => {
    database = current.database;
    ({ client, requests } = current.served);
  });

  it('scans for a search as the page’s own scan does (every field, any case, inside words)', async () => {
    const catalog = createTripletCatalog();
    for (const row of rows) catalog.put(row);
    for (const word of ['tio', 'ÅNG', 'QUOTE 3', 'f the pap', '10.1000/P1', 'bulk_mod', 'paper 2', 'zzz']) {
      const scanned = (await queryTriplets(database, { search: word })).rows.map((row) => row.id).sort();
      expect([...catalog.scan(word)].sort(), word).toEqual(scanned);
    }
    expect(catalog.scan('tio').size).toBeGreaterThan(0);
  });

  it('past the budget for its text search, answers a search from the catalog’s scan, in any order', async () => {
    const sizing = createTripletCatalog();
    for (const row of rows) sizing.put(row);
    // Room for the catalog and the index's own record of each row (250 bytes), not for MiniSearch's postings.
    const small = serveDatasetWorker(database, { maxBytes: sizing.bytes + 250 * rows.length + 2000 });
    try {
      await until(() => small.client.state.status === 'ready', 'the worker to be ready');
      expect(small.client.state).toMatchObject({ searchStopped: expect.stringMatching(/^the search index would take about/) });
      for (const sort of [
        { column: 'saved', direction: 'descending' },
        { column: 'value', direction: 'descending' },
      ] as TripletSort[]) {
        const query = { search: 'quote 3' };
        const answered = await small.client.order!(query, sort, {});
        expect(answered, sort.column).toEqual(await sortedTripletIds(database, query, sort, label));
        expect(answered!.length).toBeGreaterThan(0);
      }
    } finally {
      small.close();
    }
  });

  it('gives the table’s filters and orders as the IndexedDB reads do, and follows a write', async () => {
    await until(() => client.state.status === 'ready', 'the worker to be ready');
    for (const { query } of QUERIES.slice(1)) {
      expect((await queryTriplets(database, query, { offset: 0, limit: 5 }, { search: client })).rows.map((row) => row.id)).toEqual(
        (await queryTriplets(database, query, { offset: 0, limit: 5 })).rows.map((row) => row.id),
      );
      for (const column of ['material', 'property', 'value', 'saved'] as const) {
        const sort: TripletSort = { column, direction: 'ascending' };
        expect(await sortedTripletIds(database, query, sort, label, client), `${JSON.stringify(query)} ${column}`).toEqual(
          await sortedTripletIds(database, query, sort, label),
        );
      }
    }
    const orders = requests.filter((request) => request.type === 'triplet-order');
    expect(orders.length).toBeGreaterThan(0);
    // The last question asked again with no change in between: the client answers from its last reply.
    const asked = requests.length;
    await sortedTripletIds(database, QUERIES.at(-1)!.query, { column: 'saved', direction: 'ascending' }, label, client);
    expect(requests).toHaveLength(asked);

    const generation = client.state.generation;
    await saveTriplets(database, [
      datasetTriplet({ id: 'row-new', mergeKey: 'key-new', material: 'TiO3', savedAt: '2027-01-01T00:00:00.000Z' }),
    ]);
    await until(() => client.state.generation > generation, 'a new generation');
    expect((await queryTriplets(database, { material: 'tio' }, { offset: 0, limit: 1 }, { search: client })).rows[0]?.id).toBe('row-new');
  });
});
describe('the worker preparing its catalog', () => {
  it('works out the newest-first order once the rows stop changing, not after every write', async () => {
    const database = createAssayDatabase('catalog-prepare-test');
    await saveTriplets(database, rows);
    const catalog = createTripletCatalog();
    const prepare = vi.spyOn(catalog, 'prepare');
    const channel = new MessageChannel();
    const index = serveTripletSearch(channel.port1, database, { catalog });
    try {
      await until(() => index.settled, 'the index to settle');
      expect(prepare).not.toHaveBeenCalled();
      await until(() => prepare.mock.calls.length > 0, 'the catalog to be prepared', 3 * (CATALOG_PREPARE_DELAY_MS / 10));
      // Five writes in a row, each followed by the index: one preparation after the last.
      for (let number = 0; number < 5; number += 1)
        await saveTriplets(database, [datasetTriplet({ id: `row-late-${number}`, mergeKey: `key-late-${number}` })]);
      await until(
        () =>
          index.settled &&
          catalog.order({ query: {}, sort: { column: 'saved', direction: 'descending' }, labels: {} }, undefined)?.length ===
            rows.length + 5,
        'the writes to be followed',
      );
      await new Promise((resolve) => setTimeout(resolve, CATALOG_PREPARE_DELAY_MS * 1.5));
      // Once more after the writes (twice at most were the machine so slow that a second apart fell between them), never once a write.
      expect(prepare.mock.calls.length).toBeGreaterThanOrEqual(2);
      expect(prepare.mock.calls.length).toBeLessThanOrEqual(3);
    } finally {
      index.close();
      channel.port1.close();
      await database.delete();
    }
  });
});
