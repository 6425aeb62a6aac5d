import { describe, expect, it, vi } from 'vitest';
import { CaptureError } from '../../../src/capture/errors';
import { fetchPdfBytes, PDF_FETCH_TIMEOUT_MS, PDF_SIZE_LIMIT_BYTES, type FetchLike } from '../../../src/extension/fetch-pdf';

const URL_ = 'https://iopscience.iop.org/article/10.1088/2053-1583/3/1/011003/pdf';
const encoder = new TextEncoder();
/** A PDF header kept ASCII so the count is exact: `%PDF-1.7\n` (9 bytes) + `%abcd\n` (6) = 15 bytes. */
const PDF_HEAD = encoder.encode('%PDF-1.7\n%abcd\n');

/** A fetch that answers once with `response`, recording what it was asked. */
function answering(response: Response) {
  return vi.fn<FetchLike>(async () => response);
}

/** A body that yields `chunks` one by one, and fails with the signal's reason when it aborts. */
function streamOf(chunks: Uint8Array[], signal?: AbortSignal, { close = true } = {}): ReadableStream<Uint8Array> {
  let index = 0;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      signal?.addEventListener('abort', () => controller.error(signal.reason));
    },
    pull(controller) {
      const chunk = chunks[index++];
      if (chunk) controller.enqueue(chunk);
      else if (close) controller.close();
      else return new Promise<void>(() => undefined); // never ends: a stalled download
    },
  });
}

async function rejection(promise: Promise<unknown>): Promise<CaptureError> {
  const reason = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(reason).toBeInstanceOf(CaptureError);
  return reason as CaptureError;
}

