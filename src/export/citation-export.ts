/**
 * The source papers of dataset rows as citations: CSL-JSON (Zotero, Pandoc, citeproc) and
 * BibTeX. One entry per distinct paper (by paper key), in order of first appearance; both
 * formats share the citation key (`smith2019band`).
 */
import type { DatasetTriplet, SourcePaper } from '../contracts/dataset';

/** A person's name in CSL-JSON terms (CSL-JSON schema, `name-variable`). */
export interface CslName {
  family?: string;
  given?: string;
  suffix?: string;
  /** A name that cannot be split ("IUPAC", a one-word name). */
  literal?: string;
}

/** Lower-case particles that belong to the family name ("van der Waals", "de Gennes"). */
const PARTICLES = new Set([
  'van',
  'von',
  'der',
  'den',
  'de',
  'del',
  'della',
  'di',
  'da',
  'du',
  'dos',
  'das',
  'la',
  'le',
  'ter',
  'ten',
  'bin',
  'al',
  'el',
]);
const SUFFIX = /^(?:Jr\.?|Sr\.?|II|III|IV)$/;

/**
 * Split a printed author name naively but sensibly: "Family, Given" at the comma; otherwise the
 * last word is the family name, together with any lower-case particles before it ("Pierre-Gilles
 * de Gennes" → de Gennes, Pierre-Gilles) and a trailing "Jr."/"III" as suffix; a single word is
 * kept as a literal.
 */
export function splitAuthorName(name: string): CslName {
  const clean = name.trim().replace(/\s+/g, ' ');
  const comma = clean.indexOf(',');
  if (comma > 0) {
    const family = clean.slice(0, comma).trim();
    const given = clean.slice(comma + 1).trim();
    return given ? { family, given } : { literal: family };
  }
  const words = clean.split(' ');
  const suffix = words.length > 2 && SUFFIX.test(words.at(-1)!) ? words.pop() : undefined;
  if (words.length < 2) return { literal: clean };
  let start = words.length - 1;
  while (start > 1 && PARTICLES.has(words[start - 1]!)) start -= 1;
  return { family: words.slice(start).join(' '), given: words.slice(0, start).join(' '), ...(suffix && { suffix }) };
}

/** Distinct papers of `rows` by key, in order of first appearance. */
function distinctPapers(rows: readonly DatasetTriplet[]): SourcePaper[] {
  const papers = new Map<string, SourcePaper>();
  for (const row of rows) if (!papers.has(row.paper.key)) papers.set(row.paper.key, row.paper);
  return [...papers.values()];
}

/** ASCII letters and digits only, lower case: "Müller" → "muller", "Łukasz" → "lukasz". */
function asciiWord(text: string): string {
  const folded = text.replace(/ß/g, 'ss').replace(/[øØ]/g, 'o').replace(/[æÆ]/g, 'ae').replace(/[œŒ]/g, 'oe').replace(/[łŁ]/g, 'l');
  return folded
    .normalize('NFD')
    .replace(/[^A-Za-z0-9]/g, '')
    .toLowerCase();
}

const TITLE_STOPWORDS = new Set([
  'a',
  'an',
  'the',
  'on',
  'of',
  'in',
  'for',
  'and',
  'to',
  'with',
  'by',
  'at',
  'from',
  'via',
  'toward',
  'towards',
]);

/** `family + year + first significant title word`, e.g. "smith2019band"; "anon" without authors; duplicates get "a", "b", … appended. */
function citationKeys(papers: readonly SourcePaper[]): Map<string, string> {
  const keys = new Map<string, string>();
  const used = new Map<string, number>();
  for (const paper of papers) {
    const first = paper.authors[0] ? splitAuthorName(paper.authors[0]) : undefined;
    const author = asciiWord(first?.family ?? first?.literal ?? '') || 'anon';
    const word =
      paper.title
        .split(/\s+/)
        .map(asciiWord)
        .find((candidate) => candidate !== '' && !TITLE_STOPWORDS.has(candidate)) ?? '';
    const base = `${author}${paper.year ?? ''}${word}`;
    const count = used.get(base) ?? 0;
    used.set(base, count + 1);
    keys.set(paper.key, count === 0 ? base : `${base}${String.fromCharCode(96 + Math.min(count, 26))}`);
  }
  return keys;
}

