// ESLint: typescript-eslint's recommended rules, plus import rules that hold Assay's layers.
// Layers, bottom to top (README "Layout"); a file may import from its own layer and the layers
// below it, never from a layer above; and no chain of imports may come back to where it started
// (import/no-cycle here for value imports; dependency-cruiser, run by `npm run lint` right after
// ESLint, also follows type-only imports, which import/no-cycle skips — see .dependency-cruiser.cjs).
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import importPlugin from 'eslint-plugin-import';
import tseslint from 'typescript-eslint';

/** The layers, bottom to top: each entry lists the folders of one layer (under src/ unless said). */
const LAYERS = [
  ['contracts'],
  ['properties', 'text', 'capture', 'llm'],
  ['verify', 'matrix', 'extract', 'highlight'],
  ['precedent', 'store', 'eval', 'export', 'bench'],
  ['extension'],
  ['ui', 'cli'],
  ['entrypoints'],
];

const folderPath = (folder) => (folder === 'entrypoints' ? './entrypoints' : `./src/${folder}`);
const layerName = (index) => LAYERS[index].join(', ');

/**
 * One `import/no-restricted-paths` zone per layer: its folders may not import any folder of a
 * layer above it. The message names the rule so a failing `npm test` says what to change.
 */
const layerZones = LAYERS.flatMap((folders, index) => {
  const above = LAYERS.slice(index + 1).flat();
  if (above.length === 0) return [];
  return folders.map((folder) => ({
    target: folderPath(folder),
    from: above.map(folderPath),
    message:
      `layering: ${folder}/ is in layer ${index} (${layerName(index)}) and may import only from its own layer ` +
      `and those below it (${LAYERS.slice(0, index).flat().join(', ') || 'none'}); move the shared code down, ` +
      'or shapes into src/contracts/ (see README "Layout").',
  }));
});

export default tseslint.config(
  {
    ignores: ['.output/**', 'dist/**', '.wxt/**', 'node_modules/**', 'coverage/**', 'test-results/**', 'public/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    plugins: { import: importPlugin },
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: {
        console: 'readonly',
        process: 'readonly',
        window: 'readonly',
        document: 'readonly',
      },
    },
    settings: {
      // Imports between the project's files are relative and extensionless: Node's resolution with
      // the TypeScript extensions finds them, and typescript-eslint's parser reads them.
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js', '.mjs'] } },
      'import/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import/extensions': ['.ts', '.tsx', '.js', '.mjs'],
    },
    rules: {
      'import/no-restricted-paths': ['error', { zones: layerZones }],
      'import/no-cycle': ['error', { ignoreExternal: true }],
      'import/no-self-import': 'error',
      // TypeScript checks names and types (tsc --noEmit runs in `npm test`); these duplicate it.
      'no-undef': 'off',
      'no-redeclare': 'off',
      // Regexes here spell out escapes and invisible characters on purpose (sentinels, zero-width joiners).
      'no-useless-escape': 'off',
      'no-control-regex': 'off',
      'no-misleading-character-class': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly' } },
  },
  prettier,
);
