import type { Article } from '../../contracts/article';
import { CaptureError } from '../errors';

/** Placeholder until the html capture path lands. */
export function captureHtml(_document: Document, _options: { url?: string | null }): Article {
  throw new CaptureError('unsupported-type', 'html capture is not implemented yet');
}
