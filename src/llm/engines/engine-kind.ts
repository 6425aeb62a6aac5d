/**
 * The shape of one model engine kind (DESIGN.md "Engines"): everything a host needs to offer it —
 * its id and label, its settings schema, how it becomes an `LlmPort`, the origins it must reach,
 * the inputs a form shows for it, and the command-line flags it takes. One object per kind, one
 * file per kind (`*-engine-kind.ts`); `registry.ts` lists them. Hosts (the extension's offscreen
 * document, the side panel, the CLI) read the registry instead of naming kinds.
 */
import type { z } from 'zod';
import type { PresetModels } from '../../contracts/matrix-preset';
import type { EngineSettings } from '../../contracts/matrix-run';
import type { EngineCheck } from '../../contracts/run-record';
import type { CustomWebLlmModel } from '../../contracts/webllm-model';
import type { PromptCounter } from '../context-window';
import type { EmbeddingPort } from '../embeddings';
import type { LlmError, LlmPort } from '../llm-port';
import type { WebLlm, WebLlmModelRecord } from '../webllm-adapter';
import type { WebGpuCapability } from '../../contracts/messages';

/** Where a kind is offered: `browser` (side panel and offscreen document), `cli` (`assay extract|eval|precedent`). */
export type EngineHost = 'browser' | 'cli';

/** The model of each SLM-MATRIX role (`PresetModels`, src/contracts/matrix-preset.ts). */
export type RoleModels = PresetModels;

/** What the extension injects into a browser factory (the offscreen document's sources). */
export interface BrowserEngineSources {
  /** The document's one WebLLM engine (created on first use). */
  webLlm: () => Promise<WebLlm>;
  capability: () => Promise<WebGpuCapability>;
  /** WebLLM's model list (ids, required features, `vram_required_MB`), custom models registered included. */
  modelRecords: () => Promise<readonly WebLlmModelRecord[]>;
  /** Make these the reader's custom WebLLM models (replacing earlier ones); rejects with `LlmError` for a clashing id. */
  registerModels?: (models: readonly CustomWebLlmModel[]) => Promise<void>;
  /** Tells `listener` about WebLLM load progress in words until the returned function is called. */
  onLoadProgress: (listener: (text: string) => void) => () => void;
  fetch?: typeof globalThis.fetch;
  /** Clock (ms) for throttling status lines; default `Date.now`. */
  now?: () => number;
}

/** An engine ready for one extension run (the offscreen host's `RunEngine`). */
export interface EngineRun {
  llm: LlmPort;
  /** Embeddings for retrieval's MMR similarity, when the settings name an embedding model; absent → lexical similarity. */
  embeddings?: EmbeddingPort;
  /** The model of each role this engine will use (goes into the run record). */
  models: RoleModels;
  /**
   * The server's parallel slots: calls the engine serves at once, and so the independent calls a
   * run asks at once (`MatrixOptions.parallel`). Absent: one at a time (WebLLM, whose scheduler
   * serves one call at a time).
   */
  parallel?: number;
  /**
   * After `device-lost`: reload the engine and resolve true when the run may resume. Absent: the
   * run stops as interrupted.
   */
  recover?: (error: LlmError) => Promise<boolean>;
  /** Called once when the run ends (stop listening to load progress, …). */
  dispose?: () => void;
  /** Model loads so far; absent for engines that load models themselves. */
  modelLoads?: () => number;
  /**
   * The engine check to make before the run's first real call (src/llm/engine-check.ts), through
   * `llm` (the run's metered port over this engine). Rejects with the check's `LlmError`, which
   * stops the run. Absent: no check (servers answer for their own models).
   */
  check?: (llm: LlmPort, signal: AbortSignal) => Promise<EngineCheck>;
}

/** Where a form input is shown: in the "Extract" form's Engine fieldset, or in "Settings and models". */
export type EngineFieldPlacement = 'run' | 'settings';

/**
 * One input of a kind's form. Its text is read from settings with `text` and written back with
 * `apply`, which validates it (the kind's schema checks the whole settings afterwards).
 */
export interface EngineField<S extends EngineSettings = EngineSettings> {
  /** Key of the input's text in a form draft, e.g. "baseUrl"; unique across kinds unless the text is meant to be shared ("kind" and "kept" are reserved). */
  name: string;
  /** The visible label, e.g. "Base URL" (tests and e2e tests find inputs by it). */
  label: string;
  /** The HTML input type. */
  input: 'text' | 'url' | 'password' | 'number';
  /** Suffix of the element id (`<form id>-<idSuffix>`; hint and error ids add `-hint`, `-error`). */
  idSuffix: string;
  placement: EngineFieldPlacement;
  /** `data-testid` of the input; its error line gets `<testId>-error`. */
  testId?: string;
  placeholder?: string;
  /** Help text under the input. */
  hint?: string;
  /** For `settings` fields: the help text while another kind is chosen (the input is then disabled). */
  inactiveHint?: string;
  /** For `settings` fields: the heading above the input. */
  heading?: string;
  autoComplete?: string;
  /** For number inputs. */
  min?: number;
  step?: number;
  /** The input's text for settings of this kind, or its default text when `settings` is undefined. */
  text(settings: S | undefined): string;
  /**
   * `settings` (of this kind, possibly incomplete while the form assembles it) with `text`
   * applied → `{ ok: true, settings }`, or `{ ok: false, message }` with the problem in words.
   */
  apply(
    settings: Partial<S> & { kind: string },
    text: string,
  ): { ok: true; settings: Partial<S> & { kind: string } } | { ok: false; message: string };
}

