/**
 * The sending side of the message protocol, for extension pages (side panel, dataset page).
 */
import { browser } from 'wxt/browser';
import { z } from 'zod';
import { failureResponse, ResponseSchemas, type RequestOf, type RequestType, type ResponseOf } from '../contracts/messages';

/**
 * Send `request` to the background and parse its answer against the response schema of that
 * request type. Resolves to a failure response (code `internal`) when the background does not
 * answer or answers something malformed; never rejects.
 */
export async function sendRequest<Type extends RequestType>(request: RequestOf<Type>): Promise<ResponseOf<Type>> {
  // Indexing the schema map by a generic key loses the link between key and schema.
  const schema = ResponseSchemas[request.type] as unknown as z.ZodType<ResponseOf<Type>>;
  let answer: unknown;
  try {
    answer = await browser.runtime.sendMessage(request);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return failureResponse('internal', `The Assay background did not answer: ${detail}`) as ResponseOf<Type>;
  }
  const parsed = schema.safeParse(answer);
  if (parsed.success) return parsed.data;
  return failureResponse(
    'internal',
    `The Assay background answered in an unexpected shape: ${z.prettifyError(parsed.error)}`,
  ) as ResponseOf<Type>;
}
