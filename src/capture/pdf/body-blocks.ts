/**
 * Document-level pass over page blocks: section names and the cut at the reference list. Pure.
 */
import type { BlockKind } from '../../contracts/article';
import { looksLikeHeadingText, stripSectionNumber, type LayoutBlock } from './page-blocks';

export interface BodyBlock {
  kind: BlockKind;
  text: string;
  page: number;
  section?: string;
}

const REFERENCES_HEADING = /^(?:references(?: and notes)?|bibliography|literature cited|notes and references|cited literature)\s*:?$/i;
/** Material that follows the reference list in preprints and is body again. */
const RESUME_HEADING = /^(?:figure captions?|figures?|tables?|appendix|supplementary|supporting information)\b/i;
/** The first entry of an unheaded numbered reference list, as in REVTeX: "[1] A. Author, …". */
const FIRST_REFERENCE = /^\[1\]\s*\S/;
/** A reference heading counts only in the latter part: earlier it is a table of contents or a citation. */
const LATTER_PART = 0.4;

/** A reference entry or a piece of one: "[12] …", "12. A. Author", "… 94, 161104 (2016)", "et al.". */
export function looksLikeReference(text: string): boolean {
  return /^\[\d+\]|^\d{1,3}\.?\s+\p{Lu}\.?\s|\bet al\b|\d\s*\((?:19|20)\d\d\)|\((?:19|20)\d\d\)\s*\d|\b(?:19|20)\d\d\s+[A-Z][\w.]*\s.*\d/u.test(
    text.trim(),
  );
}

/**
 * Attach `section` (the last heading's text) to every block and leave out the reference list:
 * from a "References"/"Bibliography" heading, or an unheaded list starting "[1]", found after the
 * first 40 % of the body's characters. Body resumes at a "Figure captions"/"Appendix" heading,
 * or on a later page whose first block is not a reference (figure pages after the list);
 * captions inside the list are kept. Returns the kept blocks and the pages left with no block
 * because they held only references.
 */
export function selectBodyBlocks(blocks: readonly LayoutBlock[]): {
  blocks: BodyBlock[];
  referencesCut: boolean;
  referenceOnlyPages: number[];
} {
  const total = blocks.reduce((sum, block) => sum + block.text.length, 0);
  const kept: BodyBlock[] = [];
  const skippedPages = new Set<number>();
  let seen = 0;
  let section: string | undefined;
  let inReferences = false;
  let referencesCut = false;
  let sawHeading = false;
  let previousPage = 0;
  for (const block of blocks) {
    const latter = seen >= LATTER_PART * total;
    seen += block.text.length;
    const newPage = block.page !== previousPage;
    previousPage = block.page;
    const title = block.kind === 'heading' ? stripSectionNumber(block.text) : '';
    if (
      latter &&
      ((block.kind === 'heading' && REFERENCES_HEADING.test(title)) || (block.kind === 'paragraph' && FIRST_REFERENCE.test(block.text)))
    ) {
      inReferences = true;
      referencesCut = true;
      skippedPages.add(block.page);
      section = undefined;
      continue;
    }
    if (inReferences) {
      const resumes = (block.kind === 'heading' && RESUME_HEADING.test(title)) || (newPage && !looksLikeReference(block.text));
      if (resumes) inReferences = false;
      else if (block.kind !== 'caption') {
        skippedPages.add(block.page);
        continue;
      }
    }
    // The paper's title (page 1, before any real section title) names no section.
    const isTitle = block.kind === 'heading' && !sawHeading && block.page === 1 && !looksLikeHeadingText(block.text);
    if (block.kind === 'heading') sawHeading = true;
    if (block.kind === 'heading' && !isTitle) section = block.text;
    kept.push(
      section === undefined
        ? { kind: block.kind, text: block.text, page: block.page }
        : { kind: block.kind, text: block.text, page: block.page, section },
    );
  }
  const keptPages = new Set(kept.map((block) => block.page));
  return { blocks: kept, referencesCut, referenceOnlyPages: [...skippedPages].filter((page) => !keptPages.has(page)) };
}
