/**
 * Never send a prompt the model cannot read (issue 29). A server whose context window is shorter
 * than a prompt cuts the prompt without an error (Ollama keeps the window's worth of tokens;
 * llama.cpp's server gives each of its `--parallel` slots `-c / slots`; LM Studio loads a model
 * with the context the reader chose), and the model then answers about text it never saw. Two
 * checks, both on the server's own figures:
 * - before a call, with the prompt's exact token count (the CLI's tokenizers) and the window the
 *   server reported: a prompt that leaves no room for the reply is not sent, and `max_tokens` is
 *   cut to what the window leaves;
 * - after a call, from the reply's `usage.prompt_tokens`: fewer tokens than the exact count sent
 *   (by more than 10 % and 32 tokens), or — with no exact count, as in the extension — a count
 *   more than 15 % below the chars/4 estimate that the server confirms by reporting a window the
 *   prompt filled (≥ 90 % of it, leaving no room for a reply). The chars/4 estimate only raises
 *   the question and sizes the advice; it never decides alone.
 * Either stops the call with `context-truncated`, in words that name the server's setting.
 * Pure.
 */
import type { ChatMessage } from './llm-port';
import { LlmError } from './llm-port';
import type { ServerFamily, ServerProfile } from './server-probe';
import { serverFamilyTitle, tokensText } from './server-probe';
import { approximateTokenCount } from './token-estimate';

/** Exact prompt tokens of `messages` for `model` (chat template applied), or undefined when no exact count exists. */
export type PromptCounter = (messages: ChatMessage[], model: string) => Promise<number | undefined>;

/** Servers whose answer about a model's window changes once it is loaded (at its first call). */
const CHANGING_WINDOW: ReadonlySet<ServerFamily> = new Set(['ollama', 'lm-studio']);

/** Least room a reply needs in the window (tokens): a JSON answer shorter than this is not an answer. */
export const MIN_REPLY_TOKENS = 64;

/**
 * Before a call: with the window the server reported (`profile.contextWindow`) and the prompt's
 * exact count, `{ problem }` (a `context-truncated` error) when the prompt leaves fewer than
 * `MIN_REPLY_TOKENS` for the reply, else `{ maxTokens }` cut to the room left (undefined when it
 * needs no change or nothing is known).
 */
export function contextFitProblem(
  profile: ServerProfile | undefined,
  promptTokens: number | undefined,
  maxTokens: number | undefined,
): { problem?: LlmError; maxTokens?: number } {
  const window = profile?.contextWindow;
  if (window === undefined || promptTokens === undefined) return {};
  const room = window - promptTokens;
  if (room < MIN_REPLY_TOKENS)
    return {
      problem: truncationError({
        family: profile!.family,
        model: profile!.model,
        window,
        needed: promptTokens,
        maxTokens,
        ...(profile!.parallelSlots !== undefined ? { slots: profile!.parallelSlots } : {}),
        before: true,
      }),
    };
  return maxTokens !== undefined && maxTokens > room ? { maxTokens: room } : {};
}

/**
 * After a call: the `context-truncated` error when the reply's `reportedTokens` show the prompt
 * was cut (see the module comment), else undefined. `profile(refresh)` gives the server's profile
 * for the model: the cached one first, asked again (`refresh`) only when it names no window and
 * the count is far short of the estimate (Ollama reports a model's window once it is loaded).
 */
