/**
 * A local HTTP server for saved publisher pages, so the e2e test captures real markup without
 * the network. Pages are served with `script-src 'none'`: the saved pages' own scripts must
 * not run (they would call home or redirect), and extension content scripts are exempt.
 */
import { createServer, type Server } from 'node:http';
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';

export interface FixtureServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /**
   * From now on answer `urlPath` with HTTP `status` and a short text body (404: the publisher
   * removed the file). The server's side, because Playwright's `context.route` does not see
   * requests from the extension's offscreen document (a `background_page` target).
   */
  setStatus(urlPath: string, status: number): void;
  close(): Promise<void>;
}

/**
 * Serve each `files[urlPath] = absolute file path` at 127.0.0.1 on a free port; 404 otherwise.
 * Files ending in `.pdf` are served as `application/pdf`, `.css` as `text/css`, everything else as HTML.
 */
export async function startFixtureServer(files: Record<string, string>): Promise<FixtureServer> {
  const statuses = new Map<string, number>();
  const server: Server = createServer((request, response) => {
    const urlPath = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    const status = statuses.get(urlPath);
    if (status !== undefined) {
      response.writeHead(status, { 'Content-Type': 'text/plain' }).end(`status ${status}`);
      return;
    }
    const filePath = files[urlPath];
    if (filePath === undefined) {
      response.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
      return;
    }
    readFile(filePath).then(
      (body) => {
        if (filePath.toLowerCase().endsWith('.pdf')) {
          // A PDF as a publisher sends it, so Chromium opens it in its viewer.
          response.writeHead(200, { 'Content-Type': 'application/pdf' }).end(body);
          return;
        }
        if (filePath.toLowerCase().endsWith('.css')) {
          response.writeHead(200, { 'Content-Type': 'text/css' }).end(body);
          return;
        }
        // No charset: the browser reads it from the page's <meta>, as it would from the publisher.
        response.writeHead(200, { 'Content-Type': 'text/html', 'Content-Security-Policy': "script-src 'none'" }).end(body);
      },
      (error: unknown) => response.writeHead(500, { 'Content-Type': 'text/plain' }).end(String(error)),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    setStatus: (urlPath, status) => void statuses.set(urlPath, status),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
