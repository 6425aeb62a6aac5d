/**
 * The v8 upgrade of the `triplets` table (issue 26): conditions become structured and enter the
 * merge key. Rows saved before held `conditions` as one free-text string (or none); each such
 * string becomes one condition of kind `other` (`ConditionListSchema`; blank → none), and every
 * row's `mergeKey` is recomputed with `mergeKeyOf`, which now appends the normalized conditions.
 *
 * A row without conditions keeps its key and is not rewritten, so a dataset saved before issue 26
 * (where nothing filled the field) is read once and barely written. Rows are read and written a
 * page at a time in one walk, not with `modify`: see `upgradeConditions` for why, and for how
 * the unique `&mergeKey` index is kept from failing the upgrade.
 */
import { Dexie, type Table, type Transaction } from 'dexie';
import type { DatasetTriplet } from '../contracts/dataset';
import { conditionsOf, mergeKeyOf } from './dataset-triplet';

/** What `upgradeConditions` did: rows read, and rows rewritten (conditions or key changed). */
export interface ConditionsUpgrade {
  rows: number;
  rewritten: number;
}

/** A key another row already holds gets this suffix and the row's id (nothing is merged or lost in an upgrade). */
const uniqueKey = (key: string, id: string) => `${key}|id=${id}`;

/**
 * `row` as v8 stores it: `conditions` a list (a string → one `other` condition; blank → the
 * field is left out) and `mergeKey` recomputed (`mergeKeyOf`, with the row's stored `si`).
 * Pure: the upgrade uses the same rule, and tests call it directly.
 */
export function migratedRow(row: DatasetTriplet): DatasetTriplet {
  const { conditions: _conditions, ...rest } = row;
  const conditions = conditionsOf(row);
  const migrated = conditions.length > 0 ? { ...rest, conditions } : rest;
  return { ...migrated, mergeKey: mergeKeyOf(migrated) };
}

/**
 * Rows read or written per request: pages are read with `getAll` over a primary-key range and
 * written with one `bulkPut`, where a cursor (`each`, `modify`) costs a callback per row and
 * `bulkGet` a request per key (in fake-indexeddb, `modify` over `anyOf` 1,000 keys took over 4 s
 * where a page's `bulkPut` took 0.17 s).
 */
const PAGE_ROWS = 1000;

/** Every row of `triplets` in primary-key order, `PAGE_ROWS` at a time, to `onPage`, which may write (the walk goes by id, which no write here changes). */
async function eachPage(triplets: Table<DatasetTriplet, string>, onPage: (rows: DatasetTriplet[]) => Promise<void>): Promise<void> {
  let page = await triplets.orderBy(':id').limit(PAGE_ROWS).toArray();
  while (page.length > 0) {
    const last = page[page.length - 1]!.id;
    await onPage(page);
    if (page.length < PAGE_ROWS) return;
    page = await triplets.where(':id').above(last).limit(PAGE_ROWS).toArray();
  }
}

/**
 * Put `rows`; resolves to those the unique `&mergeKey` index refused (another row holds the key:
 * Dexie's BulkError with ConstraintError failures, which do not abort the transaction). Rejects
 * on any other failure.
 */
async function putRefusing(triplets: Table<DatasetTriplet, string>, rows: DatasetTriplet[]): Promise<DatasetTriplet[]> {
  try {
    await triplets.bulkPut(rows);
    return [];
  } catch (error) {
    if (!(error instanceof Dexie.BulkError)) throw error;
    return Object.entries(error.failuresByPos).map(([position, failure]) => {
      if (failure.name !== 'ConstraintError') throw failure;
      return rows[Number(position)]!;
    });
  }
}

/**
 * The v8 upgrade of `triplets` inside Dexie's upgrade transaction `transaction`, in one walk over
 * the rows a page at a time: each row whose conditions are a string or whose key changes is
 * rewritten (`migratedRow`) with the page's other changes in one `bulkPut`. The upgrade is one
 * transaction, so any failure leaves the database at v7 and rejects the open.
 *
 * The unique `&mergeKey` index: keys from the same function cannot collide (an old key is
 * unique, and the new one is it plus the conditions), but a key stored by an older rule (or an
 * edited import of long ago) can equal another row's new key. Such a put is refused and retried
 * once every other row has moved (the holder may have moved away); a row still refused keeps
 * both facts apart with `<key>|id=<row id>`. Resolves to the counts.
 *
 * Time, measured on the shared 2-core machine with 20,000 rows of which 10,000 have free-text
 * conditions (a worst case: before issue 26 nothing filled the field): in Chromium 10.2–10.7 s
 * (`ASSAY_E2E_UPGRADE_ROWS=20000 npx vitest run --project e2e test/e2e/conditions-upgrade.test.ts`,
 * timed inside the upgrade)
 * (reading the rows 1.7–2.1 s, keys 1.1–1.3 s, writing the 10,000 changed rows 7.2–7.5 s: a
 * put that replaces a row with seven indexes costs about 0.7 ms there, ten times an add), and
 * 8–13 s with fake-indexeddb in Node (`ASSAY_UPGRADE_ROWS=20000 npx vitest run
 * test/unit/store/conditions-upgrade.test.ts`). A dataset of 100,000 rows without conditions is
 * only read (about 10 s in Chromium at that rate). It runs once, before the database opens, and
 * every extension page waits for it.
 */
export async function upgradeConditions(transaction: Transaction): Promise<ConditionsUpgrade> {
  const triplets = transaction.table<DatasetTriplet, string>('triplets');
  let rows = 0;
  let rewritten = 0;
  const refused: DatasetTriplet[] = [];
  await eachPage(triplets, async (page) => {
    rows += page.length;
    // A row without conditions is left as it is: its key has no conditions part to gain.
    const withConditions = page.filter((row) => typeof row.conditions === 'string' || (row.conditions?.length ?? 0) > 0);
    const changed = withConditions
      .map((row) => ({ row, migrated: migratedRow(row) }))
      .filter(({ row, migrated }) => migrated.mergeKey !== row.mergeKey || typeof row.conditions === 'string')
      .map(({ migrated }) => migrated);
    rewritten += changed.length;
    if (changed.length > 0) refused.push(...(await putRefusing(triplets, changed)));
  });
  if (refused.length > 0) {
    const still = await putRefusing(triplets, refused);
    if (still.length > 0) await triplets.bulkPut(still.map((row) => ({ ...row, mergeKey: uniqueKey(row.mergeKey, row.id) })));
  }
  return { rows, rewritten };
}
