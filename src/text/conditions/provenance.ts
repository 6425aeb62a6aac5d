/**
 * Where a value comes from, read from its sentence (issue 26): cited from elsewhere (with the
 * reference marker), computed or measured in this paper, or unknown. "Later on, SmN was shown to
 * be a semiconductor with a band gap of 0.7 eV [19]." is a cited value; the reader decides
 * whether to keep it.
 *
 * Trade-off on superscript references: PDF text flattens "energy²⁷,²⁸" to "energy27,28", which
 * cannot be told from a formula's subscripts ("MoS2", "Bi2Se3"), a sample label ("S1") or a
 * number glued by extraction. Reading glued digits as markers would mark formulas as citations,
 * so they are never read: such a value stays `computed`/`measured`/`unknown`, and only explicit
 * markers (brackets, "ref.", author–year, "et al.") make it `cited`.
 */
import type { TextSpan } from '../../contracts/text-span';
import type { ValueProvenance } from './condition-types';

/**
 * Reference markers as publishers print them (the numeric bracket style of IEEE / APS / AIP,
 * "ref. 12" of Nature, and author–year of the Chicago / APA styles; Chicago Manual of Style,
 * 17th ed., ch. 14–15).
 */
const MARKERS = [
  '\\[\\s*\\d+[a-z]?(?:\\s*[,–—−-]\\s*\\d+[a-z]?)*\\s*\\]',
  '\\(\\s*(?:refs?\\.?|references?)\\s*\\d+(?:\\s*[,–—−-]\\s*\\d+)*\\s*\\)',
  '(?<![\\p{L}])(?:refs?\\.|references?)\\s*\\d+(?:\\s*(?:[,–—−-]|and)\\s*\\d+)*',
  "\\(\\s*\\p{Lu}[\\p{L}'’-]+(?:\\s+et\\s+al\\.?|\\s+(?:and|&)\\s+\\p{Lu}[\\p{L}'’-]+)?,?\\s*(?:18|19|20)\\d{2}[a-z]?(?:\\s*;[^)]*)?\\)",
  "\\p{Lu}[\\p{L}'’-]+\\s+et\\s+al\\.?",
];

/**
 * Phrases that make an earlier marker in the clause the value's source: "Smith et al. [12]
 * reported", "previous work [12] found", "as reported in [12]" (reporting verbs and
 * time adverbs of citation: Swales, Genre Analysis, 1990, ch. 7, and Hyland, "Academic
 * attribution", Applied Linguistics 20, 341 (1999)).
 */
const REPORTING =
  '(?:reported|previous(?:ly)?|earlier|prior|literature|according\\s+to|other\\s+(?:works?|groups?|authors|studies|reports)|(?:was|were|has\\s+been|have\\s+been)\\s+shown|found\\s+by|as\\s+in|see|cf\\.)';

/**
 * Words of calculation (IUPAC Gold Book, "ab initio quantum mechanical methods"; Martin,
 * Electronic Structure, 2004: DFT, functionals LDA, GGA, PBE, HSE, B3LYP, SCAN, mBJ, and the GW
 * approximation).
 */
const COMPUTED =
  '(?:calculat(?:ed|ion|ions|ing)|comput(?:ed|ation|ations|ing)|predict(?:ed|ion|ions|s)?|first[\\s-]principles?|ab[\\s-]initio|density[\\s-]functional|theor(?:y|etical|etically)|simulat(?:ed|ion|ions)|quasi[\\s-]?particle)';
/** Acronyms of `COMPUTED`'s sources, matched case-sensitively ("SCAN", not "a temperature scan"). */
const COMPUTED_ACRONYMS = '(?:DFT(?:\\+U)?|HSE(?:06)?|PBE0?|GGA|LDA|LSDA|GW|G0W0|GW0|(?:TB-)?mBJ|B3LYP|SCAN)';

/**
 * Words of experiment (IUPAC Gold Book, "measurement"; the techniques of Yu & Cardona,
 * Fundamentals of Semiconductors, ch. 6–8: absorption, Tauc plot, photoluminescence,
 * ellipsometry, photoemission, ARPES, STS; and of transport and magnetometry).
 */
const MEASURED =
  '(?:measur(?:ed|ement|ements|ing)|observ(?:ed|ation|ations)|experiment(?:s|al|ally)?|Tauc|absorption\\s+(?:spectr(?:um|a)|edge|measurements?|onset)|photoluminescence|UV[\\s–-]?vis(?:ible)?|ellipsometr(?:y|ic)|scanning\\s+tunnel(?:l)?ing\\s+spectroscopy|photoemission|reflectance|transmittance|resistivity|susceptibility|magnetization|specific\\s+heat|spectra\\s+show)';
/** Acronyms of `MEASURED`'s sources, matched case-sensitively. */
const MEASURED_ACRONYMS = '(?:PL|ARPES|STS|XPS|UPS|EELS)';

