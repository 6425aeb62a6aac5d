import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAiCompatibleEmbeddings, vectorsInOrder } from '../../../src/llm/embeddings';
import { LlmError } from '../../../src/llm/llm-port';

const servers: Server[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A real HTTP server on 127.0.0.1 answering `/v1/embeddings` with `answer(body, index)` (status, JSON). */
async function embeddingServer(answer: (body: { model: string; input: string[] }, index: number) => [number, unknown]) {
  const bodies: { model: string; input: string[] }[] = [];
  const server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    request.on('end', () => {
      // Anything else (the engine asking at start what the server is) gets a 404, as a server with no such route.
      if (request.url !== '/v1/embeddings') return void response.writeHead(404).end('{"error":"not found"}');
      const body = JSON.parse(text) as { model: string; input: string[] };
      bodies.push(body);
      const [status, json] = answer(body, bodies.length - 1);
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, bodies };
}

/** An answer in OpenAI's shape, listed in reverse order to check the adapter orders by `index`. */
const vectorsFor = (input: string[]) => ({
  data: input.map((text, index) => ({ index, embedding: [text.length, index + 1] })).reverse(),
});

describe('createOpenAiCompatibleEmbeddings', () => {
  it('posts batches of texts to /embeddings and returns one vector per text in input order', async () => {
    const server = await embeddingServer((body) => [200, vectorsFor(body.input)]);
    const port = createOpenAiCompatibleEmbeddings({ baseUrl: `${server.baseUrl}/`, model: 'nomic-embed-text', batchSize: 2 });
    const vectors = await port.embed(['a', 'bb', 'ccc']);
    expect(vectors).toEqual([
      [1, 1],
      [2, 2],
      [3, 1],
    ]);
    expect(server.bodies).toEqual([
      { model: 'nomic-embed-text', input: ['a', 'bb'] },
      { model: 'nomic-embed-text', input: ['ccc'] },
    ]);
    expect(port.model).toBe('nomic-embed-text');
  });

  it('retries a 503 and then succeeds', async () => {
    const server = await embeddingServer((body, index) => (index === 0 ? [503, { error: 'loading' }] : [200, vectorsFor(body.input)]));
    const port = createOpenAiCompatibleEmbeddings({ baseUrl: server.baseUrl, model: 'm', retries: 2, minTimeoutMs: 10 });
    expect(await port.embed(['x'])).toEqual([[1, 1]]);
    expect(server.bodies).toHaveLength(2);
  });

  it('says which model is missing on a 404 and does not retry it', async () => {
    const server = await embeddingServer(() => [404, { error: 'model "m" not found' }]);
    const port = createOpenAiCompatibleEmbeddings({ baseUrl: server.baseUrl, model: 'm' });
    const error = await port.embed(['x']).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(LlmError);
    expect(error).toMatchObject({ code: 'model-not-found' });
    expect((error as LlmError).message).toMatch(/has no model m: .*model \\"m\\" not found/);
    expect(server.bodies).toHaveLength(1);
  });

  it('rejects an answer with too few vectors as an http error', async () => {
    const server = await embeddingServer(() => [200, { data: [{ index: 0, embedding: [1] }] }]);
    const port = createOpenAiCompatibleEmbeddings({ baseUrl: server.baseUrl, model: 'm' });
    await expect(port.embed(['x', 'y'])).rejects.toMatchObject({ code: 'http', message: /1 embeddings for 2 texts/ });
  });

  it('rejects when aborted', async () => {
    const server = await embeddingServer((body) => [200, vectorsFor(body.input)]);
    const port = createOpenAiCompatibleEmbeddings({ baseUrl: server.baseUrl, model: 'm' });
    const controller = new AbortController();
    controller.abort();
    await expect(port.embed(['x'], controller.signal)).rejects.toMatchObject({ code: 'aborted' });
  });
});

describe('vectorsInOrder', () => {
  it('refuses vectors of different lengths, repeated indexes and non-numbers', () => {
    expect(() =>
      vectorsInOrder(
        {
          data: [
            { index: 0, embedding: [1] },
            { index: 1, embedding: [1, 2] },
          ],
        },
        2,
        's',
      ),
    ).toThrow(/different lengths/);
    expect(() =>
      vectorsInOrder(
        {
          data: [
            { index: 0, embedding: [1] },
            { index: 0, embedding: [2] },
          ],
        },
        2,
        's',
      ),
    ).toThrow(LlmError);
    expect(() => vectorsInOrder({ data: [{ index: 0, embedding: ['1'] }] }, 1, 's')).toThrow(/not an embeddings response/);
  });
});

describe('--embedding-model on the openai engine', () => {
  it('gives the engine an embedding port for the same server, and none without the flag', async () => {
    const { createMatrixEngine } = await import('../../../src/cli/matrix-engines');
    const { EngineUsageError } = await import('../../../src/llm/engines/engine-kind');
    const server = await embeddingServer((body) => [200, vectorsFor(body.input)]);
    const flags = { 'base-url': server.baseUrl, preset: 'paper' };
    const without = await createMatrixEngine('openai', flags);
    expect(without.embeddings).toBeUndefined();
    const engine = await createMatrixEngine('openai', { ...flags, 'embedding-model': 'nomic-embed-text' });
    expect(engine.embeddings?.model).toBe('nomic-embed-text');
    expect(await engine.embeddings!.embed(['abc'])).toEqual([[3, 1]]);
    expect(server.bodies).toEqual([{ model: 'nomic-embed-text', input: ['abc'] }]);
    await expect(createMatrixEngine('openai', { 'embedding-model': 'm', preset: 'paper' })).rejects.toBeInstanceOf(EngineUsageError);
  });
});
