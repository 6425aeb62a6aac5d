/**
 * Reads and writes of the precedent check's local state: the reference tables the reader imported
 * (`referenceTables`, the CSV text kept as imported so it is re-parsed with the current parser)
 * and the cached answers (`precedents`, one per material + property). Every function takes the
 * database first (no module-level instance). Parsing a table and running a check belong to
 * src/precedent/ (`importReferenceTable`, `runPrecedentCheck`); this module only stores.
 */
import {
  CachedPrecedentSchema,
  type CachedPrecedent,
  type ReferenceTableRecord,
  type ReferenceTableSummary,
} from '../contracts/precedent-store';
import { normalizeFormula } from '../text/materials/index';
import type { AssayDatabase } from './assay-database';

/**
 * The cache key of a question: the material's normalized formula (`normalizeFormula`: "B2Mg" and
 * "MgB2" share one key), else its lower-cased trimmed text, then `|` and the property name
 * (lower-cased, trimmed).
 */
export function precedentKey(material: string, property: string): string {
  const trimmed = material.trim();
  return `${normalizeFormula(trimmed) ?? trimmed.toLowerCase()}|${property.trim().toLowerCase()}`;
}

/**
 * Store a reference table the caller has parsed (`importReferenceTable` in src/precedent/ checks
 * it and counts its readable rows first) and resolve to its summary. Storing a table empties the
 * `precedents` cache in the same transaction, since a new table may answer questions cached as
 * Unknown. Rejects with Dexie's error when the write fails.
 */
export async function addReferenceTable(
  database: AssayDatabase,
  table: { name: string; csv: string; rowCount: number },
  { now = () => new Date(), newId = () => crypto.randomUUID() }: { now?: () => Date; newId?: () => string } = {},
): Promise<ReferenceTableSummary> {
  const record: ReferenceTableRecord = { id: newId(), importedAt: now().toISOString(), ...table };
  await database.transaction('rw', database.referenceTables, database.precedents, async () => {
    await database.referenceTables.add(record);
    await database.precedents.clear();
  });
  return summaryOf(record);
}

function summaryOf({ csv: _csv, ...summary }: ReferenceTableRecord): ReferenceTableSummary {
  return summary;
}

/** The imported tables without their text, oldest import first. */
export async function listReferenceTables(database: AssayDatabase): Promise<ReferenceTableSummary[]> {
  return (await database.referenceTables.orderBy('importedAt').toArray()).map(summaryOf);
}

/** The imported tables with their CSV text, oldest import first (for `parseReferenceTable`). */
export async function referenceTableTexts(database: AssayDatabase): Promise<ReferenceTableRecord[]> {
  return database.referenceTables.orderBy('importedAt').toArray();
}

/**
 * Delete table `id` and empty the `precedents` cache (answers may have come from it). Resolves
 * to false when there is no such table (the cache is then kept).
 */
export async function deleteReferenceTable(database: AssayDatabase, id: string): Promise<boolean> {
  return database.transaction('rw', database.referenceTables, database.precedents, async () => {
    if (!(await database.referenceTables.get(id))) return false;
    await database.referenceTables.delete(id);
    await database.precedents.clear();
    return true;
  });
}

/**
 * The cached check of `material` + `property` (`precedentKey`), or undefined — also when the
 * stored row does not match `CachedPrecedentSchema` (an older or damaged row: the question is
 * then simply checked again). A matching row is returned as stored.
 */
export async function getCachedPrecedent(
  database: AssayDatabase,
  material: string,
  property: string,
): Promise<CachedPrecedent | undefined> {
  const row = await database.precedents.get(precedentKey(material, property));
  return row !== undefined && CachedPrecedentSchema.safeParse(row).success ? row : undefined;
}

/** Cache a check under `precedentKey(material, property)`, replacing any earlier one. Resolves to the stored record. */
export async function putCachedPrecedent(database: AssayDatabase, entry: Omit<CachedPrecedent, 'key'>): Promise<CachedPrecedent> {
  const record: CachedPrecedent = { key: precedentKey(entry.material, entry.property), ...entry };
  await database.precedents.put(record);
  return record;
}
