/**
 * Reads and writes of saved papers. Every function takes the database as its first argument
 * (no module-level instance), so each extension context and each test chooses its own.
 */
import type { Article } from '../contracts/article';
import type { AssayDatabase } from './assay-database';
import { toPaperRecord, type PaperRecord } from './paper-record';

/**
 * Save a captured article, keyed by DOI, else URL, else title (see `paperKey`). Capturing the
 * same paper again replaces its record (one row per paper) and moves `capturedAt` to `now`.
 * Resolves to the record as saved.
 */
export async function savePaper(database: AssayDatabase, article: Article, now: Date = new Date()): Promise<PaperRecord> {
  const record = toPaperRecord(article, now.toISOString());
  await database.transaction('rw', database.papers, () => database.papers.put(record));
  return record;
}

/** All saved papers, most recently captured first. */
export async function listPapers(database: AssayDatabase): Promise<PaperRecord[]> {
  return database.papers.orderBy('capturedAt').reverse().toArray();
}

/** The paper saved under `key` (`doi:…`, `url:…` or `title:…`), or `undefined`. */
export async function getPaper(database: AssayDatabase, key: string): Promise<PaperRecord | undefined> {
  return database.papers.get(key);
}

/** Delete the paper saved under `key`; deleting a missing key is not an error. */
export async function deletePaper(database: AssayDatabase, key: string): Promise<void> {
  await database.transaction('rw', database.papers, () => database.papers.delete(key));
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
