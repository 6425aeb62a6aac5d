/**
 * A short heading in words for each failure code; the failure's own message follows it.
 */
import type { MessageFailure } from '../../contracts/messages';

const headings: Record<MessageFailure['code'], string> = {
  empty: 'The page is empty',
  'unsupported-type': 'Assay cannot read this kind of page',
  'bot-check': 'Blocked by a bot check',
  'search-results': 'This is a list of articles, not one article',
  'not-article': 'No article found on this page',
  'no-text-layer': 'This PDF has no text',
  truncated: 'The document ends early',
  unreadable: 'The page could not be read',
  'not-found': 'Nothing found there',
  'no-tab': 'No capturable tab',
  'too-large': 'The file is too large',
  binary: 'This is not a document',
  'bad-request': 'Assay sent itself a malformed request',
  internal: 'Something went wrong inside Assay',
};

/** The heading shown above `failure.message`. */
export function failureHeading(failure: MessageFailure): string {
  return headings[failure.code];
}
