/**
 * The layer rules of eslint.config.js, tried on files that break them: an upward import fails
 * with a message naming the layering rule, a downward one passes. (dependency-cruiser's cycle
 * rule runs on the whole tree in `npm run lint`.)
 */
import { ESLint } from 'eslint';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
let eslint: ESLint;

beforeAll(() => {
  // import/no-cycle reads the probe's imports back from disk, where a probe given as text is not.
  eslint = new ESLint({ cwd: root, overrideConfig: { rules: { 'import/no-cycle': 'off' } } });
});

async function layeringMessages(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${root}${filePath}` });
  return (result?.messages ?? []).filter((message) => message.ruleId === 'import/no-restricted-paths').map((message) => message.message);
}

describe('layer rules', () => {
  it('refuses a contracts module that imports the matrix layer, naming the rule and the layers', async () => {
    const messages = await layeringMessages(
      'src/contracts/probe.ts',
      "import { PAPER_PRESET } from '../matrix/presets';\nexport const preset = PAPER_PRESET;\n",
    );
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(
      /^Unexpected path "\.\.\/matrix\/presets" imported in restricted zone\. layering: contracts\/ is in layer 0/,
    );
  });

  it('refuses the extension layer importing a ui module', async () => {
    const messages = await layeringMessages('src/extension/probe.ts', "export { DoiLink } from '../ui/shared/doi-link';\n");
    expect(messages.join('\n')).toMatch(/layering: extension\/ is in layer 4/);
  });

  it('refuses a type-only upward import too', async () => {
    const messages = await layeringMessages(
      'src/llm/probe.ts',
      "import type { MatrixResult } from '../matrix/run-record';\nexport type R = MatrixResult;\n",
    );
    expect(messages.join('\n')).toMatch(/layering: llm\/ is in layer 1/);
  });

  it('accepts imports from the same layer and the layers below', async () => {
    const messages = await layeringMessages(
      'src/store/probe.ts',
      "import { PAPER_PRESET } from '../matrix/presets';\nimport { TripletSchema } from '../contracts/triplet';\nimport { toCsv } from '../export/dataset-export';\nexport const all = [PAPER_PRESET, TripletSchema, toCsv];\n",
    );
    expect(messages).toEqual([]);
  });
});

describe('cycle rule', () => {
  it("refuses two files that import each other's types (dependency-cruiser's no-circular, as npm run lint runs it)", async () => {
    const { cruise } = await import('dependency-cruiser');
    const { createRequire } = await import('node:module');
    const { mkdtemp, writeFile, rm } = await import('node:fs/promises');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const { forbidden } = createRequire(import.meta.url)(`${root}.dependency-cruiser.cjs`) as { forbidden: unknown[] };
    const folder = await mkdtemp(join(tmpdir(), 'assay-cycle-'));
    try {
      await writeFile(
        join(folder, 'ground.ts'),
        "import type { Options } from './options';\nexport type Ground = (options: Options) => boolean;\n",
      );
      await writeFile(join(folder, 'options.ts'), "import type { Ground } from './ground';\nexport interface Options { ground: Ground }\n");
      await writeFile(join(folder, 'leaf.ts'), 'export const leaf = 1;\n');
      const result = await cruise([folder], { ruleSet: { forbidden }, tsPreCompilationDeps: true, validate: true } as never);
      const output = result.output as { summary: { violations: { rule: { name: string }; from: string }[] } };
      const violations = output.summary.violations;
      // One violation per cycle, reported at the file the cycle is found from.
      expect(violations.map((violation) => violation.rule.name)).toEqual(['no-circular']);
      expect(['ground.ts', 'options.ts']).toContain(violations[0]!.from.replace(/^.*\//, ''));
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
