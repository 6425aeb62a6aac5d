/**
 * The extension's precedent check: "has <material> been reported with <property>?" answered from
 * the reader's own local sources — the imported reference tables and the rows of their dataset —
 * and cached per question, so asking again is instant until the reader asks for a re-check.
 */
import { checkPrecedent, type NamedReferenceTable, type PrecedentCheck, type PrecedentQuestion } from '../precedent/check-precedent';
import { parseReferenceTable } from '../precedent/reference-table';
import type { AssayDatabase } from '../store/assay-database';
import { queryTriplets } from '../store/dataset-repository';
import { getCachedPrecedent, putCachedPrecedent, referenceTableTexts, type PrecedentRecord } from '../store/precedent-repository';

/** The `searched` line the extension adds: it never searches the open literature (yet). */
export const LITERATURE_NOT_SEARCHED = { source: 'open literature', found: 0, note: 'not searched (turn on in Settings when a model engine is set)' } as const;

/**
 * Every imported table, parsed (`parseReferenceTable`) and named as imported. A stored table that
 * no longer parses (a parser change) is left out rather than failing the check.
 */
export async function loadReferenceTables(database: AssayDatabase): Promise<NamedReferenceTable[]> {
  const tables: NamedReferenceTable[] = [];
  for (const record of await referenceTableTexts(database)) {
    try {
      tables.push({ name: record.name, table: parseReferenceTable(record.csv) });
    } catch {
      // Validated on import; nothing to show for one that no longer reads.
    }
  }
  return tables;
}

/**
 * → the check of `question` with its date (`PrecedentRecord`: material as asked, property,
 * `checkedAt` ISO 8601, `check`). Returns the cached record (`getCachedPrecedent`) unless
 * `recheck` is set or none is cached; otherwise runs `checkPrecedent` on the imported tables
 * (`loadReferenceTables`) and the dataset's rows of `question.property` (`queryTriplets`), with
 * no model and no literature search (`searched` ends with `LITERATURE_NOT_SEARCHED`), caches and
 * returns the result dated `now()`. Rejects with the database's error when a read or write fails.
 */
export async function runPrecedentCheck(
  database: AssayDatabase,
  question: PrecedentQuestion,
  { recheck = false, now = () => new Date() }: { recheck?: boolean; now?: () => Date } = {},
): Promise<PrecedentRecord> {
  const material = question.material.trim();
  const property = question.property.trim();
  if (!recheck) {
    const cached = await getCachedPrecedent(database, material, property);
    if (cached) return cached;
  }
  const referenceTables = await loadReferenceTables(database);
  const { rows: dataset } = await queryTriplets(database, { property });
  // A variable, not a literal, so this compiles whether or not `PrecedentSources` declares `dataset` yet.
  const sources = { referenceTables, dataset };
  const found = await checkPrecedent({ material, property }, sources);
  const check: PrecedentCheck = { ...found, searched: [...found.searched, { ...LITERATURE_NOT_SEARCHED }] };
  if (check.answer === 'Unknown') check.unknownBecause = unknownText(check);
  return putCachedPrecedent(database, { material, property, checkedAt: now().toISOString(), check });
}

/** `unknownBecause` restated with the literature line included. */
function unknownText(check: PrecedentCheck): string {
  return `nothing answered; searched: ${check.searched.map((entry) => `${entry.source} (${entry.note})`).join('; ')}`;
}
