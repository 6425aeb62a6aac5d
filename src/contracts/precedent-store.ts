/**
 * What the precedent check keeps in IndexedDB: the reference tables the reader imported
 * (`referenceTables`: the CSV text as imported, so it is re-parsed with the current parser) and
 * the cached answers (`precedents`, one per material + property). The store reads cached rows
 * back through `CachedPrecedentSchema`, since a stored row may come from an older version.
 */
import { z } from 'zod';
import { PrecedentCheckJsonSchema } from './messages';

/** One imported reference table (a SuperCon-like Tc/Tcn CSV, see `parseReferenceTable` in src/precedent/). */
export const ReferenceTableRecordSchema = z.object({
  id: z.string().min(1),
  /** The name its answers cite (the file name as imported). */
  name: z.string(),
  /** ISO 8601 time of the import. */
  importedAt: z.string(),
  /** Rows with a readable Tc/Tcn value (`parseReferenceTable(csv).rows.length`). */
  rowCount: z.number().int().positive(),
  /** The CSV text exactly as imported. */
  csv: z.string(),
});
export type ReferenceTableRecord = z.infer<typeof ReferenceTableRecordSchema>;

/** A reference table without its text, for lists. */
export type ReferenceTableSummary = Omit<ReferenceTableRecord, 'csv'>;

/** A cached precedent check, as stored: the check is a `PrecedentCheck` (src/precedent/check-precedent.ts) as JSON. */
export const CachedPrecedentSchema = z.object({
  /** `precedentKey(material, property)` (src/store/precedent-repository.ts). */
  key: z.string(),
  /** The material as the reader asked it. */
  material: z.string(),
  property: z.string(),
  /** ISO 8601 time of the check. */
  checkedAt: z.string(),
  check: PrecedentCheckJsonSchema,
});
export type CachedPrecedent = z.infer<typeof CachedPrecedentSchema>;
