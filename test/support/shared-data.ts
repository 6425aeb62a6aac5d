/**
 * Where the shared ground truth and fixtures live: `ASSAY_DATA`, else `../shared` beside the
 * project root. Tests that need it call `sharedDataSkipReason()` and skip with that one-line
 * reason when the folder is absent, so a clone without ../shared still runs its unit tests.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join, resolve } from 'node:path';

export const projectRoot = resolve(fileURLToPath(new URL('../..', import.meta.url)));
export const sharedRoot = resolve(process.env.ASSAY_DATA ?? join(projectRoot, '..', 'shared'));

/** Absolute path of a file under the shared data root. */
export function sharedPath(...parts: string[]): string {
  return join(sharedRoot, ...parts);
}

/** `undefined` when ../shared (with fixtures/) is present, else a one-line reason to skip. */
export function sharedDataSkipReason(): string | undefined {
  return existsSync(join(sharedRoot, 'fixtures', 'SOURCES.md'))
    ? undefined
    : `shared data not found at ${sharedRoot} (set ASSAY_DATA): skipping tests on real fixtures`;
}