describe('fetchPdfBytes', () => {
  it('returns the bytes of a PDF, asking with the reader’s cookies', async () => {
    const fetch = answering(new Response(PDF_HEAD, { headers: { 'content-type': 'application/pdf' } }));
    const bytes = await fetchPdfBytes(URL_, { fetch });
    expect(bytes).toEqual(PDF_HEAD);
    expect(bytes.length).toBe(15);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(fetch.mock.calls[0]?.[0]).toBe(URL_);
    expect(fetch.mock.calls[0]?.[1]).toMatchObject({ credentials: 'include', redirect: 'follow' });
  });

  it('accepts a PDF served as application/octet-stream with bytes before %PDF- (PDF 32000-1 §7.5.2)', async () => {
    const body = new Uint8Array([...encoder.encode('garbage\n'), ...PDF_HEAD]);
    const bytes = await fetchPdfBytes(URL_, {
      fetch: answering(new Response(body, { headers: { 'content-type': 'application/octet-stream' } })),
    });
    expect(bytes.length).toBe(8 + 15);
  });

  it('joins a body read in several chunks in order', async () => {
    const chunks = [PDF_HEAD.subarray(0, 4), PDF_HEAD.subarray(4, 10), PDF_HEAD.subarray(10)];
    const bytes = await fetchPdfBytes(URL_, { fetch: answering(new Response(streamOf(chunks))) });
    expect(new TextDecoder().decode(bytes)).toBe('%PDF-1.7\n%abcd\n');
  });

  it('defaults: 100 MiB = 104 857 600 bytes, 120 s', () => {
    expect(PDF_SIZE_LIMIT_BYTES).toBe(104_857_600);
    expect(PDF_FETCH_TIMEOUT_MS).toBe(120_000);
  });

  it('HTTP 404 and 410 are not-found, with the status in words', async () => {
    const error = await rejection(
      fetchPdfBytes(URL_, { fetch: answering(new Response('gone', { status: 404, statusText: 'Not Found' })) }),
    );
    expect(error.code).toBe('not-found');
    expect(error.message).toBe('The PDF is no longer at this address (HTTP 404 Not Found). Reload the tab and capture again.');
    expect((await rejection(fetchPdfBytes(URL_, { fetch: answering(new Response('', { status: 410 })) }))).code).toBe('not-found');
  });

  it('HTTP 403 asks the reader to sign in; with cf-mitigated: challenge it is a bot check', async () => {
    const refused = await rejection(fetchPdfBytes(URL_, { fetch: answering(new Response('no', { status: 403 })) }));
    expect(refused.code).toBe('unreadable');
    expect(refused.message).toMatch(/^The publisher refused to send the PDF \(HTTP 403\)\. Sign in/);
    const challenged = await rejection(
      fetchPdfBytes(URL_, { fetch: answering(new Response('<html>', { status: 403, headers: { 'cf-mitigated': 'challenge' } })) }),
    );
    expect(challenged.code).toBe('bot-check');
    expect(challenged.message).toContain('HTTP 403');
  });

  it('HTTP 503 is unreadable with its status', async () => {
    const error = await rejection(
      fetchPdfBytes(URL_, { fetch: answering(new Response('', { status: 503, statusText: 'Service Unavailable' })) }),
    );
    expect(error).toMatchObject({ code: 'unreadable', message: 'The PDF could not be downloaded (HTTP 503 Service Unavailable).' });
  });

  it('refuses a file whose Content-Length is over the limit without reading it', async () => {
    const body = streamOf([PDF_HEAD]);
    // 2 000 000 bytes > 1 048 576 (1 MiB): 2 000 000 / 1 048 576 = 1.907… → "1.9 MB"; limit "1.0 MB".
    const response = new Response(body, { headers: { 'content-length': '2000000' } });
    const error = await rejection(fetchPdfBytes(URL_, { fetch: answering(response), maxBytes: 1_048_576 }));
    expect(error.code).toBe('unreadable');
    expect(error.message).toBe(
      'The PDF is too large to capture in the browser (1.9 MB; the limit is 1.0 MB). Save it and run `npx assay capture <file.pdf>`.',
    );
    expect(body.locked).toBe(false); // never read, only cancelled
  });

  it('stops reading once the bytes counted pass the limit (no or wrong Content-Length)', async () => {
    // Limit 20 bytes: chunks of 15 + 15 = 30 > 20, so the second chunk trips it.
    const error = await rejection(fetchPdfBytes(URL_, { fetch: answering(new Response(streamOf([PDF_HEAD, PDF_HEAD]))), maxBytes: 20 }));
    expect(error.code).toBe('unreadable');
    expect(error.message).toMatch(/^The PDF is too large to capture in the browser \(more than 0\.0 MB; the limit is 0\.0 MB\)/);
    // Exactly at the limit (15 of 15) is accepted.
    expect((await fetchPdfBytes(URL_, { fetch: answering(new Response(PDF_HEAD)), maxBytes: 15 })).length).toBe(15);
  });

  it('an HTML answer (a sign-in page) is unsupported-type, naming the content type', async () => {
    const response = new Response('<!DOCTYPE html><title>Sign in</title>', { headers: { 'content-type': 'text/html; charset=utf-8' } });
    const error = await rejection(fetchPdfBytes(URL_, { fetch: answering(response) }));
    expect(error.code).toBe('unsupported-type');
    expect(error.message).toMatch(/^The PDF's address answered with a web page \(text\/html\), not the PDF/);
    const empty = await rejection(fetchPdfBytes(URL_, { fetch: answering(new Response(null)) }));
    expect(empty.message).toBe("The PDF's address answered with something that is not a PDF (no content type).");
  });

  it('a network failure is unreadable, with the browser’s words', async () => {
    const fetch = vi.fn<FetchLike>(async () => Promise.reject(new TypeError('Failed to fetch')));
    const error = await rejection(fetchPdfBytes(URL_, { fetch }));
    expect(error.code).toBe('unreadable');
    expect(error.message).toMatch(/^The PDF could not be downloaded \(Failed to fetch\)\. Check the connection/);
  });

  it('a server that never answers hits the time limit', async () => {
    const fetch = vi.fn<FetchLike>(
      (_url, init) =>
        new Promise<Response>((_resolve, reject) => init.signal?.addEventListener('abort', () => reject(init.signal?.reason))),
    );
    const error = await rejection(fetchPdfBytes(URL_, { fetch, timeoutMs: 30 }));
    // 30 ms rounds to 0 s; the words matter, not the number.
    expect(error).toMatchObject({
      code: 'unreadable',
      message: 'The PDF did not download within 0 s. Check the connection and capture again.',
    });
  });

  it('a download that stalls mid-body hits the time limit', async () => {
    const fetch = vi.fn<FetchLike>(async (_url, init) => new Response(streamOf([PDF_HEAD], init.signal ?? undefined, { close: false })));
    const error = await rejection(fetchPdfBytes(URL_, { fetch, timeoutMs: 600 }));
    // 600 ms / 1 000 = 0.6 → Math.round → 1 s.
    expect(error.message).toBe('The PDF did not download within 1 s. Check the connection and capture again.');
  });

  it('the caller’s abort rejects with its own reason, not a CaptureError', async () => {
    const controller = new AbortController();
    const fetch = vi.fn<FetchLike>(
      (_url, init) =>
        new Promise<Response>((_resolve, reject) => init.signal?.addEventListener('abort', () => reject(init.signal?.reason))),
    );
    const pending = fetchPdfBytes(URL_, { fetch, signal: controller.signal });
    controller.abort(new Error('stopped by the reader'));
    await expect(pending).rejects.toThrow('stopped by the reader');
    await expect(fetchPdfBytes(URL_, { fetch, signal: AbortSignal.abort(new Error('already')) })).rejects.toThrow('already');
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});
