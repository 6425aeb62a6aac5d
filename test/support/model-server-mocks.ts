/**
 * One small mock per model-server family, answering as that server does at the endpoints Assay
 * asks (src/llm/server-probe.ts has the sources): Ollama (`/api/version`, `/api/show`, `/api/ps`,
 * its 403 to an origin it does not allow, its 404 "model … not found, try pulling it first", and
 * its silent cut of a prompt longer than the loaded window), llama.cpp's server (`/props`),
 * LM Studio (`/api/v0/models`, and its refusal of a model that is not loaded), vLLM (`/v1/models`
 * with `max_model_len`), and a plain OpenAI-compatible server (`/v1/models` only). Each mock is a
 * function of the request, so a unit test calls it through `mockFetch` and an e2e test serves it
 * over HTTP with `serveMock`. The mocks count a prompt as ceil(characters / 4) of its messages'
 * contents — their "tokenizer" — and answer chat calls with `chat(body)` (default `{"answer":"yes"}`).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface MockRequest {
  method: string;
  /** The path without the query, e.g. "/v1/chat/completions". */
  path: string;
  /** Lower-case header names. */
  headers: Readonly<Record<string, string | undefined>>;
  body: string;
}

export interface MockAnswer {
  status: number;
  /** JSON-serialised unless it is a string. */
  body?: unknown;
}

export type MockServer = (request: MockRequest) => MockAnswer;

/** A served mock may also answer later (e.g. `forwardChats`: a real chat server behind a family's endpoints). */
export type ServedServer = (request: MockRequest) => MockAnswer | Promise<MockAnswer>;

/**
 * `family`'s endpoints (what the server is, its windows and slots) with the chat calls sent on to
 * the chat server at `chatOrigin` (e.g. the e2e's scripted OpenAI test server), for a run that
 * completes against a mock that still says it is, say, llama.cpp with 2 slots.
 */
