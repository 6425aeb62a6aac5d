/**
 * Which `triplets` rows a write changed, as another context learns it from Dexie's
 * `storagemutated` event (Dexie broadcasts each committed transaction's mutated parts to every
 * context of the origin over a BroadcastChannel: pages, workers, the service worker).
 *
 * Dexie's own part for a table's primary keys (`idb://<db>/triplets/`) lists the keys of a
 * write only when it is small: a `bulkPut`/`bulkAdd` of 50 rows or more, and every range delete
 * or `clear()`, is recorded as the whole key range (Dexie 4.4 observability middleware). Saves
 * and imports write 1,000 rows per transaction, so a follower would have to re-read the whole
 * table after each. `tripletWriteKeys` is a DBCore middleware that records the keys of every
 * write to `triplets` under a part of its own (`writtenKeysPart`), which Dexie merges and
 * broadcasts with the rest; `tripletChanges` reads that part when it is there, else Dexie's.
 * The part's name does not start with `idb://`, so no live query ever matches it.
 */
import {
  mergeRanges,
  RangeSet,
  type DBCore,
  type DBCoreMutateRequest,
  type IntervalTree,
  type Middleware,
  type ObservabilitySet,
} from 'dexie';

/** The name of the part listing the keys written to `triplets` of database `databaseName`. */
export function writtenKeysPart(databaseName: string): string {
  return `assay-written://${databaseName}/triplets`;
}

/** The rows a transaction changed: primary keys to re-read, and whether a range too wide to list changed (re-read everything). */
export interface TripletChanges {
  keys: string[];
  wide: boolean;
}

/** Every key IndexedDB can hold, as Dexie bounds it (`-Infinity` to `[[]]`). */
const WHOLE_RANGE = { from: -Infinity, to: [[]] };

/**
 * The keys of one DBCore write to `triplets`: given or taken from the rows (the key path `id`);
 * a range for a range delete; the whole range when neither is known.
 */
function writtenKeys(request: DBCoreMutateRequest, extractKey: ((row: unknown) => unknown) | null): RangeSet {
  const keys = new RangeSet();
  if (request.type === 'deleteRange') {
    return keys.add({ from: request.range.lower ?? WHOLE_RANGE.from, to: request.range.upper ?? WHOLE_RANGE.to });
  }
  if (request.type === 'delete') return keys.addKeys(request.keys);
  const given = request.keys ?? (extractKey ? request.values.map(extractKey) : undefined);
  return given && given.every((key) => key != null) ? keys.addKeys(given as never[]) : keys.add(WHOLE_RANGE);
}

/**
 * DBCore middleware (`database.use(tripletWriteKeys)`) that adds, to every write request on
 * `triplets`, the keys it writes under `writtenKeysPart` of the request's mutated parts; Dexie's
 * observability middleware (below it) merges them into the transaction's parts and broadcasts
 * them when it commits. A failed transaction broadcasts nothing. Costs one small interval tree per
 * write (1,000 keys for a chunk of an import).
 */
export const tripletWriteKeys: Middleware<DBCore> = {
  stack: 'dbcore',
  name: 'AssayTripletWriteKeys',
  create: (down) => ({
    ...down,
    table: (tableName) => {
      const table = down.table(tableName);
      if (tableName !== 'triplets') return table;
      const part = writtenKeysPart(down.schema.name);
      const extractKey = table.schema.primaryKey.extractKey ?? null;
      return {
        ...table,
        mutate: (request) => {
          const parts: ObservabilitySet = (request.mutatedParts ??= {});
          const keys = writtenKeys(request, extractKey);
          const previous = parts[part];
          if (previous) mergeRanges(previous, keys);
          else parts[part] = keys;
          return table.mutate(request);
        },
      };
    },
  }),
};

/**
 * The `triplets` rows of database `databaseName` changed by one `storagemutated` event's
 * `parts`, or undefined when it changed none. Reads `writtenKeysPart` when present (writes made
 * through `createAssayDatabase`), else Dexie's primary-key part (another Dexie instance; its big
 * writes are wide). A node of the interval tree that is one key is a key; any other is `wide`.
 * Keys that are not strings (the table's ids are) are ignored. The parts may be plain objects
 * (structured clones from another context), so the tree is walked by hand.
 */
export function tripletChanges(parts: ObservabilitySet, databaseName: string): TripletChanges | undefined {
  if ('all' in parts) return { keys: [], wide: true };
  const tree = parts[writtenKeysPart(databaseName)] ?? parts[`idb://${databaseName}/triplets/`];
  if (!tree) return undefined;
  const changes: TripletChanges = { keys: [], wide: false };
  const stack: IntervalTree[] = [tree];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (!('from' in node)) continue;
    if (node.from === node.to) {
      if (typeof node.from === 'string') changes.keys.push(node.from);
    } else changes.wide = true;
    if (node.l) stack.push(node.l);
    if (node.r) stack.push(node.r);
  }
  return changes;
}
