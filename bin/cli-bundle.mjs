// The prebuilt CLI: `src/cli/main.ts` and the project modules it reaches, bundled by esbuild
// into `dist/cli/` (npm's postinstall, `npm run build:cli`), so that `assay` starts without
// compiling TypeScript (tsx took ~1.5 s before `--help` printed anything).
//
// Packages stay outside the bundle (`packages: 'external'`): they load from node_modules as they
// do under tsx, pdf.js's worker and the tokenizers' data included. Each command is its own chunk
// (main.ts imports it when it runs). A module that finds files beside itself with
// `import.meta.url` (the page script of the Chromium visibility check, the Mistral tokenizer's
// `createRequire`, the project root of `assay eval`) is given its own source file's URL, so it
// reads what it read under tsx.
//
// `manifest.json` lists every project file the bundle was built from with its size, mtime and
// SHA-256; `bundleState` finds the bundle stale as soon as one of them differs (then `assay` runs
// the sources with tsx, as before), checking the hash only when size or mtime changed.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project root (this file is in `bin/`). */
export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Where `npm ci` puts the bundle, relative to the project root. */
export const BUNDLE_DIR = join('dist', 'cli');

/** The bundle's entry module inside its folder, and the manifest beside it. */
export const BUNDLE_MAIN = 'main.js';
export const MANIFEST = 'manifest.json';

/** Bumped when the manifest's shape or the build's options change in a way old bundles lack. */
const MANIFEST_VERSION = 1;

/** Files that decide how the sources compile (with this file, which holds the build's options). */
const CONFIG_FILES = ['tsconfig.json', join('.wxt', 'tsconfig.json'), join('bin', 'cli-bundle.mjs')];

const sha256 = (path) => createHash('sha256').update(readFileSync(path)).digest('hex');
const posix = (path) => path.split(sep).join('/');

/**
 * Is the bundle in `bundleDir` (absolute) built from the files now in `root`? Reads the
 * manifest and stats each listed file (a few milliseconds for the CLI's ~300 modules); hashes a
 * file only when its size or mtime differ from the manifest's. Never throws.
 * @param {string} root absolute project root the manifest's paths are relative to
 * @param {string} bundleDir absolute folder holding `main.js` and `manifest.json`
 * @returns {{ fresh: true, main: string } | { fresh: false, reason: string }} `main`: the
 *   bundle's entry file; `reason`: why it cannot be used, in words (missing, or the first file
 *   that changed since the build)
 */
export function bundleState(root, bundleDir) {
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(join(bundleDir, MANIFEST), 'utf8'));
  } catch {
    return { fresh: false, reason: `no prebuilt CLI in ${posix(relative(root, bundleDir) || bundleDir)}` };
  }
  if (manifest?.version !== MANIFEST_VERSION || typeof manifest.inputs !== 'object' || manifest.inputs === null)
    return { fresh: false, reason: 'the prebuilt CLI was made by another version of the build' };
  for (const [file, recorded] of Object.entries(manifest.inputs)) {
    const path = join(root, file);
    let stat;
    try {
      stat = statSync(path);
    } catch {
      return { fresh: false, reason: `${file} is gone since the CLI was built` };
    }
    if (stat.size === recorded.size && stat.mtimeMs === recorded.mtimeMs) continue;
    if (stat.size !== recorded.size || sha256(path) !== recorded.sha256)
      return { fresh: false, reason: `${file} changed since the CLI was built` };
  }
  const main = join(bundleDir, BUNDLE_MAIN);
  if (!existsSync(main)) return { fresh: false, reason: `${posix(relative(root, main))} is missing` };
  return { fresh: true, main };
}

/**
 * esbuild plugin: in each project module, `import.meta.url` becomes the URL of that module's
 * source file, written relative to the bundle's folder (chunks are all at its top level), so the
 * bundle keeps working when the project folder is moved.
 */
function sourceLocationPlugin(root, outdir) {
  return {
    name: 'assay-source-location',
    setup(build) {
      build.onLoad({ filter: /\.[cm]?[jt]sx?$/ }, (args) => {
        if (args.path.split(sep).includes('node_modules')) return undefined;
        const contents = readFileSync(args.path, 'utf8');
        if (!contents.includes('import.meta.url')) return undefined;
        const fromBundle = posix(relative(outdir, args.path));
        const loader = /\.tsx$/.test(args.path) ? 'tsx' : /\.[cm]?ts$/.test(args.path) ? 'ts' : 'js';
        return {
          contents: contents.replaceAll('import.meta.url', `new URL(${JSON.stringify(fromBundle)}, import.meta.url).href`),
          loader,
          resolveDir: dirname(args.path),
        };
      });
    },
  };
}

/**
 * Bundle `entry` (relative to `root`) into `outdir` and write its manifest. The bundle is built
 * in a sibling folder and then moved in place, so a run starting meanwhile sees the old bundle
 * or the new one, or none (and then runs the sources).
 * @param {{ root?: string, entry?: string, outdir?: string }} options defaults: this project,
 *   `src/cli/main.ts`, `<root>/dist/cli`; `outdir` must be inside `root` (packages resolve from
 *   the bundle's folder up to node_modules)
 * @returns {Promise<{ outdir: string, inputs: number, bytes: number }>} the folder, how many
 *   project files went in, and the size of the JavaScript written
 * @throws esbuild's error (with its messages) when a module does not compile
 */
export async function buildCliBundle({ root = PROJECT_ROOT, entry = join('src', 'cli', 'main.ts'), outdir } = {}) {
  const esbuild = await import('esbuild');
  const target = resolve(outdir ?? join(root, BUNDLE_DIR));
  const staging = `${target}.building-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  try {
    const result = await esbuild.build({
      absWorkingDir: root,
      entryPoints: { main: join(root, entry) },
      outdir: staging,
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      packages: 'external',
      entryNames: '[name]',
      chunkNames: '[name]-[hash]',
      sourcemap: 'linked',
      metafile: true,
      logLevel: 'silent',
      plugins: [sourceLocationPlugin(root, target)],
      banner: { js: '// Built by bin/cli-bundle.mjs from src/cli/main.ts: edit the sources, not this file.' },
    });
    const files = [
      ...Object.keys(result.metafile.inputs)
        .map((input) => input.replace(/^[a-z-]+:/, ''))
        .filter((input) => !input.split('/').includes('node_modules')),
      ...CONFIG_FILES.filter((file) => existsSync(join(root, file))),
    ];
    const inputs = {};
    for (const file of [...new Set(files.map((file) => posix(relative(root, resolve(root, file)))))].sort()) {
      const path = join(root, file);
      const stat = statSync(path);
      inputs[file] = { size: stat.size, mtimeMs: stat.mtimeMs, sha256: sha256(path) };
    }
    writeFileSync(join(staging, MANIFEST), `${JSON.stringify({ version: MANIFEST_VERSION, entry: posix(entry), inputs }, null, 1)}\n`);
    // The project's package.json says "type": "module"; this one says it again for a bundle folder
    // copied elsewhere.
    writeFileSync(join(staging, 'package.json'), '{ "type": "module" }\n');
    mkdirSync(dirname(target), { recursive: true });
    rmSync(target, { recursive: true, force: true });
    renameSync(staging, target);
    const bytes = Object.entries(result.metafile.outputs)
      .filter(([file]) => file.endsWith('.js'))
      .reduce((total, [, output]) => total + output.bytes, 0);
    return { outdir: target, inputs: Object.keys(inputs).length, bytes };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
