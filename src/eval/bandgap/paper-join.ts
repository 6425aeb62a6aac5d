/**
 * Joining bandgap-200's files by DOI. The truth CSV, the text files (`<index>_<doi with / as
 * _>.txt`) and the recorded tool outputs (`<index>/<doi>`, BERT-PSIE `<index>_<doi with / as _>`)
 * each carry a paper index and a DOI. Upstream, the truth files' index disagrees with the text
 * files' (and recorded outputs') index for 42 papers of the 200 (none in the dev half the shared
 * data holds): the truth row indexed 113 is the DOI whose text is `163_…`. So every file is
 * joined to the truth papers by normalized DOI (`normalizeDoi` of src/capture/doi.ts, strict),
 * and by index only where a DOI is missing or names no truth paper — as for the four publisher
 * texts whose upstream name repeats the DOI's last segment (`70_10.1016_j.jmps.2019.02.003.003`
 * for 10.1016/j.jmps.2019.02.003, and 74, 78, 81) and their recorded outputs.
 */
import { normalizeDoi } from '../../capture/doi';

/** A paper as another file names it: its index and DOI as written, either possibly missing. */
export interface PaperReference {
  index: number | null;
  /** As written: `10.1039/C7CP03960C`, or with "/" written "_" (`10.1039_C7CP03960C`). */
  doi: string | null;
}

/**
 * The key two DOIs are compared by: `normalizeDoi` (lower case, prefixes and trailing
 * punctuation gone), with every "/" then written "_", because file names write "/" as "_" and
 * a DOI's own "_" cannot be told from a "/" there (`10.1088_0953-8984_27_11_115503` is
 * 10.1088/0953-8984/27/11/115503). A DOI written with "_" only gets its first "_" after the
 * prefix (`10.NNNN_`) read as the "/" normalizeDoi needs. Returns null when there is no valid DOI.
 */
export function doiJoinKey(doi: string | null | undefined): string | null {
  if (!doi) return null;
  let text = doi.trim();
  if (!text.includes('/')) text = text.replace(/^(10\.\d{4,9})_/, '$1/');
  return normalizeDoi(text)?.replace(/\//g, '_') ?? null;
}

/**
 * Read a paper reference as the dataset's files write it: `<index>/<doi>` (ChatExtract,
 * LangChain, ChemDataExtractor), `<index>_<doi>` (BERT-PSIE and the text file names, without
 * ".txt"), a bare DOI, or a bare index. Surrounding whitespace is ignored; a part that is not
 * there is null.
 */
export function parsePaperReference(text: string): PaperReference {
  const trimmed = text.trim();
  if (/^\d+$/.test(trimmed)) return { index: Number(trimmed), doi: null };
  const match = /^(\d+)[/_](.*)$/s.exec(trimmed);
  if (match) return { index: Number(match[1]), doi: match[2]!.trim() || null };
  return { index: null, doi: trimmed || null };
}

/** What `joinPapers` did: items per truth paper index, and how each item was placed. */
export interface PaperJoin<T> {
  /** Truth paper index → the items joined to it, in input order. */
  byPaper: Map<number, T[]>;
  /** Items joined by DOI. */
  byDoi: number;
  /** Items joined by index (their DOI missing or naming no truth paper). */
  byIndex: number;
  /** Items joined to no paper (neither DOI nor index names a free truth paper). */
  unmatched: number;
}

/**
 * Join `items` (each with the paper reference its file gives) to the truth `papers` (their
 * `index` and `doi` from the truth CSV): first by DOI (`doiJoinKey`); then an item whose DOI is
 * missing or names no truth paper goes to the truth paper with its index, unless the same list
 * shows that index is not that paper's: an item already reached that paper by DOI, or an item
 * with that index reached another paper by DOI (the list numbers papers otherwise than the
 * truth, as the misaligned upstream files do). Such an item, like one whose index names no
 * paper, is counted in `unmatched` and dropped. When two truth papers share a DOI the first (in
 * the order given) gets the items.
 */
export function joinPapers<T>(
  papers: readonly { index: number; doi: string }[],
  items: Iterable<readonly [PaperReference, T]>,
): PaperJoin<T> {
  const paperByDoi = new Map<string, number>();
  const paperIndexes = new Set<number>();
  for (const paper of papers) {
    paperIndexes.add(paper.index);
    const key = doiJoinKey(paper.doi);
    if (key && !paperByDoi.has(key)) paperByDoi.set(key, paper.index);
  }
  const join: PaperJoin<T> = { byPaper: new Map(), byDoi: 0, byIndex: 0, unmatched: 0 };
  const add = (index: number, item: T) => {
    const list = join.byPaper.get(index) ?? [];
    list.push(item);
    join.byPaper.set(index, list);
  };
  const reachedByDoi = new Set<number>();
  const numbersAnotherPaper = new Set<number>();
  const rest: (readonly [PaperReference, T])[] = [];
  for (const entry of items) {
    const key = doiJoinKey(entry[0].doi);
    const index = key === null ? undefined : paperByDoi.get(key);
    if (index === undefined) {
      rest.push(entry);
      continue;
    }
    reachedByDoi.add(index);
    if (entry[0].index !== null && entry[0].index !== index) numbersAnotherPaper.add(entry[0].index);
    join.byDoi += 1;
    add(index, entry[1]);
  }
  for (const [reference, item] of rest) {
    const index = reference.index;
    if (index === null || !paperIndexes.has(index) || reachedByDoi.has(index) || numbersAnotherPaper.has(index)) {
      join.unmatched += 1;
      continue;
    }
    join.byIndex += 1;
    add(index, item);
  }
  // A paper gets its items by DOI or by index, never both, so each list keeps the input order.
  return join;
}
