/**
 * A proxy in front of the e2e's OpenAI-compatible test server that lets a test change what the
 * models answer: each chat reply's message content (JSON) is parsed and given to `rewrite`; when
 * it returns true the changed content is sent on, otherwise the reply passes unchanged. Replies
 * that are not JSON chat replies (model lists, errors) always pass unchanged.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The proxy's OpenAI base URL (`http://127.0.0.1:<port>/v1`) and how to close it. */
export interface ReplyRewritingProxy {
  baseUrl: string;
  close(): Promise<void>;
}

/**
 * Start a proxy to `target` (the test server's origin, e.g. `http://127.0.0.1:4100`).
 * `rewrite(model, content)`: `model` is the reply's `model` field, `content` the parsed JSON of
 * its first choice's message, to change in place; → whether it changed.
 */
export async function startReplyRewritingProxy(
  target: string,
  rewrite: (model: string | undefined, content: Record<string, unknown>) => boolean,
): Promise<ReplyRewritingProxy> {
  const server: Server = createServer((incoming, outgoing) => {
    const forward = httpRequest(`${target}${incoming.url}`, { method: incoming.method, headers: incoming.headers }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => {
        let text = Buffer.concat(chunks).toString('utf8');
        try {
          const body = JSON.parse(text) as { model?: string; choices?: Array<{ message: { content: string } }> };
          const message = body.choices?.[0]?.message;
          const content = message ? (JSON.parse(message.content) as Record<string, unknown>) : undefined;
          if (message && content && rewrite(body.model, content)) {
            message.content = JSON.stringify(content);
            text = JSON.stringify(body);
          }
        } catch {
          // Not a JSON chat reply: pass it on as it is.
        }
        const headers = { ...answer.headers, 'content-length': String(Buffer.byteLength(text)) };
        outgoing.writeHead(answer.statusCode ?? 500, headers).end(text);
      });
    });
    forward.on('error', (error) => outgoing.writeHead(502).end(error.message));
    incoming.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