export function forwardChats(family: MockServer, chatOrigin: string): ServedServer {
  return async (request) => {
    if (request.method !== 'POST' || request.path !== '/v1/chat/completions') return family(request);
    const reply = await fetch(`${chatOrigin}${request.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: request.body,
    });
    const text = await reply.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text) as unknown;
    } catch {
      // Not JSON: passed on as text.
    }
    return { status: reply.status, body };
  };
}

/** The chat body the mocks read. */
export interface MockChatBody {
  model: string;
  messages: Array<{ role: string; content: string }>;
  max_tokens?: number;
  response_format?: unknown;
  format?: unknown;
  json_schema?: unknown;
}

/** The mocks' tokenizer: ceil(characters / 4) over the messages' contents, joined by newlines. */
export function mockPromptTokens(body: MockChatBody): number {
  return Math.ceil(body.messages.map((message) => message.content).join('\n').length / 4);
}

/** A chat-completion answer with `content` and `promptTokens` as the reported usage. */
export function completionAnswer(body: MockChatBody, content: string, promptTokens: number): MockAnswer {
  return {
    status: 200,
    body: {
      id: 'chatcmpl-mock',
      object: 'chat.completion',
      model: body.model,
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
      usage: { prompt_tokens: promptTokens, completion_tokens: Math.ceil(content.length / 4) },
    },
  };
}

type Chat = (body: MockChatBody) => string;
const defaultChat: Chat = () => '{"answer":"yes"}';
const notFound: MockAnswer = { status: 404, body: '404 page not found' };

export interface OllamaMockOptions {
  version?: string;
  /** Pulled models by name ("qwen2.5:7b"), each with the context its GGUF was trained for and a Modelfile num_ctx if any. */
  models: Record<string, { trainedContext: number; numCtx?: number }>;
  /** Models loaded now, with the window they run with (`/api/ps` context_length). */
  loaded?: Record<string, number>;
  /** Origins allowed (Ollama's OLLAMA_ORIGINS); default: none of an extension's (chrome-extension://, moz-extension://). */
  allowsExtensions?: boolean;
  chat?: Chat;
}

/**
 * Ollama: a request whose Origin is an extension's gets 403 with an empty body unless
 * `allowsExtensions` (Ollama's CORS check, before any route); a chat for a model not pulled gets
 * 404 `model "x" not found, try pulling it first`; a chat prompt longer than the model's loaded
 * window is cut to the window, silently, and `usage.prompt_tokens` says the window.
 */
export function ollamaMock(options: OllamaMockOptions): MockServer {
  const loaded = new Map(Object.entries(options.loaded ?? {}));
  return (request) => {
    const origin = request.headers.origin ?? '';
    if (/^(chrome|moz)-extension:\/\//.test(origin) && !options.allowsExtensions) return { status: 403, body: '' };
    if (request.method === 'GET' && request.path === '/api/version') return { status: 200, body: { version: options.version ?? '0.6.8' } };
    if (request.method === 'GET' && request.path === '/api/ps')
      return {
        status: 200,
        body: {
          models: [...loaded].map(([name, contextLength]) => ({ name, model: name, size: 5_000_000_000, context_length: contextLength })),
        },
      };
    if (request.method === 'POST' && request.path === '/api/show') {
      const { model } = JSON.parse(request.body) as { model: string };
      const entry = options.models[model];
      if (!entry) return { status: 404, body: { error: `model '${model}' not found` } };
      return {
        status: 200,
        body: {
          parameters: entry.numCtx
            ? `num_ctx                        ${entry.numCtx}\nstop                           "<|im_end|>"`
            : 'stop "<|im_end|>"',
          model_info: { 'general.architecture': 'qwen2', 'qwen2.context_length': entry.trainedContext },
        },
      };
    }
    if (request.method === 'GET' && request.path === '/v1/models')
      return {
        status: 200,
        body: { object: 'list', data: Object.keys(options.models).map((id) => ({ id, object: 'model', owned_by: 'library' })) },
      };
    if (request.method === 'POST' && request.path === '/v1/chat/completions') {
      const body = JSON.parse(request.body) as MockChatBody;
      const entry = options.models[body.model];
      if (!entry)
        return {
          status: 404,
          body: { error: { message: `model "${body.model}" not found, try pulling it first`, type: 'api_error', param: null, code: null } },
        };
      // Ollama loads the model at its first call, with num_ctx or its default of 2,048 here.
      const window = loaded.get(body.model) ?? entry.numCtx ?? 2048;
      loaded.set(body.model, window);
      return completionAnswer(body, (options.chat ?? defaultChat)(body), Math.min(mockPromptTokens(body), window));
    }
    return notFound;
  };
}

/**
 * llama.cpp's server: one model, `-c` split across `slots`; `/props` tells each slot's n_ctx,
 * `/apply-template` and `/tokenize` count a prompt. A longer prompt is refused with 400, as
 * llama-server does without context shift.
 */
export function llamaCppMock(options: { contextSize: number; slots: number; build?: string; chat?: Chat }): MockServer {
  const perSlot = Math.floor(options.contextSize / options.slots);
  return (request) => {
    if (request.method === 'GET' && request.path === '/props')
      return {
        status: 200,
        body: {
          default_generation_settings: { n_ctx: perSlot, params: { temperature: 0.8 } },
          total_slots: options.slots,
          model_path: '/models/qwen2.5-7b-instruct-q4_k_m.gguf',
          build_info: options.build ?? 'b4589-1ee9eea0',
        },
      };
    if (request.method === 'GET' && request.path === '/v1/models')
      return {
        status: 200,
        body: { object: 'list', data: [{ id: 'qwen2.5-7b-instruct-q4_k_m.gguf', object: 'model', owned_by: 'llamacpp' }] },
      };
    // The chat template joins the contents; the tokenizer counts as the mocks do (ceil(chars / 4)).
    if (request.method === 'POST' && request.path === '/apply-template') {
      const { messages } = JSON.parse(request.body) as MockChatBody;
      return { status: 200, body: { prompt: messages.map((message) => message.content).join('\n') } };
    }
    if (request.method === 'POST' && request.path === '/tokenize') {
      const { content } = JSON.parse(request.body) as { content: string };
      return { status: 200, body: { tokens: Array.from({ length: Math.ceil(content.length / 4) }, (_, index) => index) } };
    }
    if (request.method === 'POST' && request.path === '/v1/chat/completions') {
      const body = JSON.parse(request.body) as MockChatBody;
      const tokens = mockPromptTokens(body);
      if (tokens > perSlot)
        return {
          status: 400,
          body: {
            error: {
              code: 400,
              message: `the request exceeds the available context size (${perSlot} tokens), try increasing it`,
              type: 'exceed_context_size_error',
            },
          },
        };
      return completionAnswer(body, (options.chat ?? defaultChat)(body), tokens);
    }
    return { status: 404, body: { error: { code: 404, message: 'File Not Found', type: 'not_found_error' } } };
  };
}

/** LM Studio: `/api/v0/models` lists downloaded models with their state; a chat for one not loaded (just-in-time loading off) is refused. */
export function lmStudioMock(options: {
  models: Array<{ id: string; state: 'loaded' | 'not-loaded'; maxContext: number; loadedContext?: number }>;
  chat?: Chat;
  /** The refusal's error text for a model not loaded (default: LM Studio 0.3's "No models loaded. …"). */
  notLoadedError?: string;
}): MockServer {
  return (request) => {
    if (request.method === 'GET' && request.path === '/api/v0/models')
      return {
        status: 200,
        body: {
          object: 'list',
          data: options.models.map((model) => ({
            id: model.id,
            object: 'model',
            type: 'llm',
            publisher: 'lmstudio-community',
            arch: 'qwen2',
            compatibility_type: 'gguf',
            quantization: 'Q4_K_M',
            state: model.state,
            max_context_length: model.maxContext,
            ...(model.state === 'loaded' && model.loadedContext ? { loaded_context_length: model.loadedContext } : {}),
          })),
        },
      };
    if (request.method === 'GET' && request.path === '/v1/models')
      return {
        status: 200,
        body: { object: 'list', data: options.models.map((model) => ({ id: model.id, object: 'model', owned_by: 'organization_owner' })) },
      };
    if (request.method === 'POST' && request.path === '/v1/chat/completions') {
      const body = JSON.parse(request.body) as MockChatBody;
      const model = options.models.find((entry) => entry.id === body.model);
      if (!model || model.state !== 'loaded')
        return {
          status: 404,
          body: {
            error: options.notLoadedError ?? 'No models loaded. Please load a model in the developer page or use the `lms load` command.',
          },
        };
      return completionAnswer(body, (options.chat ?? defaultChat)(body), mockPromptTokens(body));
    }
    return { status: 404, body: { error: 'Unexpected endpoint or method.' } };
  };
}

/** vLLM: `/v1/models` with owned_by "vllm" and max_model_len; a longer prompt is refused with 400, as vLLM does. */
export function vllmMock(options: { model: string; maxModelLen: number; chat?: Chat }): MockServer {
  return (request) => {
    if (request.method === 'GET' && request.path === '/v1/models')
      return {
        status: 200,
        body: {
          object: 'list',
          data: [{ id: options.model, object: 'model', owned_by: 'vllm', root: options.model, max_model_len: options.maxModelLen }],
        },
      };
    if (request.method === 'POST' && request.path === '/v1/chat/completions') {
      const body = JSON.parse(request.body) as MockChatBody;
      if (body.model !== options.model)
        return {
          status: 404,
          body: { object: 'error', message: `The model \`${body.model}\` does not exist.`, type: 'NotFoundError', code: 404 },
        };
      return completionAnswer(body, (options.chat ?? defaultChat)(body), mockPromptTokens(body));
    }
    return { status: 404, body: { detail: 'Not Found' } };
  };
}

