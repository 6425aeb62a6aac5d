/**
 * Reads and writes of saved papers. Every function takes the database as its first argument
 * (no module-level instance), so each extension context and each test chooses its own.
 */
import { Dexie } from 'dexie';
import type { Article } from '../contracts/article';
import type { AssayDatabase } from './assay-database';
import { mergeCapture, toPaperRecord, type PaperRecord, type PaperVersion } from './paper-record';

/**
 * Earlier captures kept per paper, newest first; older ones are deleted. A paper is rarely
 * captured from more than a few sources (publisher page, PDF, preprint, a mirror), and each kept
 * capture holds a whole article (up to ~1 MB), so 5 keeps every source of a typical paper while
 * bounding what one paper can take in storage.
 */
export const MAX_PAPER_VERSIONS = 5;

/** A saved capture: the paper as it now stands, and what the reader must be told about the save. */
export interface SavedCapture {
  record: PaperRecord;
  /** In words: the saved full text kept over a lesser capture, a capture from another host (`mergeCapture`). */
  warnings: string[];
}

/**
 * Save a captured article, keyed by DOI, else URL, else title (see `paperKey`), one row per
 * paper. A new capture of a saved paper replaces it only when it is at least as good
 * (`mergeCapture`: full text is never replaced by an abstract or by nothing); the record not
 * kept becomes a `PaperVersion` (at most `MAX_PAPER_VERSIONS` per paper), and a capture from
 * another host than the saved one is named in `warnings`. All in one transaction.
 */
export async function saveCapture(database: AssayDatabase, article: Article, now: Date = new Date()): Promise<SavedCapture> {
  const incoming = toPaperRecord(article, now.toISOString());
  return database.transaction('rw', database.papers, database.paperVersions, async () => {
    const stored = await database.papers.get(incoming.key);
    if (!stored) {
      await database.papers.put(incoming);
      return { record: incoming, warnings: [] };
    }
    const { keep, warnings } = mergeCapture(stored, incoming);
    const { mergeWarnings: _earlierWarnings, ...earlier } = keep === 'stored' ? incoming : stored;
    const { mergeWarnings: _keptWarnings, ...kept } = keep === 'stored' ? stored : incoming;
    const current: PaperRecord = warnings.length > 0 ? { ...kept, mergeWarnings: warnings } : kept;
    await database.papers.put(current);
    await database.paperVersions.add({
      paperKey: incoming.key,
      capturedAt: earlier.capturedAt,
      reason: keep === 'stored' ? 'not-better' : 'replaced',
      record: earlier,
    });
    await pruneVersions(database, incoming.key);
    return { record: current, warnings };
  });
}

/**
 * `saveCapture` for callers that need only the record: resolves to the paper as it now stands
 * (which is the saved one, not `article`, when `article` was not better).
 */
export async function savePaper(database: AssayDatabase, article: Article, now: Date = new Date()): Promise<PaperRecord> {
  return (await saveCapture(database, article, now)).record;
}

/** The earlier captures kept for the paper saved under `key`, newest first. */
export async function listPaperVersions(database: AssayDatabase, key: string): Promise<PaperVersion[]> {
  return database.paperVersions.where('[paperKey+capturedAt]').between([key, Dexie.minKey], [key, Dexie.maxKey]).reverse().toArray();
}

/** Delete all but the newest `MAX_PAPER_VERSIONS` earlier captures of `key` (ties broken by insertion order). */
async function pruneVersions(database: AssayDatabase, key: string): Promise<void> {
  const versions = await database.paperVersions.where('[paperKey+capturedAt]').between([key, Dexie.minKey], [key, Dexie.maxKey]).toArray();
  versions.sort((a, b) => (a.capturedAt < b.capturedAt ? 1 : a.capturedAt > b.capturedAt ? -1 : (b.id ?? 0) - (a.id ?? 0)));
  const surplus = versions.slice(MAX_PAPER_VERSIONS).map((version) => version.id!);
  if (surplus.length > 0) await database.paperVersions.bulkDelete(surplus);
}

/** All saved papers, most recently captured first. */
export async function listPapers(database: AssayDatabase): Promise<PaperRecord[]> {
  return database.papers.orderBy('capturedAt').reverse().toArray();
}

/** The paper saved under `key` (`doi:…`, `url:…` or `title:…`), or `undefined`. */
export async function getPaper(database: AssayDatabase, key: string): Promise<PaperRecord | undefined> {
  return database.papers.get(key);
}

/** Delete the paper saved under `key` and its earlier captures; deleting a missing key is not an error. */
export async function deletePaper(database: AssayDatabase, key: string): Promise<void> {
  await database.transaction('rw', database.papers, database.paperVersions, async () => {
    await database.papers.delete(key);
    await database.paperVersions.where('[paperKey+capturedAt]').between([key, Dexie.minKey], [key, Dexie.maxKey]).delete();
  });
}

/**
 * Saved papers whose `url` starts with `prefix` (the `url` index; case-sensitive, as URLs are
 * stored), newest first. The side panel narrows them to the same page (fragment, trailing slash).
 */
export async function papersWithUrlPrefix(database: AssayDatabase, prefix: string): Promise<PaperRecord[]> {
  if (prefix === '') return [];
  const papers = await database.papers.where('url').startsWith(prefix).toArray();
  return papers.sort((a, b) => (a.capturedAt < b.capturedAt ? 1 : a.capturedAt > b.capturedAt ? -1 : 0));
}
