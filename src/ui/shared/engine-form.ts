/**
 * The engine part of the side panel's forms as plain strings (what the inputs hold) and its
 * translation to and from `EngineSettings`, read from the engine registry (each kind's field
 * descriptors: src/llm/engines/). A draft holds the chosen kind, the text of every input of one
 * placement (`run`: the "Extract" form; `settings`: "Settings and models"), and each kind's
 * settings as last read, for what the inputs do not edit. Pure.
 */
import { engineSettingsSetting } from '../../extension/stored-settings';
import { z } from 'zod';
import type { EngineSettings } from '../../contracts/matrix-run';
import type { EngineFieldPlacement } from '../../llm/engines/engine-kind';
import { engineRegistry, type EngineRegistry } from '../../llm/engines/registry';

/** Each kind's settings as last read, by kind id. */
export type KeptEngineSettings = { readonly [kind: string]: EngineSettings | undefined };

/**
 * What the engine inputs hold: `kind`, the chosen kind's id; `kept`, settings per kind (e.g.
 * WebLLM's roster and GPU budget while the server is edited); and the text of each input by its
 * field name (e.g. `baseUrl`, `models`).
 */
export interface EngineDraft {
  kind: string;
  kept: KeptEngineSettings;
  [field: string]: string | KeptEngineSettings;
}

/** Per-input problems in words, by field name; an input without a problem has no key. */
export type EngineDraftErrors = Record<string, string>;

/** The first kind the browser offers (the panel's default: WebLLM with its default roster) with no settings besides its id. */
export function defaultEngine(registry: EngineRegistry = engineRegistry): EngineSettings {
  return registry.defaultSettings('browser');
}

/** The engine used when nothing (valid) is stored: WebLLM with its default roster. */
export const DEFAULT_ENGINE: EngineSettings = defaultEngine();

/** The text of input `name` in `draft` ('' when it has none). */
export function fieldText(draft: EngineDraft, name: string): string {
  const text = draft[name];
  return typeof text === 'string' ? text : '';
}

/**
 * The inputs' strings for `engine`: the text of every `placement` field of every browser kind,
 * from `engine` for its own kind's fields and the field's default otherwise (e.g. the OpenAI
 * base URL at Ollama's address while WebLLM is chosen).
 */
export function draftFromEngine(
  engine: EngineSettings,
  placement: EngineFieldPlacement = 'run',
  registry: EngineRegistry = engineRegistry,
): EngineDraft {
  const draft: EngineDraft = { kind: engine.kind, kept: { [engine.kind]: engine } };
  const kinds = registry.offered('browser');
  // The engine's own kind first, so a field name two kinds share shows the engine's text.
  for (const kind of [...kinds.filter((entry) => entry.kind === engine.kind), ...kinds.filter((entry) => entry.kind !== engine.kind)]) {
    for (const field of kind.browser!.fields) {
      if (field.placement !== placement || field.name in draft) continue;
      draft[field.name] = field.text(kind.kind === engine.kind ? engine : undefined);
    }
  }
  return draft;
}

/**
 * The settings the inputs describe, or the problem per input: the chosen kind's kept settings
 * with its `placement` fields applied (e.g. WebLLM needs nothing; the OpenAI-compatible server an
 * http(s) base URL and at least one model, a blank API key left out), then checked against the
 * registry's browser schema as the run's host will (a failure is reported on the kind's first
 * field, or on `kind`). An unknown kind → `{ ok: false, errors: { kind } }`.
 */
export function engineFromDraft(
  draft: EngineDraft,
  placement: EngineFieldPlacement = 'run',
  registry: EngineRegistry = engineRegistry,
): { ok: true; engine: EngineSettings } | { ok: false; errors: EngineDraftErrors } {
  const kind = registry.get(draft.kind, 'browser');
  if (!kind) return { ok: false, errors: { kind: `Unknown engine “${draft.kind}”.` } };
  const fields = kind.browser!.fields.filter((field) => field.placement === placement);
  let settings: EngineSettings = draft.kept[draft.kind] ?? { kind: draft.kind };
  const errors: EngineDraftErrors = {};
  for (const field of fields) {
    const applied = field.apply(settings, fieldText(draft, field.name));
    if (applied.ok) settings = applied.settings as EngineSettings;
    else errors[field.name] = applied.message;
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const parsed = registry.parseSettings(settings, 'browser');
  return parsed.success
    ? { ok: true, engine: parsed.data }
    : { ok: false, errors: { [fields[0]?.name ?? 'kind']: z.prettifyError(parsed.error) } };
}

/**
 * A stored value (untrusted: another version may have written it) as settings; anything invalid
 * → the default engine. The stored setting's own reader (src/extension/stored-settings.ts).
 */
export function readEngineSettings(stored: unknown): EngineSettings {
  return engineSettingsSetting.read(stored);
}
