/**
 * A local OpenAI-compatible chat-completions server for the e2e tests: the extension's
 * OpenAI-compatible engine talks to it over real HTTP from the offscreen document, exactly as it
 * would to Ollama or llama.cpp. It answers every SLM-MATRIX role with one scripted fact, telling
 * the roles apart by the JSON schema each request asks for (generator steps carry `final`; MoA
 * triplets carry the value as a string; the discriminator's as a number; Chain-of-Verification
 * questions by their schema name: "yes" with the fact's sentence to `property_match`, "not stated" to the rest). It records every request, and
 * can be slowed down so a test can press Stop mid-run.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { questionRequestShape } from '../../src/matrix/chain-of-verification';

type ServedRole = 'moa' | 'generator' | 'discriminator' | 'verification-questions';

export interface ScriptedFact {
  material: string;
  property: string;
  value: number;
  unit: string;
  quote: string;
}

export interface OpenAiTestServer {
  /** `http://127.0.0.1:<port>/v1` */
  baseUrl: string;
  /** Every chat request received, parsed. */
  requests: Array<{ model: string; role: ServedRole; user: string }>;
  /** Milliseconds to wait before each answer (default 0). */
  setDelay(milliseconds: number): void;
  /** Answer every request from now on with this HTTP status (e.g. 500, a server that broke), or normally again with null. */
  setFailure(status: number | null): void;
  /** Chat requests answered with 200. */
  answered(): number;
  close(): Promise<void>;
}

interface ChatBody {
  model: string;
  messages: Array<{ role: string; content: string }>;
  response_format?: { json_schema?: { name?: string; schema?: { properties?: Record<string, unknown> } } };
}

/** The Chain-of-Verification request's shape (question ids, facts), or null for any other request. */
function questionsOf(body: ChatBody): ReturnType<typeof questionRequestShape> {
  const format = body.response_format?.json_schema;
  if (!format?.name || !format.schema) return null;
  return questionRequestShape({
    jsonSchema: { name: format.name, schema: format.schema },
    messages: body.messages
      .filter((message) => message.role === 'user')
      .map((message) => ({ role: 'user' as const, content: message.content })),
  });
}

function roleOf(body: ChatBody): ServedRole {
  if (questionsOf(body)) return 'verification-questions';
  const properties = body.response_format?.json_schema?.schema?.properties ?? {};
  if ('final' in properties) return 'generator';
  const items = (properties.triplets as { items?: { properties?: { value?: { type?: string } } } } | undefined)?.items;
  return items?.properties?.value?.type === 'string' ? 'moa' : 'discriminator';
}

function replyFor(role: ServedRole, facts: readonly ScriptedFact[], body: ChatBody): string {
  const questions = role === 'verification-questions' ? questionsOf(body) : null;
  if (questions) {
    // "Is the value given as this property?" is answered "yes" with the fact's own sentence; the rest "not stated".
    const quote = facts[0]?.quote ?? '';
    const answers = Object.fromEntries(
      questions.questionIds.map((id) => [id, id === 'property_match' ? { answer: 'yes', quote } : { answer: 'not stated', quote: '' }]),
    );
    return JSON.stringify({ facts: Array.from({ length: questions.facts }, (_, index) => ({ fact: index + 1, ...answers })) });
  }
  if (role === 'moa') return JSON.stringify({ triplets: facts.map((fact) => ({ ...fact, value: String(fact.value) })) });
  if (role === 'generator')
    return JSON.stringify({
      text: 'Found the values and their units in the passage.',
      materials: facts.map((fact) => fact.material),
      triplets: facts,
      final: true,
    });
  return JSON.stringify({ triplets: facts });
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Facts the server states: fixed ones, or facts worked out from each request's user message (e.g. `groundedFacts`). */
export type FactSource = ScriptedFact | readonly ScriptedFact[] | ((user: string) => Promise<ScriptedFact[]>);

/**
 * Start the server on a free port of 127.0.0.1; every role states the facts of the property
 * asked (by `fact.property` in the prompt), none for another property. With a function as
 * `facts`, the facts are worked out from each request's user message (the passage it carries).
 */
export async function startOpenAiTestServer(facts: FactSource): Promise<OpenAiTestServer> {
  const factsFor: (user: string) => Promise<readonly ScriptedFact[]> =
    typeof facts === 'function' ? facts : async () => (Array.isArray(facts) ? facts : [facts as ScriptedFact]);
  const requests: OpenAiTestServer['requests'] = [];
  let delay = 0;
  let failure: number | null = null;
  let answered = 0;
  const server: Server = createServer((request, response) => {
    if (request.method !== 'POST' || request.url !== '/v1/chat/completions') {
      response.writeHead(404, { 'Content-Type': 'application/json' }).end(JSON.stringify({ error: { message: 'not found' } }));
      return;
    }
    void readBody(request).then(async (text) => {
      const body = JSON.parse(text) as ChatBody;
      const role = roleOf(body);
      requests.push({ model: body.model, role, user: body.messages.find((message) => message.role === 'user')?.content ?? '' });
      if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
      if (failure !== null) {
        response
          .writeHead(failure, { 'Content-Type': 'application/json' })
          .end(JSON.stringify({ error: { message: 'simulated failure' } }));
        return;
      }
      const user = body.messages.find((message) => message.role === 'user')?.content ?? '';
      const all = await factsFor(user);
      // Triplet roles state the facts of the property asked (none for a property the server has no fact of,
      // so that property ends "not provided"); the questions are answered from any fact's sentence.
      const asked = all.filter((fact) => user.includes(fact.property));
      answered += 1;
      const content = replyFor(role, role === 'verification-questions' ? all : asked, body);
      response.writeHead(200, { 'Content-Type': 'application/json' }).end(
        JSON.stringify({
          id: `chatcmpl-${requests.length}`,
          object: 'chat.completion',
          model: body.model,
          choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
          usage: { prompt_tokens: Math.ceil(text.length / 4), completion_tokens: Math.ceil(content.length / 4) },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    setDelay: (milliseconds) => {
      delay = milliseconds;
    },
    setFailure: (status) => {
      failure = status;
    },
    answered: () => answered,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
