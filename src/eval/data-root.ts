/**
 * Where the shared datasets live, for `assay eval`: `--data DIR`, else the `ASSAY_DATA`
 * environment variable, else `../shared` beside the project root (docs/EVAL.md).
 */
import { fileURLToPath } from 'node:url';
import { join, resolve } from 'node:path';

/** Project root: two levels above this file (`src/eval/`). */
export const projectRoot = resolve(fileURLToPath(new URL('../..', import.meta.url)));

/**
 * Absolute data root. `option` is the `--data` value (wins when given), `environment` defaults
 * to `process.env`. Relative paths resolve against the current directory.
 */
export function resolveDataRoot(option?: string, environment: NodeJS.ProcessEnv = process.env): string {
  if (option) return resolve(option);
  if (environment.ASSAY_DATA) return resolve(environment.ASSAY_DATA);
  return join(projectRoot, '..', 'shared');
}
