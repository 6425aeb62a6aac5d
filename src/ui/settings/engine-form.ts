/**
 * The engine part of the "Extract" form as plain strings (what the inputs hold) and its
 * translation to and from `EngineSettings`: base URL checks, the models list ↔ roster mapping,
 * the host permission pattern of a server, and reading a stored value. Pure.
 */
import { z } from 'zod';
import { EngineSettingsSchema, type EngineSettings, type Roster } from '../../contracts/matrix-run';

/** Ollama's OpenAI-compatible endpoint on this machine; LM Studio and llama.cpp use other ports. */
export const DEFAULT_BASE_URL = 'http://127.0.0.1:11434/v1';

/** The engine used when nothing (valid) is stored: WebLLM with its default roster. */
export const DEFAULT_ENGINE: EngineSettings = { kind: 'webllm' };

type WebLlmSettings = Extract<EngineSettings, { kind: 'webllm' }>;

/** What the engine inputs hold. `webllm` keeps the WebLLM settings the form does not edit (roster, GPU budget). */
export interface EngineDraft {
  kind: EngineSettings['kind'];
  baseUrl: string;
  apiKey: string;
  models: string;
  webllm: WebLlmSettings;
}

/** Per-input problems in words; an input without a problem has no key. */
export interface EngineDraftErrors {
  baseUrl?: string;
  models?: string;
}

const roles = ['proposer', 'aggregator', 'generator', 'discriminator'] as const;
type Role = (typeof roles)[number];

/**
 * Parse the models input into a roster. Entries are comma-separated; a bare id is a proposer
 * (one per proposer of a MoA layer, cycled when fewer than the preset's proposers), `role=id`
 * names a role's model (`proposer`, `aggregator`, `generator`, `discriminator`, as the CLI's
 * `--model ROLE=ID`). Roles left unnamed use the first proposer.
 * Example: "qwen2.5:7b, llama3.2:3b, generator=llama3.1:8b".
 * → `{ ok: true, roster }`, or `{ ok: false, message }` for no proposer, an unknown role or an empty id.
 */
export function parseModelList(text: string): { ok: true; roster: Roster } | { ok: false; message: string } {
  const proposers: string[] = [];
  const named: Partial<Record<Exclude<Role, 'proposer'>, string>> = {};
  for (const entry of text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')) {
    const equals = entry.indexOf('=');
    // Model ids such as "qwen2.5:7b" contain ':' and '/', never '='.
    if (equals < 0) {
      proposers.push(entry);
      continue;
    }
    const role = entry.slice(0, equals).trim().toLowerCase();
    const id = entry.slice(equals + 1).trim();
    if (!roles.includes(role as Role))
      return { ok: false, message: `Unknown role “${role}”: use proposer, aggregator, generator or discriminator.` };
    if (id === '') return { ok: false, message: `Give a model id after “${role}=”.` };
    if (role === 'proposer') proposers.push(id);
    else named[role as Exclude<Role, 'proposer'>] = id;
  }
  const first = proposers[0];
  if (first === undefined) return { ok: false, message: 'Name at least one model, as your server lists it (e.g. qwen2.5:7b).' };
  return {
    ok: true,
    roster: {
      proposers,
      aggregator: named.aggregator ?? first,
      generator: named.generator ?? first,
      discriminator: named.discriminator ?? first,
    },
  };
}

/** The models input for a roster, the inverse of `parseModelList`: proposers, then `role=id` for roles not played by the first proposer. */
export function modelListText(roster: Roster): string {
  const first = roster.proposers[0];
  const named = (['aggregator', 'generator', 'discriminator'] as const)
    .filter((role) => roster[role] !== first)
    .map((role) => `${role}=${roster[role]}`);
  return [...roster.proposers, ...named].join(', ');
}

/** Null when `text` is an http(s) URL, else the problem in words. */
export function baseUrlProblem(text: string): string | null {
  const example = `e.g. ${DEFAULT_BASE_URL}`;
  const trimmed = text.trim();
  // "localhost:11434/v1" parses as a URL with the scheme "localhost:": check the scheme first.
  if (!/^https?:\/\//i.test(trimmed)) return `Start the address with http:// or https://, ${example}.`;
  if (!URL.canParse(trimmed)) return `Enter the server's address, ${example}.`;
  return null;
}

/**
 * The host permission match pattern covering `baseUrl`'s origin, e.g. "http://127.0.0.1:11434/v1"
 * → "http://127.0.0.1:11434/*" (scheme, host and port; the path is ignored for host permissions:
 * https://developer.chrome.com/docs/extensions/develop/concepts/match-patterns). A default port
 * is dropped ("https://host:443/v1" → "https://host/*"). Chrome matches ports in patterns;
 * Firefox does not allow them. Throws `TypeError` when `baseUrl` is not a URL.
 */
export function originPattern(baseUrl: string): string {
  const url = new URL(baseUrl);
  return `${url.protocol}//${url.host}/*`;
}

/** The inputs' strings for `engine` (OpenAI fields at their defaults for WebLLM, and the reverse). */
export function draftFromEngine(engine: EngineSettings): EngineDraft {
  if (engine.kind === 'webllm') return { kind: 'webllm', baseUrl: DEFAULT_BASE_URL, apiKey: '', models: '', webllm: engine };
  return {
    kind: 'openai',
    baseUrl: engine.baseUrl,
    apiKey: engine.apiKey ?? '',
    models: modelListText(engine.roster),
    webllm: { kind: 'webllm' },
  };
}

/**
 * The settings the inputs describe, or the problem per input. WebLLM needs nothing; the
 * OpenAI-compatible server needs an http(s) base URL and at least one model. A blank API key
 * is left out. The result is checked against `EngineSettingsSchema` as the run's host will.
 */
export function engineFromDraft(draft: EngineDraft): { ok: true; engine: EngineSettings } | { ok: false; errors: EngineDraftErrors } {
  if (draft.kind === 'webllm') return { ok: true, engine: draft.webllm };
  const errors: EngineDraftErrors = {};
  const urlProblem = baseUrlProblem(draft.baseUrl);
  if (urlProblem !== null) errors.baseUrl = urlProblem;
  const models = parseModelList(draft.models);
  if (!models.ok) errors.models = models.message;
  if (urlProblem !== null || !models.ok) return { ok: false, errors };
  const apiKey = draft.apiKey.trim();
  const parsed = EngineSettingsSchema.safeParse({
    kind: 'openai',
    baseUrl: draft.baseUrl.trim(),
    ...(apiKey === '' ? {} : { apiKey }),
    roster: models.roster,
  });
  return parsed.success ? { ok: true, engine: parsed.data } : { ok: false, errors: { baseUrl: z.prettifyError(parsed.error) } };
}

/** A stored value (untrusted: another version may have written it) as settings; anything invalid → `DEFAULT_ENGINE`. */
export function readEngineSettings(stored: unknown): EngineSettings {
  const parsed = EngineSettingsSchema.safeParse(stored);
  return parsed.success ? parsed.data : DEFAULT_ENGINE;
}
