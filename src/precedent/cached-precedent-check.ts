/**
 * The precedent check as the extension runs it: "has <material> been reported with <property>?" answered from
 * the reader's own local sources — the imported reference tables and the rows of their dataset —
 * then, when the reader turned it on, the open literature judged by their model engine (a
 * `precedent-check` request to the offscreen document), and cached per question, so asking again
 * is instant until the reader asks for a re-check.
 */
import type { EngineSettings } from '../contracts/matrix-run';
import type { RequestOf, ResponseOf } from '../contracts/messages';
import type { CachedPrecedent, ReferenceTableSummary } from '../contracts/precedent-store';
import type { AssayDatabase } from '../store/assay-database';
import { queryTriplets } from '../store/dataset-repository';
import { addReferenceTable, getCachedPrecedent, putCachedPrecedent, referenceTableTexts } from '../store/precedent-repository';
import { checkPrecedent, type NamedReferenceTable, type PrecedentCheck, type PrecedentQuestion } from './check-precedent';
import { parseReferenceTable } from './reference-table';

/** A cached check with its date: the material as asked, the property, `checkedAt` (ISO 8601) and the check. */
export type PrecedentRecord = Omit<CachedPrecedent, 'check'> & { check: PrecedentCheck };

/** What a precedent check needs to search the literature: the contact, the key, the reader's engine. */
export interface PrecedentLiteratureChoice {
  mailto: string;
  openAlexKey?: string;
  engine: EngineSettings;
}

/** The `searched` line the extension adds when the open literature is off (Settings and models → Open literature). */
export const LITERATURE_NOT_SEARCHED = {
  source: 'open literature',
  found: 0,
  note: 'not searched (turn on in Settings when a model engine is set)',
} as const;

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
 * Parse `csv` (`parseReferenceTable`) and store it as table `name` (`addReferenceTable`, which
 * also empties the cache of checks). Resolves to the stored summary. Throws an Error in words —
 * "Could not import <name>: …" — when the CSV is malformed, lacks a required column, or has no
 * readable Tc/Tcn row; nothing is stored then.
 */
export async function importReferenceTable(
  database: AssayDatabase,
  name: string,
  csv: string,
  options: { now?: () => Date; newId?: () => string } = {},
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
  return addReferenceTable(database, { name, csv, rowCount }, options);
}

/** The open literature for one check: the reader's choice and how to ask the offscreen document. */
export interface PrecedentLiteratureOptions extends PrecedentLiteratureChoice {
  /** Send `precedent-check` (`sendRequest` in the extension; a fake in tests). */
  send: (request: RequestOf<'precedent-check'>) => Promise<ResponseOf<'precedent-check'>>;
}

/**
 * → the check of `question` with its date (`PrecedentRecord`: material as asked, property,
 * `checkedAt` ISO 8601, `check`). Returns the cached record (`getCachedPrecedent`) unless
 * `recheck` is set, none is cached, or `literature` is given and the cached check did not search
 * it (`LITERATURE_NOT_SEARCHED` among its lines). Otherwise runs `checkPrecedent` on the imported
 * tables (`loadReferenceTables`) and the dataset's rows of `question.property` (`queryTriplets`)
 * with no model, then:
 * - `literature` absent: `searched` ends with `LITERATURE_NOT_SEARCHED`;
 * - local sources answered: that answer, with "open literature: not searched: answered locally";
 * - else: `literature.send({ type: 'precedent-check', … })` and its check; a failure response
 *   keeps the local Unknown with an "open literature: failed — <message>" line.
 * The result is cached and returned dated `now()`. Rejects with the database's error when a read
 * or write fails (never because of the literature).
 */
export async function runPrecedentCheck(
  database: AssayDatabase,
  question: PrecedentQuestion,
  {
    recheck = false,
    now = () => new Date(),
    literature,
  }: { recheck?: boolean; now?: () => Date; literature?: PrecedentLiteratureOptions } = {},
): Promise<PrecedentRecord> {
  const material = question.material.trim();
  const property = question.property.trim();
  if (!recheck) {
    // The stored check was checked against `PrecedentCheckJsonSchema` on the way out of the cache
    // (everything the card shows); the judge's claims, related materials and phases pass as stored.
    const cached = (await getCachedPrecedent(database, material, property)) as PrecedentRecord | undefined;
    if (cached && !(literature && literatureSkipped(cached.check))) return cached;
  }
  const referenceTables = await loadReferenceTables(database);
  const { rows: dataset } = await queryTriplets(database, { property });
  const found = await checkPrecedent({ material, property }, { referenceTables, dataset });
  const check = literature
    ? await withLiterature(found, { material, property }, literature)
    : withLine(found, { ...LITERATURE_NOT_SEARCHED });
  const record = await putCachedPrecedent(database, { material, property, checkedAt: now().toISOString(), check });
  return { ...record, check };
}

/** True when the check was made with the literature off. */
function literatureSkipped(check: PrecedentCheck): boolean {
  return check.searched.some((entry) => entry.source === LITERATURE_NOT_SEARCHED.source && entry.note === LITERATURE_NOT_SEARCHED.note);
}

async function withLiterature(
  local: PrecedentCheck,
  question: PrecedentQuestion,
  literature: PrecedentLiteratureOptions,
): Promise<PrecedentCheck> {
  if (local.answer !== 'Unknown')
    return withLine(local, { source: LITERATURE_NOT_SEARCHED.source, found: 0, note: 'not searched: answered from your local sources' });
  const { send, mailto, openAlexKey, engine } = literature;
  let answer: ResponseOf<'precedent-check'>;
  try {
    answer = await send({
      type: 'precedent-check',
      material: question.material,
      property: question.property,
      literature: { mailto, ...(openAlexKey ? { openAlexKey } : {}) },
      engine,
    });
  } catch (error) {
    answer = { ok: false, failure: { code: 'internal', message: error instanceof Error ? error.message : String(error) } };
  }
  if (!answer.ok) return withLine(local, { source: LITERATURE_NOT_SEARCHED.source, found: 0, note: `failed — ${answer.failure.message}` });
  // Checked by `PrecedentCheckJsonSchema` on receipt (everything the card shows); the judge's
  // dropped claims, related materials and phases pass through as the offscreen document sent them
  // (the schema keeps them `unknown`), so this cast is about those three lists only.
  return answer.check as unknown as PrecedentCheck;
}

/** `check` with `line` appended to `searched` (and `unknownBecause` restated when Unknown). */
function withLine(check: PrecedentCheck, line: PrecedentCheck['searched'][number]): PrecedentCheck {
  const next: PrecedentCheck = { ...check, searched: [...check.searched, line] };
  if (next.answer === 'Unknown') next.unknownBecause = unknownText(next);
  return next;
}
/** `unknownBecause` restated with the literature line included. */
function unknownText(check: PrecedentCheck): string {
  return `nothing answered; searched: ${check.searched.map((entry) => `${entry.source} (${entry.note})`).join('; ')}`;
}
