// Types of bin/cli-bundle.mjs (plain JavaScript, so that `assay` loads it without tsx).

/** The project root (the folder above bin/). */
export declare const PROJECT_ROOT: string;
/** Where `npm ci` puts the bundle, relative to the project root (`dist/cli`). */
export declare const BUNDLE_DIR: string;
/** The bundle's entry module inside its folder. */
export declare const BUNDLE_MAIN: string;
/** The manifest of the files the bundle was built from, inside its folder. */
export declare const MANIFEST: string;

/** Whether the bundle can run: `main` is its entry file; `reason` says in words why not. */
export type BundleState = { fresh: true; main: string } | { fresh: false; reason: string };

/** Is the bundle in `bundleDir` built from the files now in `root`? Never throws. */
export declare function bundleState(root: string, bundleDir: string): BundleState;

/** Bundle `entry` (default src/cli/main.ts) of `root` into `outdir` (default root/dist/cli) with its manifest. */
export declare function buildCliBundle(options?: {
  root?: string;
  entry?: string;
  outdir?: string;
}): Promise<{ outdir: string; inputs: number; bytes: number }>;
