/**
 * `assay extract --engine openai --base-url …` shares src/llm with the extension: against mock
 * Ollama servers (test/support/model-server-mocks.ts) the command line says the same fixes — a
 * model not pulled gets "run `ollama pull …`", and a prompt Ollama cut to its 2,048-token window
 * stops the run with `context-truncated`, the count sent taken from the model's real tokenizer.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runExtract } from '../../../src/cli/extract-command';
import { createMatrixEngine, exactPromptCounter } from '../../../src/cli/matrix-engines';
import { LlmError } from '../../../src/llm/llm-port';
import { tokenCounterFor } from '../../../src/llm/tokenizers';
import { llamaCppMock, ollamaMock, serveMock, type ServedMock } from '../../support/model-server-mocks';

const model = 'qwen2.5:7b';
const roles = ['proposer', 'aggregator', 'generator', 'discriminator'].map((role) => `${role}=${model}`);
let served: ServedMock[] = [];
let stderr = '';

beforeEach(() => {
  stderr = '';
  vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((stderr += String(chunk)), true));
});

afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(served.map((server) => server.close()));
  served = [];
});

async function ollama(options: Parameters<typeof ollamaMock>[0]): Promise<ServedMock> {
  const server = await serveMock(ollamaMock(options));
  served.push(server);
  return server;
}

/** About `words` words of a paper's prose, mentioning the band gap. */
function prose(words: number): string {
  const sentence =
    'Thin films of anatase TiO2 were grown by atomic layer deposition at 250 °C, and their optical band gap was measured at 3.2 eV by UV-vis absorption. ';
  return sentence.repeat(Math.ceil(words / 26));
}

describe('assay extract against Ollama: the fix in the message', () => {
  it('a model not pulled → model-not-found with `ollama pull <model>`', async () => {
    const server = await ollama({ models: { 'llama3.1:8b': { trainedContext: 131_072 } } });
    const engine = await createMatrixEngine('openai', { 'base-url': [server.baseUrl], model: roles, preset: 'browser' });
    const error = await engine.llm
      .complete({ role: 'proposer', messages: [{ role: 'user', content: 'Is copper a metal?' }] })
      .catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(LlmError);
    expect(error).toMatchObject({ code: 'model-not-found' });
    expect((error as LlmError).message).toContain(`run \`ollama pull ${model}\``);
  });

  it('a prompt cut to 2,048 tokens → context-truncated with the exact count the Qwen tokenizer gives', async () => {
    const server = await ollama({ models: { [model]: { trainedContext: 32_768 } }, loaded: { [model]: 2048 } });
    const engine = await createMatrixEngine('openai', { 'base-url': [server.baseUrl], model: roles, preset: 'browser' });
    const messages = [{ role: 'user' as const, content: prose(3000) }];
    const exact = (await tokenCounterFor(model)).countChat(messages);
    expect(exact).toBeGreaterThan(2048);
    const error = await engine.llm.complete({ role: 'proposer', messages, maxTokens: 1024 }).catch((reason: unknown) => reason);
    expect(error).toMatchObject({ code: 'context-truncated' });
    expect((error as LlmError).message).toMatch(
      new RegExp(
        `^Ollama cut the prompt to 2,048 tokens; this run needs ${exact.toLocaleString('en-US')} \\(and up to 1,024 for the reply\\): set the model's context to at least [\\d,]+ \\(OLLAMA_CONTEXT_LENGTH=\\d+ ollama serve`,
      ),
    );
  });

  it('the exact counter answers only for a model family with a real tokenizer', async () => {
    const count = exactPromptCounter();
    const messages = [{ role: 'user' as const, content: 'The band gap is 3.2 eV.' }];
    expect(await count(messages, 'qwen2.5:7b')).toBeGreaterThan(5);
    expect(await count(messages, 'some-unknown-model')).toBeUndefined();
  });

  it('a llama.cpp server with 2 slots: said at start, and its 2 slots stand for --concurrency (never more in flight)', async () => {
    const gguf = 'qwen2.5-7b-instruct-q4_k_m.gguf';
    const server = await serveMock(llamaCppMock({ contextSize: 16_384, slots: 2 }), { chatDelayMs: 150 });
    served.push(server);
    const models = roles.map((role) => role.replace(model, gguf));
    const engine = await createMatrixEngine('openai', { 'base-url': [server.baseUrl], model: models, preset: 'browser' });
    expect(stderr).toContain(`assay: llama.cpp server b4589-1ee9eea0 at ${server.baseUrl}. 2 parallel slots of 8,192 tokens each`);
    expect(stderr).toContain('Sending up to 2 calls at once, as its slots allow.');
    expect(engine.concurrency).toBe(2);
    const ask = () => engine.llm.complete({ role: 'proposer', messages: [{ role: 'user', content: 'Is copper a metal?' }] });
    await Promise.all(Array.from({ length: 6 }, ask));
    expect(server.mostChatsInFlight()).toBe(2);

    // --concurrency given: the reader's number, and no claim about the server's slots.
    stderr = '';
    const chosen = await createMatrixEngine('openai', { 'base-url': [server.baseUrl], model: models, preset: 'browser', concurrency: '1' });
    expect(chosen.concurrency).toBe(1);
    expect(stderr).toContain('2 parallel slots');
    expect(stderr).not.toContain('Sending up to');
  });

  it('an Ollama: said at start, with no slots claimed (it does not tell them)', async () => {
    const server = await ollama({ models: { [model]: { trainedContext: 32_768 } }, loaded: { [model]: 8192 }, allowsExtensions: true });
    const engine = await createMatrixEngine('openai', { 'base-url': [server.baseUrl], model: roles, preset: 'browser' });
    expect(stderr).toContain(
      `assay: Ollama 0.6.8 at ${server.baseUrl}. ${model} runs with a context window of 8,192 tokens (from Ollama's /api/ps, the loaded model).`,
    );
    expect(engine.concurrency).toBeUndefined();
  });

  it('`assay extract` stops with the message on stderr and a failing exit code', async () => {
    const server = await ollama({ models: { [model]: { trainedContext: 32_768 } }, loaded: { [model]: 2048 } });
    const folder = mkdtempSync(join(tmpdir(), 'assay-servers-'));
    const paper = join(folder, 'tio2.txt');
    writeFileSync(paper, `Atomic layer deposition of anatase TiO2\n\n${prose(6000)}`);
    const code = await runExtract([
      paper,
      '--engine',
      'openai',
      '--base-url',
      server.baseUrl,
      '--preset',
      'paper',
      ...roles.flatMap((role) => ['--model', role]),
    ]);
    expect(code).not.toBe(0);
    expect(stderr).toMatch(/Ollama cut the prompt to 2,048 tokens; this run needs [\d,]+/);
  }, 60_000);
});