/**
 * The distinct source papers as a CSL-JSON array (https://citeproc-js.readthedocs.io/en/latest/csl-json/markup.html):
 * `type: 'article-journal'`, `id` (the BibTeX key), `title`, `author` (split by
 * `splitAuthorName`), and when known `container-title`, `volume`, `page` ("10709-10716"),
 * `issued.date-parts` [[year]], `DOI`, `URL`.
 */
export function toCslJson(rows: readonly DatasetTriplet[]): string {
  const papers = distinctPapers(rows);
  const keys = citationKeys(papers);
  const items = papers.map((paper) => ({
    id: keys.get(paper.key)!,
    type: 'article-journal',
    title: paper.title,
    ...(paper.authors.length > 0 && { author: paper.authors.map(splitAuthorName) }),
    ...(paper.journal && { 'container-title': paper.journal }),
    ...(paper.volume && { volume: paper.volume }),
    ...(paper.pages && { page: paper.pages }),
    ...(paper.year !== null && { issued: { 'date-parts': [[paper.year]] } }),
    ...(paper.doi && { DOI: paper.doi }),
    ...(paper.url && { URL: paper.url }),
  }));
  return `${JSON.stringify(items, null, 2)}\n`;
}

/** TeX accent commands for combining marks (NFD): symbol accents take the letter directly, letter accents in braces. */
const ACCENTS: Record<string, string> = {
  '\u0300': '`',
  '\u0301': "'",
  '\u0302': '^',
  '\u0303': '~',
  '\u0304': '=',
  '\u0307': '.',
  '\u0308': '"',
  '\u0306': 'u',
  '\u030A': 'r',
  '\u030B': 'H',
  '\u030C': 'v',
  '\u0327': 'c',
  '\u0328': 'k',
};
const LETTERS: Record<string, string> = {
  ß: '{\\ss}',
  ø: '{\\o}',
  Ø: '{\\O}',
  æ: '{\\ae}',
  Æ: '{\\AE}',
  œ: '{\\oe}',
  Œ: '{\\OE}',
  å: '{\\aa}',
  Å: '{\\AA}',
  ł: '{\\l}',
  Ł: '{\\L}',
  ı: '{\\i}',
  '–': '--',
  '—': '---',
  '‘': '`',
  '’': "'",
  '“': '``',
  '”': "''",
  '−': '$-$',
  '±': '$\\pm$',
  '×': '$\\times$',
  '°': '\\textdegree{}',
  µ: '$\\mu$',
};
/** Greek letters with a LaTeX math command (omicron and the capitals that look Latin have none). */
const GREEK: Record<string, string> = Object.fromEntries([
  ...[...'αβγδεζηθικλμνξπρστυφχψω'].map((letter, index) => [
    letter,
    [
      'alpha',
      'beta',
      'gamma',
      'delta',
      'epsilon',
      'zeta',
      'eta',
      'theta',
      'iota',
      'kappa',
      'lambda',
      'mu',
      'nu',
      'xi',
      'pi',
      'rho',
      'sigma',
      'tau',
      'upsilon',
      'phi',
      'chi',
      'psi',
      'omega',
    ][index]!,
  ]),
  ...[...'ΓΔΘΛΞΠΣΥΦΨΩ'].map((letter, index) => [
    letter,
    ['Gamma', 'Delta', 'Theta', 'Lambda', 'Xi', 'Pi', 'Sigma', 'Upsilon', 'Phi', 'Psi', 'Omega'][index]!,
  ]),
]);
const SUBSCRIPTS = '₀₁₂₃₄₅₆₇₈₉';
const SUPERSCRIPTS = '⁰¹²³⁴⁵⁶⁷⁸⁹';
const ASCII_SPECIAL: Record<string, string> = {
  '\\': '\\textbackslash{}',
  '{': '\\{',
  '}': '\\}',
  '&': '\\&',
  '%': '\\%',
  $: '\\$',
  '#': '\\#',
  _: '\\_',
  '~': '\\textasciitilde{}',
  '^': '\\textasciicircum{}',
};

