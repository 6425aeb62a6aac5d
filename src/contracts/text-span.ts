/**
 * A stretch of a text by offsets: UTF-16 code-unit offsets into the text it was found in, end
 * exclusive (`text.slice(start, end)` is its words). The one shape for "where in the text" that the
 * condition reader, the fact check and the context-recall scorer share.
 */
export interface TextSpan {
  start: number;
  end: number;
}