export async function promptTruncation(input: {
  reportedTokens: number;
  sentTokens: number | undefined;
  messages: readonly ChatMessage[];
  maxTokens: number | undefined;
  model: string;
  profile: (refresh: boolean) => Promise<ServerProfile | undefined>;
}): Promise<LlmError | undefined> {
  const { reportedTokens, sentTokens } = input;
  // 0: a server (or proxy) that does not count; nothing to compare.
  if (reportedTokens === 0) return undefined;
  if (sentTokens !== undefined) {
    if (reportedTokens >= sentTokens * 0.9 || sentTokens - reportedTokens <= 32) return undefined;
    const profile = await input.profile(false);
    return truncationError({
      family: profile?.family ?? 'openai-compatible',
      model: input.model,
      window: profile?.contextWindow ?? reportedTokens,
      cutTo: reportedTokens,
      needed: sentTokens,
      maxTokens: input.maxTokens,
      ...(profile?.parallelSlots !== undefined ? { slots: profile.parallelSlots } : {}),
    });
  }
  const estimate = approximateTokenCount(input.messages.map((message) => message.content).join('\n'));
  // Within 15 % of the estimate: an ordinary difference between tokenizers, not a cut.
  if (reportedTokens * 1.15 >= estimate) return undefined;
  let profile = await input.profile(false);
  // Ollama and LM Studio tell a model's window once it is loaded: ask them again when the count is far short.
  if (profile && profile.contextWindow === undefined && CHANGING_WINDOW.has(profile.family) && reportedTokens < estimate * 0.6)
    profile = await input.profile(true);
  const window = profile?.contextWindow;
  // The server's own window decides: a prompt that filled it (≥ 90 %) was cut to fit.
  if (window === undefined || reportedTokens < window * 0.9) return undefined;
  return truncationError({
    family: profile!.family,
    model: input.model,
    window,
    cutTo: reportedTokens,
    needed: estimate,
    estimated: true,
    maxTokens: input.maxTokens,
    ...(profile!.parallelSlots !== undefined ? { slots: profile!.parallelSlots } : {}),
  });
}

/** The smallest power of two ≥ `tokens` (context lengths are set in powers of two: 4,096, 8,192, …). */
export function contextToSet(tokens: number): number {
  let size = 1024;
  while (size < tokens) size *= 2;
  return size;
}

/**
 * The `context-truncated` error in words, e.g. "Ollama cut the prompt to 2,048 tokens; this run
 * needs about 3,100 (and up to 1,024 for the reply): set the model's context to at least 4,096
 * (OLLAMA_CONTEXT_LENGTH=4096 ollama serve, or num_ctx 4096 in its Modelfile), then run again."
 * `before`: the prompt was not sent (its exact count did not fit the reported window).
 * `estimated`: `needed` is the chars/4 estimate ("about"). `slots`: llama.cpp's parallel slots,
 * whose `-c` must cover every slot's window.
 */
export function truncationError(input: {
  family: ServerFamily;
  model: string;
  window: number;
  needed: number;
  cutTo?: number;
  maxTokens: number | undefined;
  slots?: number;
  estimated?: boolean;
  before?: boolean;
}): LlmError {
  const server = serverFamilyTitle(input.family);
  const reply = input.maxTokens ?? MIN_REPLY_TOKENS;
  const target = contextToSet(input.needed + reply);
  const needs = `${input.estimated ? 'about ' : ''}${tokensText(input.needed)}`;
  const head = input.before
    ? `${server} runs ${input.model} with a context window of ${tokensText(input.window)} tokens; this run's prompt needs ${needs}, so it was not sent`
    : `${server} cut the prompt to ${tokensText(input.cutTo ?? input.window)} tokens; this run needs ${needs}`;
  return new LlmError(
    'context-truncated',
    `${head} (and up to ${tokensText(reply)} for the reply): ${contextAdvice(input.family, target, input.slots)}, then run again.`,
  );
}

/** How to give the model a context of `tokens` on a server of `family`. */
function contextAdvice(family: ServerFamily, tokens: number, slots: number | undefined): string {
  const size = tokensText(tokens);
  switch (family) {
    case 'ollama':
      return `set the model's context to at least ${size} (OLLAMA_CONTEXT_LENGTH=${tokens} ollama serve, or num_ctx ${tokens} in its Modelfile)`;
    case 'llama.cpp': {
      const perSlot = slots && slots > 1 ? `, since -c is shared by its ${slots} --parallel slots` : '';
      return `start llama-server with -c ${tokens * (slots ?? 1)} or more${perSlot}`;
    }
    case 'lm-studio':
      return `load the model with a context length of at least ${size} (LM Studio's load settings, or lms load --context-length ${tokens})`;
    case 'vllm':
      return `start vLLM with --max-model-len ${tokens} or more`;
    case 'openai-compatible':
      return `set the server's context length for the model to at least ${size}`;
  }
}
