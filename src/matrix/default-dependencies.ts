/**
 * The injected dependencies of `runMatrix` as every host of the pipeline wires them (the CLI's
 * `assay extract`, the preset bench, the extension's run host, the evaluation engine): Assay's
 * grounding gate, material comparison and SI conversion, and a seeded RNG. What differs between
 * hosts (the model port, usage meter, signal, progress, per-property hook, clock) is passed in.
 * Pure: builds an object and calls nothing.
 */
import type { LlmPort } from '../llm/llm-port';
import type { UsageMeter } from '../llm/usage-meter';
import { sameMaterial } from '../text/materials';
import { toSI } from '../text/units';
import { ground } from '../verify/ground';
import type { VerificationRecord } from './cross-verify-refine';
import type { MatrixDependencies, MatrixProgress } from './pipeline';
import { createSeededRandom, type Random } from './random';
import type { PropertyRun } from './run-record';

/** What differs between hosts; optional fields left undefined take `runMatrix`'s defaults. */
export interface MatrixDependencyOptions {
  /** The model port the calls go to. */
  llm: LlmPort;
  /** Seed of a fresh `createSeededRandom` RNG (unused when `rng` is given). */
  seed: number;
  /** An RNG to use instead, e.g. one shared across the `runMatrix` calls of one resumed run. */
  rng?: Random;
  /** A meter over `llm` shared across calls (see `MatrixDependencies.usage`). */
  usage?: UsageMeter;
  signal?: AbortSignal;
  onProgress?: (event: MatrixProgress) => void;
  onPropertyDone?: (property: PropertyRun, records: readonly VerificationRecord[]) => void | Promise<void>;
  /** Monotonic clock in ms (default in `runMatrix`: `performance.now`); `() => 0` for reproducible timings. */
  now?: () => number;
  /** Relative value tolerance after SI conversion (default in cross-verification: `VALUE_TOLERANCE`). */
  tolerance?: number;
  /** Tokens of a text for the retrieval budgets (default in `runMatrix`: chars/4); the CLI passes a tokenizer's `countText`. */
  countTokens?: (text: string) => number;
}

/**
 * → `MatrixDependencies`: `ground` (src/verify/ground.ts, against the run's article),
 * `sameMaterial` (src/text/materials), `toSI` (src/text/units), `rng` = `options.rng` or
 * `createSeededRandom(options.seed)`, and the other fields of `options` as given. Never throws.
 */
export function defaultMatrixDependencies(options: MatrixDependencyOptions): MatrixDependencies {
  const { seed, rng, ...rest } = options;
  return {
    ...rest,
    rng: rng ?? createSeededRandom(seed),
    sameMaterial: (a, b) => sameMaterial(a, b),
    toSI,
    ground: (triplet, target) => ground(triplet, target),
  };
}
