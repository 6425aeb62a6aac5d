import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMatrixEngine } from '../../../src/cli/matrix-engines';
import { runExtract } from '../../../src/cli/extract-command';
import { runPrecedent } from '../../../src/cli/precedent-command';
import { createRunEngineFactory, type RunEngineSources } from '../../../src/extension/run-engines';
import { engineRegistry } from '../../../src/llm/engines/registry';
import { registryWithFake } from './fake-engine-kind';
import { EngineUsageError } from '../../../src/llm/engines/engine-kind';

let stderr = '';
let folder = '';
beforeEach(() => {
  stderr = '';
  folder = mkdtempSync(join(tmpdir(), 'assay-fake-engine-'));
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((stderr += String(chunk)), true));
  vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(folder, { recursive: true, force: true });
});

describe('an engine kind registered in one file', () => {
  it('is offered by the browser and the CLI of its registry, and by no other', () => {
    expect(registryWithFake.names('browser')).toEqual(['webllm', 'openai', 'fake']);
    expect(registryWithFake.names('cli')).toEqual(['scripted', 'openai', 'fake']);
    expect(engineRegistry.names('cli')).toEqual(['scripted', 'openai']);
    expect(registryWithFake.parseSettings({ kind: 'fake', endpoint: 'e1', extra: 1 }).data).toEqual({ kind: 'fake', endpoint: 'e1' });
    expect(registryWithFake.parseSettings({ kind: 'fake', endpoint: '' }).success).toBe(false);
    expect(engineRegistry.parseSettings({ kind: 'fake', endpoint: 'e1' }).success).toBe(false);
    expect(registryWithFake.origins({ kind: 'fake', endpoint: 'e1' })).toEqual(['https://e1.example/*']);
  });

  it('is listed in the usage errors of assay extract and assay precedent', async () => {
    expect(await runExtract([join(folder, 'paper.txt'), '--engine', 'nope'], registryWithFake)).toBe(2);
    expect(stderr).toBe("assay extract: unknown engine 'nope'; use --engine rules, scripted, openai or fake\n");
    stderr = '';
    expect(await runPrecedent(['GaN', '--engine', 'nope'], registryWithFake)).toBe(2);
    expect(stderr).toBe("assay precedent: unknown engine 'nope'; use --engine scripted, openai or fake\n");
  });

  it('is accepted with its own flag by assay extract (the missing file is the next problem)', async () => {
    expect(await runExtract([join(folder, 'paper.txt'), '--engine', 'fake'], registryWithFake)).toBe(2);
    expect(stderr).toBe('assay extract: --engine fake needs --fake-reply TEXT\n');
    stderr = '';
    expect(await runExtract([join(folder, 'paper.txt'), '--engine', 'fake', '--fake-reply', 'hi'], registryWithFake)).toBe(1);
    expect(stderr).toMatch(/^assay extract: .*paper\.txt: .*\n$/);
    // The default registry knows neither the kind nor its flag.
    stderr = '';
    expect(await runExtract([join(folder, 'paper.txt'), '--engine', 'fake', '--fake-reply', 'hi'])).toBe(2);
  });

  it('builds its port for the SLM-MATRIX pipeline and for an extension run', async () => {
    const engine = await createMatrixEngine('fake', { 'fake-reply': 'hi' } as never, registryWithFake);
    expect(engine.name).toBe('fake');
    expect((await engine.llm.complete({ role: 'proposer', messages: [] })).text).toBe('hi');
    await expect(createMatrixEngine('fake', {}, engineRegistry)).rejects.toBeInstanceOf(EngineUsageError);

    const createEngine = createRunEngineFactory({} as RunEngineSources, registryWithFake);
    const run = await createEngine({ kind: 'fake', endpoint: 'e1' }, () => undefined);
    expect((await run.llm.complete({ role: 'proposer', messages: [] })).text).toBe('from e1');
  });
});
