import type { Article } from '../../contracts/article';
import { ArticleBuilder } from '../article-builder';
import { findDois } from '../doi';
import { CaptureError } from '../errors';

/** Below this many visible characters a plain-text file is not treated as an article. */
const MIN_TEXT_CHARS = 200;

/**
 * Capture a plain-text article: paragraphs are separated by blank lines; a short first line is
 * the title; the first DOI written in the first 5,000 characters is the article's DOI.
 * Throws `CaptureError('not-article')` for text shorter than 200 visible characters.
 */
export function captureText(text: string, options: { url?: string | null }): Article {
  const paragraphs = text
    .split(/\n\s*\n/)
    .map((part) => part.trim())
    .filter(Boolean);
  const visible = paragraphs.join(' ').replace(/\s+/g, '').length;
  if (visible < MIN_TEXT_CHARS) {
    throw new CaptureError('not-article', `The text file has only ${visible} visible characters: too short to be an article.`);
  }
  const firstLine = text.trim().split('\n')[0]?.trim() ?? '';
  const titleIsLine = firstLine.length > 0 && firstLine.length <= 300;
  const builder = new ArticleBuilder();
  for (const paragraph of paragraphs) builder.add('paragraph', paragraph);
  const doi = findDois(text.slice(0, 5000))[0] ?? null;
  const built = builder.build();
  return {
    doi,
    doiOrigin: doi ? 'body' : null,
    title: titleIsLine ? firstLine.replace(/\s+/g, ' ') : built.text.slice(0, 120),
    authors: [],
    journal: null,
    year: null,
    url: options.url ?? null,
    source: 'text',
    adapter: 'text',
    blocks: built.blocks,
    text: built.text,
    abstractOnly: false,
    warnings: titleIsLine ? [] : ['No title line: the title is the first 120 characters of the text.'],
  };
}
