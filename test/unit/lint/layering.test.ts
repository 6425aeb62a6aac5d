/**
 * The layer rules of eslint.config.js, tried on files that break them: an upward import fails
 * with a message naming the layering rule, a downward one passes, and a cycle planted between any
 * two folders of src/ is refused at one of its two ends. (dependency-cruiser's cycle rule runs on
 * the whole tree in `npm run lint`.)
 */
import { ESLint } from 'eslint';
import { readdirSync } from 'node:fs';
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

  it('accepts imports from the layers below and from a folder listed before its own in its layer', async () => {
    const messages = await layeringMessages(
      'src/export/probe.ts',
      "import { PAPER_PRESET } from '../matrix/presets';\nimport { TripletSchema } from '../contracts/triplet';\nimport { withOwnKeys } from '../store/dataset-triplet';\nexport const all = [PAPER_PRESET, TripletSchema, withOwnKeys];\n",
    );
    expect(messages).toEqual([]);
  });

  it('refuses a folder importing one listed after it in its own layer (store → export), naming the order', async () => {
    const messages = await layeringMessages('src/store/probe.ts', "export { toCsv } from '../export/dataset-export';\n");
    expect(messages.join('\n')).toMatch(/layering: store\/ is in layer 3 .* and the folders before it in its own \(none\)/);
  });
});

describe('folder cycles', () => {
  /** The folders of src/ as they are on disk, each with one of its modules to import. */
  const folders = readdirSync(`${root}src`, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => {
      const module = readdirSync(`${root}src/${entry.name}`)
        .filter((name) => /\.tsx?$/.test(name) && !name.endsWith('.d.ts'))
        .sort()[0];
      return { folder: entry.name, module: module?.replace(/\.tsx?$/, '') };
    })
    .filter((entry): entry is { folder: string; module: string } => entry.module !== undefined);

  it('refuses one end of a cycle planted between any two folders of src/, and the arrows it lets through form no ring', async () => {
    expect(folders.length).toBeGreaterThan(10);
    // allowed.get(a) holds each folder that a probe in src/a may import.
    const allowed = new Map<string, Set<string>>(folders.map(({ folder }) => [folder, new Set()]));
    for (const from of folders) {
      for (const to of folders) {
        if (from.folder === to.folder) continue;
        const messages = await layeringMessages(`src/${from.folder}/probe.ts`, `import '../${to.folder}/${to.module}';\n`);
        if (messages.length === 0) allowed.get(from.folder)!.add(to.folder);
      }
    }
    const bothWays = folders.flatMap(({ folder }) =>
      [...allowed.get(folder)!].filter((other) => folder < other && allowed.get(other)!.has(folder)).map((other) => `${folder} ↔ ${other}`),
    );
    expect(bothWays).toEqual([]);
    // No longer ring either: peel off folders that import none of those left (Kahn); a ring never peels.
    const left = new Set(allowed.keys());
    for (let peeled = true; peeled;) {
      peeled = false;
      for (const folder of left) {
        if ([...allowed.get(folder)!].every((other) => !left.has(other))) {
          left.delete(folder);
          peeled = true;
        }
      }
    }
    expect([...left]).toEqual([]);
  }, 120_000);
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
