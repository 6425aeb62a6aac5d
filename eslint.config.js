// ESLint: typescript-eslint's recommended rules, plus import rules that hold Assay's layers.
// Layers, bottom to top (README "Layout"); a file may import from the layers below its own and,
// within its own layer, from the folders listed before its folder — never from a layer above or a
// folder listed after it. Every folder of src/ thus has one rank, so no two folders can import each
// other (directly or round a longer ring): a folder cycle fails `npm run lint`
// (test/unit/lint/layering.test.ts plants one between every pair). And no chain of imports may come
// back to where it started (import/no-cycle here for value imports; dependency-cruiser, run by
// `npm run lint` right after ESLint, also follows type-only imports, which import/no-cycle skips —
// see .dependency-cruiser.cjs).
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import importPlugin from 'eslint-plugin-import';
import tseslint from 'typescript-eslint';

/**
 * The layers, bottom to top: each entry lists the folders of one layer (under src/ unless said),
 * in the order they may import each other — a folder imports from those listed before it in its
 * layer. If a new import must go the other way, move the folder in the list, provided nothing
 * imports back (the lint then says which file does).
 */
const LAYERS = [
  ['contracts'],
  ['text', 'properties', 'capture', 'llm'],
  ['verify', 'matrix', 'extract', 'highlight'],
  ['store', 'precedent', 'eval', 'export', 'bench'],
  ['extension'],
  ['ui', 'cli'],
  ['entrypoints'],
];

const folderPath = (folder) => (folder === 'entrypoints' ? './entrypoints' : `./src/${folder}`);
const layerName = (index) => LAYERS[index].join(', ');

/**
 * One `import/no-restricted-paths` zone per folder: it may not import any folder of a layer above
 * its own, nor a folder listed after it in its own layer. The message names the rule so a failing
 * `npm test` says what to change.
 */
const layerZones = LAYERS.flatMap((folders, index) => {
  const above = LAYERS.slice(index + 1).flat();
  return folders.flatMap((folder, position) => {
    const later = folders.slice(position + 1);
    const forbidden = [...later, ...above];
    if (forbidden.length === 0) return [];
    const before = folders.slice(0, position);
    return [
      {
        target: folderPath(folder),
        from: forbidden.map(folderPath),
        message:
          `layering: ${folder}/ is in layer ${index} (${layerName(index)}) and may import only from the layers below it ` +
          `(${LAYERS.slice(0, index).flat().join(', ') || 'none'}) and the folders before it in its own ` +
          `(${before.join(', ') || 'none'}), so that no two folders import each other; move the shared code down, ` +
          'shapes into src/contracts/, or (if nothing imports back) the folder in LAYERS of eslint.config.js (see README "Layout").',
      },
    ];
  });
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
