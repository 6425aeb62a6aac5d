/**
 * Helpers for the HTML capture tests: parse a self-made page with the same jsdom-backed
 * DOMParser the CLI uses, and capture it.
 */
import { ArticleSchema, type Article } from '../../../../src/contracts/article';
import { captureHtml } from '../../../../src/capture/html/capture-html';
import { nodeDomParser } from '../../../../src/capture/node/node-dom';

/** Parse an HTML string into a Document. */
export function parseHtml(html: string): Document {
  return nodeDomParser().parseFromString(html, 'text/html');
}

/** Capture an HTML string and check the result against the Article contract. */
export function captureString(html: string, url: string | null = null): Article {
  const article = captureHtml(parseHtml(html), { url });
  return ArticleSchema.parse(article);
}

/** Build a page from head tags and body markup. */
export function page(head: string, body: string): string {
  return `<!DOCTYPE html><html><head><meta charset="utf-8">${head}</head><body>${body}</body></html>`;
}

/** A paragraph of plausible article text, long enough to count as body text, tagged with `marker`. */
export function filler(marker: string, sentences = 12): string {
  const sentence = `The ${marker} films were annealed at 450 °C for 2 h and showed a band gap of 3.2 eV. `;
  return sentence.repeat(sentences).trim();
}

/** Texts of the blocks of one kind. */
export function textsOf(article: Article, kind: Article['blocks'][number]['kind']): string[] {
  return article.blocks.filter((block) => block.kind === kind).map((block) => block.text);
}