/** `parseArgs` spec of one flag (all engine flags are strings; `multiple` for repeatable ones). */
export interface CliFlagSpec {
  type: 'string';
  multiple?: boolean;
}

/** The command line's flags as `parseArgs` returns them. */
export type CliFlags = Readonly<Record<string, string | boolean | readonly string[] | undefined>>;

/** What the CLI injects into a command-line factory. */
export interface CliEngineSources {
  /** Read a UTF-8 text file (e.g. `--script FILE`); rejects like `fs.readFile`. */
  readText: (path: string) => Promise<string>;
  /** Environment variables (`--api-key-env NAME`). */
  env: Readonly<Record<string, string | undefined>>;
  /** Takes what the engine is doing in one line (e.g. a pooled model server going down), for stderr. */
  onStatus?: (line: string) => void;
  /** Exact prompt token counts per model (the CLI's tokenizers: src/llm/tokenizers.ts), undefined for a model without one. */
  countPromptTokens?: PromptCounter;
}

/** Bad command-line options for an engine; the message is one line for the user (exit code 2). */
export class EngineUsageError extends Error {}

/** The command-line side of a kind (`assay extract|eval|precedent --engine <kind>`). */
export interface CliEngineKind {
  /** The flags this kind reads besides the shared ones (`--model`, `--preset`, `--seed`, `--concurrency`). */
  options: Readonly<Record<string, CliFlagSpec>>;
  /**
   * The port for the SLM-MATRIX pipeline (extract, eval) from `flags`; `models` are the preset's
   * models with `--model` applied, `concurrency` the parallel calls wanted (`--concurrency`).
   * Throws `EngineUsageError` (one line) for missing or bad flags.
   */
  matrix(flags: CliFlags, context: { models: RoleModels; concurrency?: number }, sources: CliEngineSources): Promise<LlmPort>;
  /**
   * Ask the model server at start what it is (said in words on `sources.onStatus`) → the
   * parallel slots it serves (llama.cpp's `total_slots`) when `concurrency` (`--concurrency`) is
   * not given; undefined when it is, or the server does not say or cannot be asked (the first
   * call then says what is wrong). Called after `matrix` accepted the flags; never throws.
   */
  probe?(flags: CliFlags, context: { models: RoleModels; concurrency?: number }, sources: CliEngineSources): Promise<number | undefined>;
  /** The judge's port for `assay precedent` from `flags`. Throws `EngineUsageError` (one line). */
  judge(flags: CliFlags, sources: CliEngineSources): Promise<LlmPort>;
  /**
   * Embeddings for retrieval from `flags` (e.g. openai's `--embedding-model ID`); undefined when
   * the flags name none. Throws `EngineUsageError` (one line) for bad flags.
   */
  embeddings?(flags: CliFlags, sources: CliEngineSources): EmbeddingPort | undefined;
}

/** The browser side of a kind (side panel form, permissions, offscreen factory). */
export interface BrowserEngineKind<S extends EngineSettings = EngineSettings> {
  /**
   * Build the engine for one run from valid `settings`. `onStatus` takes what the engine is doing
   * in words (null clears it). Rejects with `LlmError` (e.g. `no-webgpu`, `out-of-gpu-memory`).
   */
  create(settings: S, sources: BrowserEngineSources, onStatus: (text: string | null) => void): Promise<EngineRun>;
  /** When set, one engine of this kind per document: a second is refused with `LlmError('unavailable', busyMessage)` until the first is disposed. */
  exclusive?: { busyMessage: string };
  /** Host permission match patterns the run needs (e.g. "http://127.0.0.1:11434/*"); none → []. */
  origins(settings: S): string[];
  /** Keys of `settings` kept out of stored run rows (secrets such as an API key). */
  secretKeys?: readonly string[];
  /** The form's inputs, in display order. */
  fields: readonly EngineField<S>[];
  /**
   * "Test connection": ask the server what it is and what it gives each model of `settings`,
   * through `fetch` (the page's, with the host permission granted), → what was found in words.
   * Rejects with the `LlmError` that says what to fix (e.g. `origin-refused`). Absent: the kind
   * reaches no server (WebLLM).
   */
  probe?(settings: S, fetch: typeof globalThis.fetch): Promise<string>;
}

/** One engine kind. `S` is its settings type (`kind` is the kind's id). */
export interface EngineKind<S extends EngineSettings = EngineSettings> {
  /** The id in settings and on the command line (`--engine <kind>`), e.g. "openai". */
  kind: string;
  /** The choice's label in forms, e.g. "OpenAI-compatible server". */
  label: string;
  /** Settings of this kind (an object schema whose `kind` is the literal id). */
  schema: z.ZodType<S>;
  browser?: BrowserEngineKind<S>;
  cli?: CliEngineKind;
}

/** An `EngineKind` of any settings type, as the registry holds them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyEngineKind = EngineKind<any>;
