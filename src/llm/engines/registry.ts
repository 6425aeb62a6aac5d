/**
 * The engine registry: the one list of model engine kinds (`ENGINE_KINDS`) and what hosts ask of
 * it — the kinds a host offers, the settings schema of those kinds, the origins and secrets of
 * given settings, the command-line flags. Adding an engine kind is one new `*-engine-kind.ts`
 * file plus one line in `ENGINE_KINDS`; tests build their own registry with
 * `createEngineRegistry([...ENGINE_KINDS, fake])` and hand it to the host they test.
 */
import { z } from 'zod';
import type { EngineSettings } from '../../contracts/matrix-run';
import type { AnyEngineKind, CliFlagSpec, EngineHost } from './engine-kind';
import { openAiEngineKind } from './openai-engine-kind';
import { scriptedEngineKind } from './scripted-engine-kind';
import { webLlmEngineKind } from './webllm-engine-kind';

/**
 * Every engine kind, in the order hosts list them: the CLI offers `scripted`, `openai` ("use
 * --engine scripted or openai"); the browser offers `webllm` (the default), `openai`.
 */
export const ENGINE_KINDS: readonly AnyEngineKind[] = [scriptedEngineKind, webLlmEngineKind, openAiEngineKind];

export interface EngineRegistry {
  /** All kinds, in listing order. */
  readonly kinds: readonly AnyEngineKind[];
  /** The kind with id `kind` that `host` offers (any host when omitted), or undefined. */
  get(kind: string, host?: EngineHost): AnyEngineKind | undefined;
  /** The kinds `host` offers (those with a `browser` or `cli` part), in listing order. */
  offered(host: EngineHost): AnyEngineKind[];
  /** The kind ids `host` offers, e.g. ["scripted", "openai"] for the CLI. */
  names(host: EngineHost): string[];
  /**
   * The settings of the kinds `host` offers (default `browser`): a zod schema discriminated on
   * `kind`; an unknown kind or bad settings fail with a `ZodError`. Parsing drops unknown keys.
   */
  settingsSchema(host?: EngineHost): z.ZodType<EngineSettings>;
  /** `settingsSchema(host).safeParse(value)`. */
  parseSettings(value: unknown, host?: EngineHost): z.ZodSafeParseResult<EngineSettings>;
  /** Host permission match patterns valid browser `settings` need (e.g. ["http://127.0.0.1:11434/*"]); [] for none or an unknown kind. */
  origins(settings: EngineSettings): string[];
  /** `settings` without the keys its kind keeps out of stored rows (`secretKeys`, e.g. the API key); the same object when there are none. */
  withoutSecrets<S extends EngineSettings>(settings: S): S;
  /** `parseArgs` specs of every CLI kind's own flags (e.g. `base-url`, `script`). */
  cliOptions(): Record<string, CliFlagSpec>;
  /**
   * The settings used when none (valid) are stored: the first kind `host` offers (default
   * `browser`) that works with no settings besides its id — WebLLM with its default roster.
   * Throws `Error` when no such kind is registered.
   */
  defaultSettings(host?: EngineHost): EngineSettings;
}

/**
 * A registry over `kinds` (ids must be unique; each `schema` an object schema whose `kind` is
 * the literal id). Throws `Error` on a repeated id.
 */
export function createEngineRegistry(kinds: readonly AnyEngineKind[]): EngineRegistry {
  const ids = new Set<string>();
  for (const entry of kinds) {
    if (ids.has(entry.kind)) throw new Error(`engine kind "${entry.kind}" is registered twice`);
    ids.add(entry.kind);
  }
  const offers = (entry: AnyEngineKind, host: EngineHost) => (host === 'browser' ? entry.browser !== undefined : entry.cli !== undefined);
  const schemas = new Map<EngineHost, z.ZodType<EngineSettings>>();
  const registry: EngineRegistry = {
    kinds,
    get: (kind, host) => kinds.find((entry) => entry.kind === kind && (host === undefined || offers(entry, host))),
    offered: (host) => kinds.filter((entry) => offers(entry, host)),
    names: (host) => registry.offered(host).map((entry) => entry.kind),
    settingsSchema: (host = 'browser') => {
      let schema = schemas.get(host);
      if (!schema) {
        const options = registry.offered(host).map((entry) => entry.schema) as unknown as [z.ZodObject, ...z.ZodObject[]];
        schema = (options.length > 0 ? z.discriminatedUnion('kind', options) : z.never()) as unknown as z.ZodType<EngineSettings>;
        schemas.set(host, schema);
      }
      return schema;
    },
    parseSettings: (value, host) => registry.settingsSchema(host).safeParse(value),
    origins: (settings) => registry.get(settings.kind, 'browser')?.browser?.origins(settings) ?? [],
    withoutSecrets: (settings) => {
      const secrets = registry.get(settings.kind)?.browser?.secretKeys ?? [];
      if (!secrets.some((key) => settings[key] !== undefined)) return settings;
      return Object.fromEntries(Object.entries(settings).filter(([key]) => !secrets.includes(key))) as typeof settings;
    },
    cliOptions: () => Object.assign({}, ...registry.offered('cli').map((entry) => entry.cli!.options)) as Record<string, CliFlagSpec>,
    defaultSettings: (host = 'browser') => {
      const kind = registry.offered(host).find((entry) => registry.parseSettings({ kind: entry.kind }, host).success);
      if (!kind) throw new Error(`the engine registry offers the ${host} no kind that works without settings`);
      return { kind: kind.kind };
    },
  };
  return registry;
}

/** The registry of `ENGINE_KINDS`, which every host uses unless given another. */
export const engineRegistry: EngineRegistry = createEngineRegistry(ENGINE_KINDS);
