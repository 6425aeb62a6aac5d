/**
 * `EmbeddingPort`: text → vector, for retrieval's MMR similarity (issue 11: "an embedding
 * similarity when the engine offers one"). Two adapters: an OpenAI-compatible server's
 * `POST {baseUrl}/embeddings` (vLLM, Ollama, llama.cpp's server, LM Studio all serve it), and
 * WebLLM's `engine.embeddings.create` (its embedding models, e.g. snowflake-arctic-embed) through
 * the engine slice in `webllm-adapter.ts`. Engines without embeddings simply have no port, and
 * retrieval keeps its lexical similarity.
 */
import pRetry from 'p-retry';
import { z } from 'zod';
import { abortedError, throwIfAborted } from './abort';
import { LlmError } from './llm-port';
import { httpFailure, networkFailure, AttemptFailure, refuseKeyOverPlainHttp } from './openai-failures';

export interface EmbeddingPort {
  /**
   * One vector per text, in order, all of one length. Rejects with `LlmError` (never a bare
   * Error): 'aborted' when `signal` fires, 'http'/'unreachable'/'rate-limited' from a server,
   * 'http' when the answer is not one finite vector per text.
   */
  embed(texts: readonly string[], signal?: AbortSignal): Promise<number[][]>;
  /** The embedding model, for the run record. */
  readonly model: string;
}

/** The subset of the embeddings response Assay relies on (OpenAI's `CreateEmbeddingResponse`). */
const EmbeddingResponseSchema = z.object({
  data: z.array(z.object({ index: z.number().int().nonnegative(), embedding: z.array(z.number().finite()).min(1) })),
});

/**
 * The vectors of a `{ data: [{ index, embedding }] }` answer in input order, checked: one per
 * text, every index once, one length. Throws `LlmError('http')` naming `source` otherwise.
 * Shared by both adapters (WebLLM answers in the same shape).
 */
export function vectorsInOrder(answer: unknown, texts: number, source: string): number[][] {
  const parsed = EmbeddingResponseSchema.safeParse(answer);
  if (!parsed.success) throw new LlmError('http', `the answer from ${source} is not an embeddings response`);
  const vectors: number[][] = [];
  for (const item of parsed.data.data) vectors[item.index] = item.embedding;
  const complete = vectors.length === texts && parsed.data.data.length === texts && vectors.every((vector) => vector !== undefined);
  if (!complete) throw new LlmError('http', `${source} returned ${parsed.data.data.length} embeddings for ${texts} texts`);
  const length = vectors[0]?.length ?? 0;
  if (vectors.some((vector) => vector.length !== length)) throw new LlmError('http', `${source} returned embeddings of different lengths`);
  return vectors;
}

export interface OpenAiEmbeddingOptions {
  /** e.g. "http://127.0.0.1:11434/v1"; "/embeddings" is appended. */
  baseUrl: string;
  /** The server's embedding model id, e.g. "nomic-embed-text" (Ollama) or "BAAI/bge-small-en-v1.5" (vLLM). */
  model: string;
  apiKey?: string;
  /** Texts per request; default 64 (servers cap batch sizes; Ollama and vLLM accept far more). */
  batchSize?: number;
  /** Extra attempts for 429, 5xx and network errors; default 3 (p-retry, exponential backoff). */
  retries?: number;
  /** First backoff wait in ms (doubling, randomized by p-retry); default 1 000. */
  minTimeoutMs?: number;
  fetch?: typeof globalThis.fetch;
}

/**
 * An `EmbeddingPort` over `POST {baseUrl}/embeddings` with body `{ model, input: string[] }`.
 * Texts go in batches of `batchSize`; each batch is retried like chat calls (429, 5xx, network)
 * and its answer validated with zod (`vectorsInOrder`). Errors as `EmbeddingPort.embed`; throws
 * `LlmError('unavailable')` at once when an `apiKey` would go over plain http to another machine
 * (`refuseKeyOverPlainHttp`).
 */
export function createOpenAiCompatibleEmbeddings(options: OpenAiEmbeddingOptions): EmbeddingPort {
  refuseKeyOverPlainHttp(options.baseUrl, options.apiKey);
  const url = `${options.baseUrl.replace(/\/+$/, '')}/embeddings`;
  const fetchImplementation = options.fetch ?? globalThis.fetch.bind(globalThis);
  const batchSize = Math.max(1, options.batchSize ?? 64);

  async function batch(texts: string[], signal?: AbortSignal): Promise<number[][]> {
    const attempt = async () => {
      let response: Response;
      let body: string;
      try {
        response = await fetchImplementation(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}) },
          body: JSON.stringify({ model: options.model, input: texts }),
          ...(signal ? { signal } : {}),
        });
        body = await response.text();
      } catch (error) {
        if (signal?.aborted) throw new AttemptFailure(abortedError(), false);
        throw networkFailure(error, url);
      }
      if (!response.ok) throw httpFailure(response.status, body, url, options.model, response.headers.get('retry-after'));
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        throw new AttemptFailure(new LlmError('http', `the answer from ${url} was not JSON`), false);
      }
      try {
        return vectorsInOrder(json, texts.length, url);
      } catch (error) {
        throw new AttemptFailure(error as LlmError, false);
      }
    };
    try {
      return await pRetry(attempt, {
        retries: options.retries ?? 3,
        minTimeout: options.minTimeoutMs ?? 1_000,
        randomize: true,
        ...(signal ? { signal } : {}),
        shouldRetry: ({ error }) => error instanceof AttemptFailure && error.retryable,
      });
    } catch (error) {
      throwIfAborted(signal);
      if (error instanceof AttemptFailure) throw error.llmError;
      throw error instanceof LlmError ? error : new LlmError('unreachable', `calling ${url} failed: ${String(error)}`);
    }
  }

  return {
    model: options.model,
    async embed(texts, signal) {
      const vectors: number[][] = [];
      for (let start = 0; start < texts.length; start += batchSize)
        vectors.push(...(await batch(texts.slice(start, start + batchSize), signal)));
      return vectors;
    },
  };
}
