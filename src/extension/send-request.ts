/**
 * The sending side of the message protocol, for extension pages (side panel, dataset page).
 */
import { browser } from 'wxt/browser';
import { sendAndParse, withErrorDetail, type RequestOf, type RequestType, type ResponseOf } from '../contracts/messages';

/**
 * Send `request` to the background and parse its answer against the response schema of that
 * request type. Resolves to a failure response (code `internal`) when the background does not
 * answer or answers something malformed; never rejects.
 */
export function sendRequest<Type extends RequestType>(request: RequestOf<Type>): Promise<ResponseOf<Type>> {
  return sendAndParse(request, (message) => browser.runtime.sendMessage(message), {
    noAnswer: withErrorDetail('The Assay background did not answer'),
    malformed: (issues) => `The Assay background answered in an unexpected shape: ${issues}`,
  });
}