function accented(character: string): string | undefined {
  const [base, ...marks] = [...character.normalize('NFD')];
  if (!base || !/^[A-Za-z]$/.test(base) || marks.length === 0 || !marks.every((mark) => ACCENTS[mark])) return undefined;
  let result = base === 'i' || base === 'j' ? `\\${base}` : base;
  for (const mark of marks) {
    const command = ACCENTS[mark]!;
    result = /^[a-zA-Z]$/.test(command) ? `\\${command}{${result}}` : `\\${command}${result}`;
  }
  return `{${result}}`;
}

/**
 * Escape text for a BibTeX field: the specials `\ { } & % $ # _ ~ ^` get their TeX forms;
 * accented Latin letters become accent commands ("é" → "{\'e}", "ç" → "{\c{c}}"), ß/ø/æ/ł their
 * commands, Greek letters math symbols ("α" → "$\alpha$"), sub/superscript digits
 * `\textsubscript`/`\textsuperscript`, dashes and curly quotes TeX ligatures. Other non-ASCII
 * characters are kept as UTF-8 (biber and bibtexu read them).
 */
export function escapeBibtex(text: string): string {
  let result = '';
  for (const character of text.normalize('NFC')) {
    const code = character.codePointAt(0)!;
    if (code < 128) {
      result += ASCII_SPECIAL[character] ?? character;
      continue;
    }
    const greek = GREEK[character];
    if (greek) result += `$\\${greek}$`;
    else if (SUBSCRIPTS.includes(character)) result += `\\textsubscript{${SUBSCRIPTS.indexOf(character)}}`;
    else if (SUPERSCRIPTS.includes(character)) result += `\\textsuperscript{${SUPERSCRIPTS.indexOf(character)}}`;
    else result += LETTERS[character] ?? accented(character) ?? character;
  }
  return result;
}

/** A title word with a capital after its first letter ("TiO2", "DFT", "MoS2") is braced so styles do not lower-case it. */
function bibtexTitle(title: string): string {
  return title
    .split(/(\s+)/)
    .map((word) => (/^\s*$/.test(word) || !/^.+\p{Lu}/u.test(word) ? escapeBibtex(word) : `{${escapeBibtex(word)}}`))
    .join('');
}

function bibtexName(name: CslName): string {
  if (name.literal !== undefined) return `{${escapeBibtex(name.literal)}}`;
  const family = escapeBibtex(name.family ?? '');
  const given = escapeBibtex(name.given ?? '');
  return name.suffix ? `${family}, ${escapeBibtex(name.suffix)}, ${given}` : `${family}, ${given}`;
}

/** URL-like fields are read verbatim by biblatex and `\url`; only braces would unbalance the entry, so they are percent-encoded. */
function verbatimField(text: string): string {
  return text.replace(/\{/g, '%7B').replace(/\}/g, '%7D');
}

/**
 * The distinct source papers as BibTeX `@article` entries keyed `family + year + title word`
 * ("smith2019band"; duplicates get "a", "b", …): author ("Family, Given" joined by " and "),
 * title (words with inner capitals braced), journal, volume, pages (a range with BibTeX's "--"),
 * year, doi, url. Text fields are escaped
 * with `escapeBibtex`.
 */
export function toBibtex(rows: readonly DatasetTriplet[]): string {
  const papers = distinctPapers(rows);
  const keys = citationKeys(papers);
  return papers
    .map((paper) => {
      const fields: [string, string][] = [
        ...(paper.authors.length > 0
          ? [['author', paper.authors.map((author) => bibtexName(splitAuthorName(author))).join(' and ')] as [string, string]]
          : []),
        ['title', bibtexTitle(paper.title)],
        ...(paper.journal ? [['journal', escapeBibtex(paper.journal)] as [string, string]] : []),
        ...(paper.volume ? [['volume', escapeBibtex(paper.volume)] as [string, string]] : []),
        ...(paper.pages ? [['pages', escapeBibtex(paper.pages).replace(/\s*[-–—]+\s*/g, '--')] as [string, string]] : []),
        ...(paper.year !== null ? [['year', String(paper.year)] as [string, string]] : []),
        ...(paper.doi ? [['doi', verbatimField(paper.doi)] as [string, string]] : []),
        ...(paper.url ? [['url', verbatimField(paper.url)] as [string, string]] : []),
      ];
      return `@article{${keys.get(paper.key)},\n${fields.map(([name, value]) => `  ${name} = {${value}},\n`).join('')}}\n`;
    })
    .join('\n');
}
