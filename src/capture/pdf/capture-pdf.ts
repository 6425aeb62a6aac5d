import type { Article } from '../../contracts/article';
import { CaptureError } from '../errors';

/** Placeholder until the PDF capture path lands. */
export async function capturePdf(_data: Uint8Array, _options: { url?: string | null; signal?: AbortSignal }): Promise<Article> {
  throw new CaptureError('unsupported-type', 'PDF capture is not implemented yet');
}
