/**
 * Cleaning a `<title>` for use as the article title, the last resort when the page has no
 * title metadata and no `<h1>`.
 */

/** Site names publishers append to `<title>` (after " | ", " - ", " : "). */
const SITE_SUFFIX =
  /\s+[|\-–—:]\s+(?:nature(?:\s+\w+)*|sciencedirect|science direct|springerlink|springer|wiley online library|acs publications|rsc publishing|pubs\.rsc\.org|iopscience|aip publishing|scitation|mdpi|arxiv(?:\.org)?|pmc|europe pmc|physical review \w+|phys\.? rev\.? \w+|ecs|the electrochemical society|annual reviews|article|full text|abstract)\b.*$/i;

/**
 * `<title>` text minus a trailing site name ("… | Nature", "… - ScienceDirect"), whitespace
 * collapsed; null when nothing meaningful is left. Older Nature pages use " : Article : Nature
 * Materials" and are handled by the same rule (the first recognized suffix cuts the rest).
 */
export function cleanDocumentTitle(raw: string | null | undefined): string | null {
  if (!raw) return null;
  let title = raw.replace(/\s+/g, ' ').trim();
  for (let round = 0; round < 3; round += 1) {
    const next = title.replace(SITE_SUFFIX, '').trim();
    if (next === title || next.length === 0) break;
    title = next;
  }
  return title.length > 0 ? title : null;
}
