/**
 * Reads and writes of the precedent check's local state: the reference tables the reader imported
 * (`referenceTables`, the CSV text kept as imported so it is re-parsed with the current parser)
 * and the cached answers (`precedents`, one per material + property). Every function takes the
 * database first (no module-level instance).
 */
import type { PrecedentCheck } from '../precedent/check-precedent';
import { parseReferenceTable } from '../precedent/reference-table';
import { normalizeFormula } from '../text/materials/index';
import type { AssayDatabase } from './assay-database';

/** One imported reference table (a SuperCon-like Tc/Tcn CSV, see `parseReferenceTable`). */
export interface ReferenceTableRecord {
  id: string;
  /** The name its answers cite (the file name as imported). */
  name: string;
  /** ISO 8601 time of the import. */
  importedAt: string;
  /** Rows with a readable Tc/Tcn value (`parseReferenceTable(csv).rows.length`). */
  rowCount: number;
  /** The CSV text exactly as imported. */
  csv: string;
}

/** A reference table without its text, for lists. */
export type ReferenceTableSummary = Omit<ReferenceTableRecord, 'csv'>;

/** A cached precedent check. */
export interface PrecedentRecord {
  /** `precedentKey(material, property)`. */
  key: string;
  /** The material as the reader asked it. */
  material: string;
  property: string;
  /** ISO 8601 time of the check. */
  checkedAt: string;
  check: PrecedentCheck;
}

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
 * Parse `csv` (`parseReferenceTable`) and store it as table `name`. Resolves to the stored
 * summary. Throws an Error in words — "Could not import <name>: …" — when the CSV is malformed,
 * lacks a required column, or has no readable Tc/Tcn row; nothing is stored then. An import
 * empties the `precedents` cache (in the same transaction), since a new table may answer
 * questions cached as Unknown.
 */
export async function importReferenceTable(
  database: AssayDatabase,
  name: string,
  csv: string,
  { now = () => new Date(), newId = () => crypto.randomUUID() }: { now?: () => Date; newId?: () => string } = {},
): Promise<ReferenceTableSummary> {
  let rowCount: number;
  try {
    rowCount = parseReferenceTable(csv).rows.length;
  } catch (error) {
    throw new Error(`Could not import ${name}: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (rowCount === 0)
    throw new Error(
      `Could not import ${name}: it has no row with a readable Tc or Tcn value (columns refno, material, property_name, property_value, property_unit).`,
    );
  const record: ReferenceTableRecord = { id: newId(), name, importedAt: now().toISOString(), rowCount, csv };
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

/** The cached check of `material` + `property` (`precedentKey`), or undefined. */
export async function getCachedPrecedent(
  database: AssayDatabase,
  material: string,
  property: string,
): Promise<PrecedentRecord | undefined> {
  return database.precedents.get(precedentKey(material, property));
}

/** Cache a check under `precedentKey(material, property)`, replacing any earlier one. Resolves to the stored record. */
export async function putCachedPrecedent(
  database: AssayDatabase,
  entry: { material: string; property: string; checkedAt: string; check: PrecedentCheck },
): Promise<PrecedentRecord> {
  const record: PrecedentRecord = { key: precedentKey(entry.material, entry.property), ...entry };
  await database.precedents.put(record);
  return record;
}
