/**
 * The injected dependencies of `runMatrix` as every host of the pipeline wires them (the CLI's
 * `assay extract`, the preset bench, the extension's run host, the evaluation engine): Assay's
 * grounding gate with the attribution check, material comparison and SI conversion, and a
 * seeded RNG. What differs between hosts (the model port, usage meter, signal, progress,
 * per-property hook, clock) is passed in.
 * Pure: builds an object and calls nothing (the built-in schemas are loaded once, on first use).
 */
import type { LlmPort } from '../llm/llm-port';
import type { UsageMeter } from '../llm/usage-meter';
import { sameMaterial } from '../text/materials';
import { toSI } from '../text/units';
import type { PropertyDefinition } from '../contracts/property';
import { loadPropertySchemas } from '../properties';
import { defaultAttributionDependencies } from '../verify/attribution';
import { defaultGroundingDependencies } from '../verify/grounding-dependencies';
import { gateFact } from '../verify/grounding-gate';
import type { MatrixDependencies } from './pipeline';
import { createSeededRandom, type Random } from './random';
import type { MatrixProgress, PropertyRun } from '../contracts/run-record';
import type { VerificationRecord } from '../contracts/verification';

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
  /**
   * The run's property schemas (reader-defined ones included), for the attribution check to look
   * a triplet's property up in; they replace built-in schemas of the same name. Default: the
   * built-in schemas only, so a reader-defined property would never count as named.
   */
  schemas?: readonly PropertyDefinition[];
  /** Tokens of a text for the retrieval budgets (default in `runMatrix`: chars/4); the CLI passes a tokenizer's `countText`. */
  countTokens?: (text: string) => number;
  /** The engine's embeddings for MMR's chunk similarity (`MatrixDependencies.embeddings`); absent → lexical. */
  embeddings?: MatrixDependencies['embeddings'];
}

/**
 * → `MatrixDependencies`: `ground` (`gateFact` of src/verify/grounding-gate.ts: the value and
 * unit in the quote, whether it names the material and property, then the fact check — value
 * role, conditions, provenance —, properties looked up in the built-in schemas and
 * `options.schemas`),
 * `sameMaterial` (src/text/materials), `toSI` (src/text/units), `rng` = `options.rng` or
 * `createSeededRandom(options.seed)`, and the other fields of `options` as given. Never throws.
 */
export function defaultMatrixDependencies(options: MatrixDependencyOptions): MatrixDependencies {
  const { seed, rng, schemas: runSchemas = [], ...rest } = options;
  const builtIn = loadPropertySchemas().filter((schema) => !runSchemas.some((own) => own.name === schema.name));
  const schemas = [...builtIn, ...runSchemas];
  const gate = { grounding: defaultGroundingDependencies, attribution: defaultAttributionDependencies(schemas), schemas };
  return {
    ...rest,
    rng: rng ?? createSeededRandom(seed),
    sameMaterial: (a, b) => sameMaterial(a, b),
    toSI,
    ground: (triplet, target) => gateFact(triplet, target, gate),
  };
}
