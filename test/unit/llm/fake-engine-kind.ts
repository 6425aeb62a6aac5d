/**
 * A made-up engine kind, `fake`, in one file: the proof that adding a kind is one file plus one
 * registry line. It answers every call with a fixed reply; the browser form shows one input
 * ("Endpoint name"), the CLI takes `--fake-reply TEXT`.
 */
import { z } from 'zod';
import { ENGINE_KINDS, createEngineRegistry } from '../../../src/llm/engines/registry';
import { EngineUsageError, type EngineKind } from '../../../src/llm/engines/engine-kind';
import type { LlmPort } from '../../../src/llm/llm-port';

const FakeSettingsSchema = z.object({ kind: z.literal('fake'), endpoint: z.string().min(1) });
type FakeSettings = z.infer<typeof FakeSettingsSchema>;

const fixedReply = (text: string): LlmPort => ({
  complete: async (request) => ({ text, model: request.model ?? 'fake-model', usage: { promptTokens: 1, completionTokens: 1 } }),
});

export const fakeEngineKind: EngineKind<FakeSettings> = {
  kind: 'fake',
  label: 'Fake engine (tests)',
  schema: FakeSettingsSchema,
  browser: {
    create: async (settings) => ({ llm: fixedReply(`from ${settings.endpoint}`), models: { proposers: ['fake-model'] } }),
    origins: (settings) => [`https://${settings.endpoint}.example/*`],
    fields: [
      {
        name: 'endpoint',
        label: 'Endpoint name',
        input: 'text',
        idSuffix: 'endpoint',
        placement: 'run',
        testId: 'fake-endpoint',
        hint: 'Any name.',
        text: (settings) => settings?.endpoint ?? '',
        apply: (settings, text) =>
          text.trim() === '' ? { ok: false, message: 'Name an endpoint.' } : { ok: true, settings: { ...settings, endpoint: text.trim() } },
      },
    ],
  },
  cli: {
    options: { 'fake-reply': { type: 'string' } },
    matrix: async (flags) => {
      if (typeof flags['fake-reply'] !== 'string') throw new EngineUsageError('--engine fake needs --fake-reply TEXT');
      return fixedReply(flags['fake-reply']);
    },
    judge: async (flags) => fixedReply(String(flags['fake-reply'] ?? '')),
  },
};

/** The default kinds plus `fake`: the "one registry line". */
export const registryWithFake = createEngineRegistry([...ENGINE_KINDS, fakeEngineKind]);
