import type { Article } from '../../contracts/article';
import { CaptureError } from '../errors';

/** Placeholder until the xml capture path lands. */
export function captureXml(_document: Document, _options: { url?: string | null }): Article {
  throw new CaptureError('unsupported-type', 'xml capture is not implemented yet');
}
