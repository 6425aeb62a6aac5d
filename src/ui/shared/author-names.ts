/**
 * Author lists as a reader expects them in a paper header: "A. Toland, H. Tran, L. Chen et al."
 * (initials and family name, the first few, then "et al."), from names stored as captured
 * ("Aubrey Toland", "Schulz, Philip", "C L Mak").
 */
import { splitAuthorName } from '../../export/citation-export';

/** How many names the short list shows before "et al." (the APA/ACS habit for a header line). */
export const SHORT_AUTHOR_COUNT = 3;

/** "Jong-Ho" → "J.-H.", "Aubrey" → "A.", "J." → "J."; a word that is not a name part is kept. */
function initialsOf(given: string): string {
  return given
    .split(/\s+/)
    .filter((word) => word !== '')
    .map((word) =>
      word
        .split('-')
        .map((part) => {
          const letter = /\p{L}/u.exec(part)?.[0];
          return letter ? `${letter.toUpperCase()}.` : part;
        })
        .join('-'),
    )
    .join(' ');
}

/** One name as "A. B. Family" ("Schulz, Philip" → "P. Schulz"); a single-word name stays as it is. */
export function shortAuthorName(name: string): string {
  const split = splitAuthorName(name);
  if (split.literal !== undefined) return split.literal;
  const initials = initialsOf(split.given ?? '');
  return [initials, split.family, split.suffix].filter((part) => part !== undefined && part !== '').join(' ');
}

/**
 * The first `count` names, shortened and comma-separated, then " et al." when there are more;
 * "" for no authors. Example: ["Aubrey Toland", "Huan Tran", "Lihua Chen", "Yinghao Li"] →
 * "A. Toland, H. Tran, L. Chen et al.".
 */
export function shortAuthorList(authors: readonly string[], count = SHORT_AUTHOR_COUNT): string {
  const shown = authors.slice(0, count).map(shortAuthorName).join(', ');
  return authors.length > count ? `${shown} et al.` : shown;
}
