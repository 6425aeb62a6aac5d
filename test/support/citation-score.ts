/**
 * Field-by-field comparison of captured citation metadata with a hand-read expectation
 * (`test/corpus/citation-metadata-truth.ts`), as a reference manager user would judge it:
 * authors by family name and first initial in order, journal by its words (case, punctuation and
 * "&"/"and" aside), volume as written, pages with any dash, year exactly.
 */
import type { CitationTruth } from '../corpus/citation-metadata-truth';

export const CITATION_FIELDS = ['authors', 'journal', 'volume', 'pages', 'year'] as const;
export type CitationField = (typeof CITATION_FIELDS)[number];

/** What the capture produced for the five fields (missing ones null or empty). */
export interface CapturedCitation {
  authors: readonly string[];
  journal: string | null;
  volume?: string | null;
  pages?: string | null;
  year: number | null;
}

const SUFFIX = /^(?:jr|sr|ii|iii|iv)\.?$/i;

function letters(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

/** "Given Family" or "Family, Given" → first initial + family name, letters only ("jpmalrieu" is "jmalrieu"). */
export function authorKey(name: string): string {
  const trimmed = name.replace(/\s+/g, ' ').trim();
  const comma = /^([^,]+),\s*(.+)$/.exec(trimmed);
  let given: string;
  let family: string;
  if (comma?.[1] && comma[2] && !SUFFIX.test(comma[2].trim())) {
    family = comma[1];
    given = comma[2];
  } else {
    const words = trimmed.replace(/,.*$/, '').split(' ');
    family = words.pop() ?? '';
    given = words.join(' ');
  }
  return `${letters(given).slice(0, 1)}${letters(family)}`;
}

function journalKey(journal: string): string {
  return letters(journal.replace(/&/g, ' and '));
}

function pagesKey(pages: string): string {
  return pages.replace(/\s+/g, '').replace(/[‐-―−]/g, '-');
}

/** Which of the five fields `captured` has right against `truth`. */
export function scoreCitation(captured: CapturedCitation, truth: CitationTruth): Record<CitationField, boolean> {
  const authors = captured.authors.map(authorKey);
  const wanted = truth.authors.map(authorKey);
  return {
    authors: authors.length === wanted.length && authors.every((key, index) => key === wanted[index]),
    journal:
      truth.journal === null
        ? captured.journal === null
        : captured.journal !== null && journalKey(captured.journal) === journalKey(truth.journal),
    volume: (captured.volume ?? null) === truth.volume,
    pages:
      truth.pages === null
        ? (captured.pages ?? null) === null
        : captured.pages != null && pagesKey(captured.pages) === pagesKey(truth.pages),
    year: captured.year === truth.year,
  };
}
