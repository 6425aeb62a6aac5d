/**
 * Papers the reader captured, found in a folder and matched to the DOIs of a ground truth
 * (`assay eval comproscanner-piezo --texts DIR`): for datasets that ship no text, the user
 * brings the papers they have access to.
 *
 * A file belongs to a DOI when its name is the DOI with every "/" written "_" (case-insensitive),
 * alone or followed by an extension (`10.1016_j.ceramint.2024.10.375.html`), optionally after an
 * index (`12_10.1016_j…`, bandgap-200's naming). Other files are captured and matched by the
 * DOI the capture found in them (page metadata, publisher XML, or the body). Any format
 * `captureFile` reads works: HTML, XHTML, JATS or Elsevier XML, PDF, plain text.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Article } from '../contracts/article';

/** The texts found for a set of DOIs. */
export interface PaperTexts {
  /** Lower-case DOI → the file and its captured article. */
  byDoi: Map<string, { path: string; article: Article }>;
  /** Files that could not be captured, with the reason. */
  unreadable: Array<{ path: string; message: string }>;
  /** Files whose name and captured DOI match none of the DOIs. */
  unmatched: string[];
  /** Files for a DOI that already had one (the first in name order is kept). */
  duplicates: string[];
}

/** The file-name form of a DOI: lower case, "/" as "_". */
export function doiFileStem(doi: string): string {
  return doi.trim().toLowerCase().replace(/\//g, '_');
}

/** The DOI among `dois` (lower case) that file `name` is named after, or null; the longest stem wins. */
export function doiOfFileName(name: string, dois: readonly string[]): string | null {
  const lower = name.toLowerCase().replace(/^\d+_(?=10\.)/, '');
  let best: string | null = null;
  for (const doi of dois) {
    const stem = doiFileStem(doi);
    if ((lower === stem || lower.startsWith(`${stem}.`)) && (best === null || stem.length > doiFileStem(best).length)) best = doi;
  }
  return best;
}

/**
 * Find the texts of `dois` in folder `dir` (its plain files, not sub-folders; names starting
 * with "." skipped), capturing each file at most once with `capture`. Rejects when `dir` cannot
 * be read; a file that fails to capture is listed in `unreadable`.
 */
export async function findPaperTexts(
  dir: string,
  dois: readonly string[],
  capture: (path: string) => Promise<Article>,
): Promise<PaperTexts> {
  const wanted = dois.map((doi) => doi.trim().toLowerCase());
  const wantedSet = new Set(wanted);
  const entries = (await readdir(dir, { withFileTypes: true }))
    .filter((entry) => entry.isFile() && !entry.name.startsWith('.'))
    .map((entry) => entry.name)
    .sort();
  const texts: PaperTexts = { byDoi: new Map(), unreadable: [], unmatched: [], duplicates: [] };
  for (const name of entries) {
    const path = join(dir, name);
    const named = doiOfFileName(name, wanted);
    if (named !== null && texts.byDoi.has(named)) {
      texts.duplicates.push(path);
      continue;
    }
    let article: Article;
    try {
      article = await capture(path);
    } catch (error) {
      texts.unreadable.push({ path, message: (error as Error).message });
      continue;
    }
    const doi = named ?? (article.doi !== null && wantedSet.has(article.doi.toLowerCase()) ? article.doi.toLowerCase() : null);
    if (doi === null) texts.unmatched.push(path);
    else if (texts.byDoi.has(doi)) texts.duplicates.push(path);
    else texts.byDoi.set(doi, { path, article });
  }
  return texts;
}
