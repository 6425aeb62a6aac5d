/**
 * Why a model's reply could not be used, per call, for `generateObject`: it ran past max_tokens
 * (the engine's finish_reason "length"), it fell into a repetition loop (src/llm/repetition.ts),
 * its JSON never closed, or its JSON did not parse or match the schema. Each names its own retry
 * and, when the retry fails too, its own `LlmError` code and a message a reader can act on.
 */
import type { z } from 'zod';
import { extractJson, unclosedJson } from './json-extract';
import type { LlmReply, LlmRequest } from './llm-port';
import { detectRepetition, type Repetition } from './repetition';
import type { LlmErrorCode, ModelRole } from '../contracts/llm';

/** What was wrong with one reply. */
export type ReplyDefect =
  /** The engine stopped it at max_tokens (`maxTokens` as asked; undefined when the request set none). */
  | { kind: 'truncated'; maxTokens?: number }
  | ({ kind: 'repetitive' } & Repetition)
  /** It ended (finish_reason "stop") with `open` brackets still open. */
  | { kind: 'unclosed'; open: number; inString: boolean }
  /** Not JSON, or JSON not matching the schema: the parser's or the schema's problems. */
  | { kind: 'invalid'; problems: string[] };

export type ReadReply<T> = { ok: true; value: T } | { ok: false; defect: ReplyDefect };

/**
 * Read `reply` as JSON matching `schema` (`extractJson`, then `schema.safeParse`). A value that
 * parses and validates is used whatever the finish reason. Otherwise the defect, first match wins:
 * `repetitive` when its tail is a loop (`detectRepetition`; a loop usually also hits max_tokens, but
 * a larger budget would not help, so the loop is the cause to name); `truncated` when
 * `reply.finishReason` is "length"; `unclosed` when a bracket was left open; else `invalid`.
 * Pure; never throws.
 */
export function readReply<T>(reply: Pick<LlmReply, 'text' | 'finishReason'>, schema: z.ZodType<T>, maxTokens?: number): ReadReply<T> {
  const extracted = extractJson(reply.text);
  let problems: string[];
  if (extracted.ok) {
    const parsed = schema.safeParse(extracted.value);
    if (parsed.success) return { ok: true, value: parsed.data };
    problems = parsed.error.issues.map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(root)'}: ${issue.message}`);
  } else problems = [extracted.problem];
  const repetition = detectRepetition(reply.text);
  if (repetition) return { ok: false, defect: { kind: 'repetitive', ...repetition } };
  if (reply.finishReason === 'length')
    return { ok: false, defect: { kind: 'truncated', ...(maxTokens === undefined ? {} : { maxTokens }) } };
  const unclosed = unclosedJson(reply.text);
  if (unclosed) return { ok: false, defect: { kind: 'unclosed', ...unclosed } };
  return { ok: false, defect: { kind: 'invalid', problems } };
}

/** The `LlmError` code of a reply that stayed unusable with `defect`. */
export function defectCode(defect: ReplyDefect): LlmErrorCode {
  if (defect.kind === 'truncated') return 'truncated-output';
  if (defect.kind === 'repetitive') return 'repetitive-output';
  return 'malformed-output';
}

/** At most 40 characters of a repeated unit, as a JSON string (so whitespace and quotes show). */
function unitText(unit: string): string {
  return JSON.stringify(unit.length > 40 ? `${unit.slice(0, 39)}…` : unit);
}

const limitText = (defect: { maxTokens?: number }) =>
  defect.maxTokens === undefined ? 'its token limit' : `its ${defect.maxTokens}-token limit`;

/** `defect` as a verb phrase about "the reply": "ran past its 1024-token limit before the JSON closed". */
export function describeDefect(defect: ReplyDefect): string {
  switch (defect.kind) {
    case 'truncated':
      return `ran past ${limitText(defect)} before the JSON closed`;
    case 'repetitive':
      return `fell into a repetition loop (${unitText(defect.unit)} ${defect.repeats} times over at its end) instead of closing its JSON`;
    case 'unclosed':
      return `ended with its JSON still open (${defect.open} bracket${defect.open === 1 ? '' : 's'} unclosed${defect.inString ? ', inside a string' : ''})`;
    case 'invalid':
      return `did not match the expected JSON: ${defect.problems.join('; ')}`;
  }
}

