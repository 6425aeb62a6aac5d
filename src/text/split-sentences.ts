/**
 * A small sentence splitter for scientific prose. It splits after ".", "!" or "?" followed by
 * white space and a capital letter, digit, bracket or quote, except after abbreviations common
 * in papers ("et al.", "Fig.", "e.g.", "i.e.", "ca.", "Eq.", "Ref.", journal abbreviations) and
 * after initials ("J. Smith"). Decimal points never split: they are not followed by white space.
 *
 * Trade-off: general-purpose splitters (Intl.Segmenter, sbd) split on "Fig. 2" or "et al. [3]";
 * a list of the abbreviations papers use is smaller and predictable, and a missed split only
 * makes a candidate's sentence longer, never loses it.
 */

/** A sentence: offsets into the text given (UTF-16, end exclusive), trimmed of white space. */
export interface SentenceSpan {
  start: number;
  end: number;
}

// Lower-cased, without the final period. Multi-period ones ("e.g") are matched on the token.
// Sources: the scholarly abbreviations of The Chicago Manual of Style, 17th ed., ch. 10 (et al.,
// cf., vs., e.g., i.e., ca., fig., eq., ref., no., vol., pp., ed., etc., viz., titles Dr., Prof.);
// journal title words as ISO 4 abbreviates them (ISSN List of Title Word Abbreviations: phys.,
// rev., lett., chem., mater., appl., sci., soc., …).
const abbreviations = new Set([
  'al',
  'fig',
  'figs',
  'e.g',
  'i.e',
  'ca',
  'cf',
  'vs',
  'eq',
  'eqs',
  'ref',
  'refs',
  'no',
  'nos',
  'tab',
  'approx',
  'resp',
  'dr',
  'prof',
  'mr',
  'ms',
  'sect',
  'sec',
  'ch',
  'vol',
  'pp',
  'p',
  'ed',
  'eds',
  'etc',
  'viz',
  'ph.d',
  'jpn',
  'phys',
  'rev',
  'lett',
  'chem',
  'mater',
  'appl',
  'sci',
  'soc',
  'j',
  'am',
  'nat',
  'commun',
  'adv',
  'inorg',
  'solid',
  'state',
  'condens',
  'matter',
  'supercond',
  'technol',
  'proc',
  'natl',
  'acad',
  'int',
  'ser',
  'suppl',
  'approx',
  'est',
  'exp',
  'expt',
  'calc',
  'temp',
  'max',
  'min',
  'avg',
  'ave',
  'std',
  'wt',
  'at',
  'mol',
  'eqn',
  'eqns',
  'sup',
  'inc',
  'ltd',
  'co',
]);

// Characters a new sentence may start with: a capital (Latin or Greek), a digit, a bracket or a quote.
const sentenceStart = /[\p{Lu}\p{N}([{"'“‘]/u;

function isAbbreviation(token: string, previousToken: string): boolean {
  const bare = token.replace(/^[([{"'“‘]+/, '').slice(0, -1); // without the final "."
  if (bare === '') return false;
  if (abbreviations.has(bare.toLowerCase())) return true;
  // An initial: a single capital letter ("J. Smith"), unless it follows a number, where it is a
  // unit ("cooled to 4 K. The …").
  if (/^\p{Lu}$/u.test(bare)) return !/\d$/.test(previousToken);
  // Dotted abbreviations and initials: "e.g.", "i.e.", "J.-P.", "U.S."
  if (/^(?:\p{L}{1,2}\.)+\p{L}{1,2}$/u.test(bare) || /^\p{Lu}\.-\p{Lu}$/u.test(bare)) return true;
  return false;
}

/**
 * Split `text` into sentences. Returns spans in order, covering every non-blank character;
 * line breaks inside a sentence (PDF text) do not split it. Never throws.
 */
export function splitSentences(text: string): SentenceSpan[] {
  const spans: SentenceSpan[] = [];
  let sentenceBegin = 0;
  // A citation glued after the period ("slightly smaller.11 The PDF", "excitons16. It") stays
  // with its sentence: after a letter or bracket, ".<digits>" is a reference, not a decimal.
  const boundary = /(?:(?<=[\p{L})\]])\.\d{1,3}(?:[,–-]\d{1,3})*|[.!?]+["'”’)\]]*)(?=\s)/gu;
  for (const match of text.matchAll(boundary)) {
    const end = match.index + match[0].length;
    const rest = text.slice(end);
    const next = /^\s+(\S)/u.exec(rest);
    if (!next || !sentenceStart.test(next[1]!)) continue;
    if (match[0] === '.') {
      const before = text.slice(Math.max(sentenceBegin, end - 80), end); // the last two tokens suffice
      const tokens = before.split(/\s+/);
      const token = tokens[tokens.length - 1] ?? '';
      const previousToken = tokens[tokens.length - 2] ?? '';
      if (isAbbreviation(token, previousToken)) continue;
    }
    pushTrimmed(text, sentenceBegin, end, spans);
    sentenceBegin = end;
  }
  pushTrimmed(text, sentenceBegin, text.length, spans);
  return spans;
}

function pushTrimmed(text: string, start: number, end: number, into: SentenceSpan[]): void {
  while (start < end && /\s/.test(text[start]!)) start++;
  while (end > start && /\s/.test(text[end - 1]!)) end--;
  if (end > start) into.push({ start, end });
}