/** Clause boundaries: ";", ":", a comma before a word, "while", "whereas", "but". */
function clauseOf(sentence: string, offset: number): TextSpan {
  let start = 0;
  let end = sentence.length;
  for (const match of sentence.matchAll(/[;:]\s|,\s+(?=\p{L})|\s(?:while|whereas|but)\s/gu)) {
    if (match.index + match[0].length <= offset) start = match.index + match[0].length;
    else if (match.index >= offset) {
      end = match.index;
      break;
    }
  }
  return { start, end };
}

/**
 * Does the text between the value's end and a marker only finish the value — its unit, more
 * numbers of the same list ("1.2 and 1.4 eV"), a parenthesis, "respectively" — so the marker is
 * the value's own and not a later noun's ("2.1 eV using the HSE06 functional [23]")?
 */
function onlyFinishesValue(between: string): boolean {
  const rest = between
    .replace(/\([^()]*\)/gu, ' ')
    .replace(/(?:^|\s|,)(?:and|or|to|,|–|-)?\s*[~≈∼]?\s*[-−]?\d+(?:\.\d+)?/gu, ' ')
    .replace(/(?<![\p{L}])(?:respectively|eV|meV|K|GPa|Å|nm|°C)(?![\p{L}])/gu, ' ');
  return /^[\s,.)]*$/u.test(rest);
}

/**
 * Where the value at `value` (a span of `sentence`, UTF-16 offsets, end exclusive) comes from:
 * - `cited` when a reference marker belongs to the value's clause: right after the value (only
 *   its unit, list or parenthesis between: "a band gap of 0.7 eV [19]" → reference "[19]"), or
 *   before it with an author ("Smith et al. [12] reported", "(Smith et al., 2010)"), a "ref. 12"
 *   or a reporting phrase ("previously reported [12]"), or after it as "as reported in [12]". A
 *   marker in another clause or after another noun ("the HSE06 functional [23]") does not count;
 * - else `computed` or `measured` by the cue nearest the value, in its clause first, then in the
 *   sentence (word lists and sources above);
 * - else `unknown`.
 * Cited wins over computed and measured. Never throws; bare digits glued to a word are never
 * read as markers (module comment).
 */
export function provenanceOf(sentence: string, value: TextSpan): ValueProvenance {
  const clause = clauseOf(sentence, value.start);
  const markers = [...sentence.matchAll(new RegExp(MARKERS.join('|'), 'giu'))].map((match) => ({
    start: match.index,
    end: match.index + match[0].length,
    text: match[0],
  }));
  for (const marker of markers) {
    const inClause = marker.start >= clause.start && marker.end <= clause.end;
    const after = marker.start >= value.end;
    const authorOrRef = /et\s+al|\d{4}[a-z]?\s*\)|^\(?\s*ref/iu.test(marker.text);
    const reportingBefore = new RegExp(`${REPORTING}[^.;]{0,40}$`, 'iu').test(sentence.slice(clause.start, marker.start));
    const reportingRight = new RegExp(`(?:as\\s+reported\\s+(?:in|by)|according\\s+to|see|cf\\.|taken\\s+from)\\s*$`, 'iu').test(
      sentence.slice(value.end, marker.start),
    );
    const owned =
      (after && inClause && onlyFinishesValue(sentence.slice(value.end, marker.start))) ||
      (after && reportingRight && marker.start - value.end < 80) ||
      (!after && inClause && (authorOrRef || reportingBefore) && marker.end <= value.start);
    if (owned) return { kind: 'cited', reference: marker.text.trim(), cue: { start: marker.start, end: marker.end, text: marker.text } };
  }
  for (const span of [clause, { start: 0, end: sentence.length }]) {
    const text = sentence.slice(span.start, span.end);
    let best: (TextSpan & { text: string; kind: 'computed' | 'measured' }) | undefined;
    for (const [kind, pattern, flags] of [
      ['computed', COMPUTED, 'giu'],
      ['computed', COMPUTED_ACRONYMS, 'gu'],
      ['measured', MEASURED, 'giu'],
      ['measured', MEASURED_ACRONYMS, 'gu'],
    ] as const)
      for (const match of text.matchAll(new RegExp(`(?<![\\p{L}\\p{N}])${pattern}(?![\\p{L}\\p{N}])`, flags))) {
        const start = span.start + match.index;
        const end = start + match[0].length;
        const distance = end <= value.start ? value.start - end : start - value.end;
        const bestDistance = best ? (best.end <= value.start ? value.start - best.end : best.start - value.end) : Infinity;
        if (distance < bestDistance) best = { start, end, text: match[0], kind };
      }
    if (best) return { kind: best.kind, cue: { start: best.start, end: best.end, text: best.text } };
  }
  return { kind: 'unknown' };
}