/** What a reader can do about a reply that stayed unusable with a defect of `code`. */
const advice: Partial<Record<LlmErrorCode, string>> = {
  'truncated-output': 'a larger max_tokens, fewer facts per call or another model may help',
  'repetitive-output': 'another model for this role, or a higher temperature (greedy decoding loops most), may help',
};

/**
 * The message of the `LlmError` after the first reply (`first`) and its one retry (`second`)
 * both failed, e.g. "the proposer model's reply ran past its 1024-token limit before the JSON
 * closed, on the first try and on its one retry; a larger max_tokens, fewer facts per call or
 * another model may help". A first and second defect of different kinds are both named. The
 * message of a malformed reply keeps its long-standing form ("… did not match the expected JSON
 * after one repair attempt: <problems>").
 */
export function defectMessage(role: ModelRole, first: ReplyDefect, second: ReplyDefect): string {
  const code = defectCode(second);
  const tail = advice[code] ? `; ${advice[code]}` : '';
  if (code === 'malformed-output' && defectCode(first) === 'malformed-output') {
    const problems = second.kind === 'invalid' ? second.problems.join('; ') : `the reply ${describeDefect(second)}`;
    return `the ${role} model's reply did not match the expected JSON after one repair attempt: ${problems}`;
  }
  if (first.kind === second.kind)
    return `the ${role} model's reply ${describeDefect(second)}, on the first try and on its one retry${tail}`;
  return `the ${role} model's first reply ${describeDefect(first)}, and its one retry ${describeDefect(second)}${tail}`;
}

/**
 * The messages of the one retry after a reply with `defect` to `request`:
 * - `invalid`, `unclosed`: the original messages, the bad reply (assistant) and a user message
 *   naming its problems and asking for corrected JSON only (the repair of the Vercel AI SDK).
 * - `truncated`, `repetitive`: the original messages, with a note appended to the last one saying
 *   what went wrong and asking for a short, complete reply; the bad reply is NOT sent back: a
 *   loop in the context makes the model more likely to loop again (Xu et al. 2022), and a reply
 *   cut at max_tokens would take that much of the context window. Appended, not a new message:
 *   some chat templates (Gemma, Mistral) reject two user turns in a row. The retry keeps the same
 *   max_tokens: the note asks for less, not for more room.
 */
export function retryMessages(request: Pick<LlmRequest, 'messages'>, replyText: string, defect: ReplyDefect): LlmRequest['messages'] {
  if (defect.kind === 'invalid' || defect.kind === 'unclosed') {
    const problems = defect.kind === 'invalid' ? defect.problems : [`the reply ${describeDefect(defect)}`];
    return [
      ...request.messages,
      { role: 'assistant', content: replyText },
      {
        role: 'user',
        content: [
          'Your previous reply could not be used:',
          ...problems.map((problem) => `- ${problem}`),
          'Reply again with the corrected JSON only: no prose, no code fences, no comments, no trailing commas.',
        ].join('\n'),
      },
    ];
  }
  const note =
    defect.kind === 'truncated'
      ? `Note: an earlier reply to this request ran past ${limitText(defect)} before its JSON closed. Keep this reply short: JSON only, no prose, each string no longer than it must be, and close the JSON.`
      : `Note: an earlier reply to this request repeated ${unitText(defect.unit)} over and over instead of finishing. Reply with the JSON only, give each item once, and close the JSON.`;
  const messages = [...request.messages];
  const last = messages.at(-1);
  if (last && last.role === 'user') messages[messages.length - 1] = { ...last, content: `${last.content}\n\n${note}` };
  else messages.push({ role: 'user', content: note });
  return messages;
}
