/**
 * The checks every capture path ends with: a size limit before reading, and the `Article`
 * contract after. Shared by `capture-document.ts` (any document) and `capture-pdf-document.ts`
 * (PDFs only, for callers that must not load the HTML and XML readers).
 */
import { ArticleSchema, type Article } from '../contracts/article';
import { CaptureError } from './errors';

/**
 * Throw `CaptureError` `too-large` when `size` (bytes) is over `limit` (bytes); `kind` names the
 * document in the message ("a PDF", "an HTML, XML or text file").
 */
export function checkDocumentSize(size: number, limit: number, kind: string): void {
  if (size <= limit) return;
  const megabytes = (bytes: number): string => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  throw new CaptureError(
    'too-large',
    `The file is ${megabytes(size)}, over the ${megabytes(limit)} limit for ${kind}: an article is far smaller (a saved archive or data dump is not one article).`,
  );
}

/**
 * `article` checked against the `Article` contract (metadata cleaned there). Throws
 * `CaptureError` `unreadable` naming the first three fields refused.
 */
export function validArticle(article: Article): Article {
  const parsed = ArticleSchema.safeParse(article);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.slice(0, 3).map((issue) => `${issue.path.join('.') || 'article'}: ${issue.message}`);
  throw new CaptureError(
    'unreadable',
    `The document was read, but what it holds is not an article Assay can keep: ${problems.join('; ')}.`,
  );
}
