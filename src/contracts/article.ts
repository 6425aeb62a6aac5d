/**
 * The `Article` contract: what every capture path (HTML page, publisher XML, PDF, plain text)
 * produces, and what every later stage (scan, extract, ground, store) consumes.
 *
 * Invariant checked by `ArticleSchema`: for every block, `text.slice(block.start, block.end)`
 * equals `block.text`, blocks are in reading order and do not overlap. Evidence selectors are
 * character offsets into `text`, so this invariant is what makes a quote re-anchorable.
 */
import { z } from 'zod';
import { CAPTURED_TEXT_LIMITS as LIMITS, capturedString } from './captured-text';

/**
 * A DOI as stored: lower-case, no `doi:` or resolver prefix, e.g. `10.1021/acs.jpca.3c05870`.
 * Control characters are stripped first (a page can write them into its `citation_doi`).
 */
export const DoiSchema = capturedString('DOI', LIMITS.doi).pipe(z.string().regex(/^10\.\d{4,9}\/\S+$/, 'not a normalized DOI'));

export const BlockKindSchema = z.enum(['heading', 'paragraph', 'caption', 'table']);
export type BlockKind = z.infer<typeof BlockKindSchema>;

export const BlockSchema = z.object({
  /** Stable within one capture: `b0`, `b1`, … in reading order. */
  id: z.string(),
  kind: BlockKindSchema,
  /** Title of the enclosing section as printed ("Abstract", "2. Experimental", …), if known. */
  section: capturedString('section name', LIMITS.section).optional(),
  /** 1-based page number; PDFs only. */
  page: z.number().int().positive().optional(),
  text: z
    .string()
    .min(1)
    .max(LIMITS.block, `block text is longer than ${LIMITS.block.toLocaleString('en-US')} characters: the capture splits longer runs`),
  /** Offsets into `Article.text`, in UTF-16 code units (JavaScript string indices), end exclusive. */
  start: z.number().int().nonnegative(),
  end: z.number().int().nonnegative(),
});
export type Block = z.infer<typeof BlockSchema>;

export const ArticleSourceSchema = z.enum(['html', 'pdf', 'xml', 'text']);
export type ArticleSource = z.infer<typeof ArticleSourceSchema>;

/** Where the DOI came from, so a person (and the precedent check) can judge how far to trust it. */
export const DoiOriginSchema = z.enum([
  'meta', // citation_doi, dc.identifier, prism.doi, … in the page head
  'json-ld',
  'xml', // an article-id / doi element of publisher XML
  'pdf-metadata',
  'pdf-text', // printed on the first pages of a PDF
  'body', // a DOI link or "doi:" string in the body (fallback)
  'url', // the page URL itself (doi.org/…, /doi/…)
]);
export type DoiOrigin = z.infer<typeof DoiOriginSchema>;

/**
 * Metadata strings are cleaned here, the one place every capture passes through (capture on the
 * command line, and the extension's background on receipt from the page): control characters
 * stripped and lengths bounded (`captured-text.ts`). Block texts are cleaned by the article
 * builder, before offsets are taken (evidence offsets point into them, so they cannot change
 * here), and only their lengths are bounded here.
 */
const ArticleShape = z.object({
  doi: DoiSchema.nullable(),
  doiOrigin: DoiOriginSchema.nullable(),
  title: capturedString('title', LIMITS.title).pipe(z.string().min(1, 'the title is empty')),
  authors: z
    .array(capturedString('author name', LIMITS.author))
    .max(LIMITS.authors, `more than ${LIMITS.authors.toLocaleString('en-US')} authors: not a paper's author list`)
    // A name that was only control characters is no name.
    .transform((names) => names.filter(Boolean)),
  journal: capturedString('journal name', LIMITS.journal).nullable(),
  /**
   * Volume and pages as printed ("127", "10709-10716" or an article number "041027"); null when
   * the source gives none. Optional: papers captured before they were read have neither.
   */
  volume: capturedString('volume', LIMITS.volume).nullable().optional(),
  pages: capturedString('pages', LIMITS.pages).nullable().optional(),
  year: z.number().int().min(1600).max(2200).nullable(),
  url: capturedString('URL', LIMITS.url).nullable(),
  source: ArticleSourceSchema,
  /** Which capture path read the document: `generic`, or a publisher adapter id (`acs`, `rsc`, `jats`, …). */
  adapter: capturedString('adapter id', LIMITS.adapter),
  /** Number of pages; PDFs only. */
  pageCount: z.number().int().positive().optional(),
  blocks: z.array(BlockSchema),
  text: z
    .string()
    .max(LIMITS.articleText, `the article text is longer than ${LIMITS.articleText.toLocaleString('en-US')} characters: not one paper`),
  /** True when only the abstract (and metadata) was available: a landing page, a paywall. */
  abstractOnly: z.boolean(),
  /** Problems that did not stop the capture, in words (e.g. "DOI taken from a body link"). */
  warnings: z.array(capturedString('warning', LIMITS.warning)).max(LIMITS.warnings, 'too many warnings'),
});

export const ArticleSchema = ArticleShape.superRefine((article, context) => {
  let previousEnd = 0;
  article.blocks.forEach((block, index) => {
    if (block.start < previousEnd || block.end < block.start) {
      context.addIssue({ code: 'custom', path: ['blocks', index], message: 'blocks overlap or are out of order' });
    }
    if (article.text.slice(block.start, block.end) !== block.text) {
      context.addIssue({ code: 'custom', path: ['blocks', index], message: 'block text does not match article text at its offsets' });
    }
    previousEnd = block.end;
  });
});
export type Article = z.infer<typeof ArticleShape>;
