/**
 * Which `triplets` rows a committed write changed, announced to every context of the origin
 * (pages, workers, the offscreen document) that follows the table — the dataset worker's search
 * index and catalog (triplet-search-index.ts) — so it re-reads just those rows.
 *
 * `tripletWriteKeys` is a DBCore middleware that collects the keys of every write to `triplets`
 * within one transaction and, once the transaction commits, posts them on the BroadcastChannel
 * `TRIPLET_WRITES_CHANNEL`; a failed transaction posts nothing. `followTripletWrites` listens.
 *
 * Why a channel of its own and not Dexie's `storagemutated` parts (how it was done before): Dexie
 * broadcasts its parts to every context, and each rebuilds them as interval trees and merges them
 * into every live query's set. A 5,000-key part per import chunk cost the dataset page's main
 * thread 200–300 ms tasks per chunk (Chromium, 2-core machine), although only the worker needs
 * the keys. Dexie itself records a `bulkPut`/`bulkAdd` of 50 rows or more as the whole key range,
 * which is what live queries need, and is left alone.
 */
import type { DBCore, DBCoreMutateRequest, Middleware } from 'dexie';

/** The name of the BroadcastChannel the writes to `triplets` are announced on. */
export const TRIPLET_WRITES_CHANNEL = 'assay-triplet-writes';

/** The rows a transaction changed: primary keys to re-read, and whether a range too wide to list changed (re-read everything). */
export interface TripletChanges {
  keys: string[];
  wide: boolean;
}

/** One announcement on the channel: the changes of one committed transaction of database `database`. */
interface TripletWrite extends TripletChanges {
  database: string;
}

/** A BroadcastChannel as far as this module uses it (Node's has `unref`, so an open one never keeps a process alive). */
type Channel = BroadcastChannel & { unref?: () => void };

function openChannel(): Channel | undefined {
  if (typeof BroadcastChannel !== 'function') return undefined;
  const channel = new BroadcastChannel(TRIPLET_WRITES_CHANNEL) as Channel;
  channel.unref?.();
  return channel;
}

let sender: Channel | undefined;

function announce(write: TripletWrite): void {
  sender ??= openChannel();
  sender?.postMessage(write);
}

/** The keys of one DBCore write to `triplets`, into `changes`: given or taken from the rows (the key path `id`); wide for a range delete or keys not known. */
function addWrittenKeys(
  changes: TripletChanges & { seen: Set<string> },
  request: DBCoreMutateRequest,
  extractKey: ((row: unknown) => unknown) | null,
): void {
  if (request.type === 'deleteRange') {
    changes.wide = true;
    return;
  }
  const keys = request.type === 'delete' ? request.keys : (request.keys ?? (extractKey ? request.values.map(extractKey) : undefined));
  if (!keys) {
    changes.wide = true;
    return;
  }
  for (const key of keys) {
    if (typeof key !== 'string') changes.wide = true;
    else if (!changes.seen.has(key)) {
      changes.seen.add(key);
      changes.keys.push(key);
    }
  }
}

/**
 * DBCore middleware (`database.use(tripletWriteKeys)`) that collects, per transaction, the keys
 * of every write to `triplets` and announces them on `TRIPLET_WRITES_CHANNEL` when the
 * transaction completes (IndexedDB's `complete` event: committed). Where the transaction is not an
 * event target (a DBCore that is not IndexedDB's), nothing is announced.
 */
export const tripletWriteKeys: Middleware<DBCore> = {
  stack: 'dbcore',
  name: 'AssayTripletWriteKeys',
  create: (down) => {
    const pending = new WeakMap<object, TripletChanges & { seen: Set<string> }>();
    const database = down.schema.name;
    return {
      ...down,
      table: (tableName) => {
        const table = down.table(tableName);
        if (tableName !== 'triplets') return table;
        const extractKey = table.schema.primaryKey.extractKey ?? null;
        return {
          ...table,
          mutate: (request) => {
            const transaction = request.trans as unknown as Partial<EventTarget>;
            if (typeof transaction.addEventListener === 'function') {
              let changes = pending.get(transaction);
              if (!changes) {
                const created = { keys: [] as string[], wide: false, seen: new Set<string>() };
                changes = created;
                pending.set(transaction, created);
                transaction.addEventListener('complete', () => announce({ database, keys: created.keys, wide: created.wide }), {
                  once: true,
                });
              }
              addWrittenKeys(changes, request, extractKey);
            }
            return table.mutate(request);
          },
        };
      },
    };
  },
};

/** Where the changes to `triplets` come from, for the search index (a test passes its own). */
export interface TripletWriteFeed {
  /** Call `listener` with the changes of each committed transaction; returns the unsubscribe function. */
  subscribe(listener: (changes: TripletChanges) => void): () => void;
}

/**
 * The feed of database `databaseName`'s committed writes to `triplets`, from every context of the
 * origin (this one included): announcements of other databases, or not of the expected shape, are
 * ignored. Where there is no BroadcastChannel, no write is ever heard.
 */
export function followTripletWrites(databaseName: string): TripletWriteFeed {
  return {
    subscribe(listener) {
      const channel = openChannel();
      if (!channel) return () => undefined;
      channel.onmessage = (event: MessageEvent<unknown>) => {
        const write = event.data as Partial<TripletWrite> | null;
        if (write?.database !== databaseName || typeof write.wide !== 'boolean' || !Array.isArray(write.keys)) return;
        listener({ keys: write.keys.filter((key): key is string => typeof key === 'string'), wide: write.wide });
      };
      return () => channel.close();
    },
  };
}