/** Another OpenAI-compatible server: `/v1/models` with ids only, and chat; `ignoresSchema` answers prose whatever the request asks. */
export function plainOpenAiMock(options: { models: string[]; chat?: Chat }): MockServer {
  return (request) => {
    if (request.method === 'GET' && request.path === '/v1/models')
      return { status: 200, body: { object: 'list', data: options.models.map((id) => ({ id, object: 'model', owned_by: 'system' })) } };
    if (request.method === 'POST' && request.path === '/v1/chat/completions') {
      const body = JSON.parse(request.body) as MockChatBody;
      return completionAnswer(body, (options.chat ?? defaultChat)(body), mockPromptTokens(body));
    }
    return notFound;
  };
}

/** What `mockFetch` and `serveMock` record of each request. */
export type RecordedRequest = MockRequest;

function toResponse(answer: MockAnswer): Response {
  const text = typeof answer.body === 'string' ? answer.body : answer.body === undefined ? '' : JSON.stringify(answer.body);
  return new Response(answer.status === 204 ? null : text, {
    status: answer.status,
    headers: { 'content-type': typeof answer.body === 'string' ? 'text/plain' : 'application/json' },
  });
}

/**
 * `server` as a `fetch` at `origin` (e.g. "http://127.0.0.1:11434"): requests to other origins
 * reject as a refused connection does in Node (`TypeError('fetch failed')` with cause code
 * ECONNREFUSED). `headers` are added to every request (e.g. `{ origin: 'chrome-extension://abc' }`
 * as a browser extension's fetch sends). `requests` records each request.
 */
