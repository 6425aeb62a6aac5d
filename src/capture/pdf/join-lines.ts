/**
 * Joining the lines of a block into running text, undoing end-of-line hyphenation. Pure.
 *
 * The hyphen is dropped only between two lower-case letters ("elec-" + "tron"). Anything else
 * keeps it and joins without a space, because in materials papers a line-end hyphen is as often
 * a compound or a formula as a break: "Ba1-" + "xKxBiO3", "La2-" + "xSrxCuO4", "type-" + "II",
 * "Cu-" + "doped". When the document itself prints the hyphenated form elsewhere
 * ("two-dimensional" mid-line), that spelling wins over dropping the hyphen.
 */

const HYPHENS = /[-\u2010\u2011]$/;
const WORD_BEFORE = /(\p{L}+)[-\u2010\u2011]$/u;
const WORD_AFTER = /^(\p{L}+)/u;

/**
 * Join line texts into one string. `hyphenatedWords` holds lower-case words the document
 * prints with an inner hyphen mid-line (see `collectHyphenatedWords`).
 */
export function joinLineTexts(lines: readonly string[], hyphenatedWords: ReadonlySet<string> = new Set()): string {
  let text = '';
  for (const rawLine of lines) {
    const line = rawLine.trim();
    if (!line) continue;
    if (!text) {
      text = line;
      continue;
    }
    text = joinTwo(text, line, hyphenatedWords);
  }
  return text;
}

function joinTwo(before: string, after: string, hyphenatedWords: ReadonlySet<string>): string {
  // "x -" or a dash after a space is a minus or a dash, not a break: keep the space.
  if (!HYPHENS.test(before) || /\s[-\u2010\u2011]$/.test(before)) {
    return /[\u2014\u2013]$/.test(before) ? before + after : `${before} ${after}`;
  }
  const head = WORD_BEFORE.exec(before)?.[1];
  const tail = WORD_AFTER.exec(after)?.[1];
  const lowerBreak = head !== undefined && tail !== undefined && /\p{Ll}$/u.test(head) && /^\p{Ll}/u.test(tail);
  if (lowerBreak && !hyphenatedWords.has(`${head}-${tail}`.toLowerCase())) return before.slice(0, -1) + after;
  return before + after;
}

/**
 * Hyphenated word pairs printed inside a line (not across a line end), lower-cased, e.g.
 * "two-dimensional", "spin-orbit" (from "spin-orbit-coupled"). Input: every line text.
 */
export function collectHyphenatedWords(lines: Iterable<string>): Set<string> {
  const words = new Set<string>();
  for (const line of lines) {
    for (const match of line.matchAll(/\p{L}+(?:-\p{L}+)+(?=[^-\p{L}]|$)/gu)) {
      const parts = match[0].toLowerCase().split('-');
      for (let index = 1; index < parts.length; index++) words.add(`${parts[index - 1]}-${parts[index]}`);
    }
  }
  return words;
}