export function mockFetch(
  server: MockServer,
  origin: string,
  headers: Record<string, string> = {},
): { fetch: typeof globalThis.fetch; requests: RecordedRequest[] } {
  const requests: RecordedRequest[] = [];
  const fetchMock = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    if (url.origin !== origin)
      throw new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) });
    const sent = new Headers(init.headers);
    const request: MockRequest = {
      method: init.method ?? 'GET',
      path: url.pathname,
      headers: { ...Object.fromEntries(sent.entries()), ...headers },
      body: typeof init.body === 'string' ? init.body : '',
    };
    requests.push(request);
    return toResponse(server(request));
  };
  return { fetch: fetchMock as typeof globalThis.fetch, requests };
}

export interface ServedMock {
  /** e.g. "http://127.0.0.1:40123" */
  origin: string;
  /** `${origin}/v1` */
  baseUrl: string;
  requests: RecordedRequest[];
  /** The most chat calls (`/chat/completions`) the server held at once so far. */
  mostChatsInFlight(): number;
  close(): Promise<void>;
}

/**
 * Serve `server` over HTTP on a free port of 127.0.0.1 (for e2e tests and the CLI). `chatDelayMs`
 * holds each chat call's answer that long, as a model generating would, so calls overlap and
 * `mostChatsInFlight` shows how many a client sent at once.
 */
export async function serveMock(server: ServedServer, options: { chatDelayMs?: number } = {}): Promise<ServedMock> {
  const requests: RecordedRequest[] = [];
  const chats = { running: 0, most: 0 };
  const http: Server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const request: MockRequest = {
        method: incoming.method ?? 'GET',
        path: new URL(incoming.url ?? '/', 'http://127.0.0.1').pathname,
        headers: Object.fromEntries(
          Object.entries(incoming.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : value]),
        ),
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(request);
      const isChat = request.path.endsWith('/chat/completions');
      if (isChat) {
        chats.running += 1;
        chats.most = Math.max(chats.most, chats.running);
      }
      const answerWith = (answer: MockAnswer): void => {
        if (isChat) chats.running -= 1;
        const text = typeof answer.body === 'string' ? answer.body : answer.body === undefined ? '' : JSON.stringify(answer.body);
        outgoing
          .writeHead(answer.status, { 'content-type': typeof answer.body === 'string' ? 'text/plain' : 'application/json' })
          .end(text);
      };
      void Promise.resolve()
        .then(() => server(request))
        .catch((error: unknown): MockAnswer => ({ status: 400, body: { error: String(error) } }))
        .then((answer) => setTimeout(() => answerWith(answer), isChat ? (options.chatDelayMs ?? 0) : 0));
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return {
    origin,
    baseUrl: `${origin}/v1`,
    requests,
    mostChatsInFlight: () => chats.most,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
