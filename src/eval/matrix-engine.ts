/**
 * The SLM-MATRIX pipeline (`runMatrix`) behind the `Extractor` interface, for
 * `assay eval bandgap-200|supermat --engine <kind>` (any CLI kind of the engine registry, whose
 * `LlmPort` arrives here ready-made): the verified triplets are the
 * predictions; `isGrounded` is the grounding gate (`ground(...).grounded`).
 */
import type { Article } from '../contracts/article';
import type { Triplet } from '../contracts/triplet';
import type { EmbeddingPort } from '../llm/embeddings';
import type { LlmPort } from '../llm/llm-port';
import { runMatrix } from '../matrix/pipeline';
import { defaultMatrixDependencies } from '../matrix/default-dependencies';
import { loadPropertySchemas, selectPropertySchemas } from '../properties';
import { ground } from '../verify/ground';
import type { EngineSetup } from './extractor';
import type { RunRecord } from '../contracts/run-record';
import type { MatrixPreset, PresetModels } from '../contracts/matrix-preset';

export interface MatrixEngineSetupOptions {
  llm: LlmPort;
  preset: MatrixPreset;
  models: PresetModels;
  /** Seed of the RNG; each article gets a fresh RNG with this seed (results do not depend on paper order). */
  seed: number;
  /** The engine's embeddings for retrieval's MMR (`--embedding-model`); absent → lexical similarity. */
  embeddings?: EmbeddingPort;
  /** Called with each article's run record (calls, tokens, time), e.g. to total a run's cost. */
  onRun?: (run: RunRecord, article: Article) => void;
}

/**
 * `{ extractor, isGrounded }` running SLM-MATRIX per article on `options.properties`.
 * → the `verified` records' triplets. Rejects when the run stops (`MatrixInterrupted`: a lost
 * device, an unreachable server, a cancel), so an evaluation never scores a partial paper as
 * complete. Throws for an unknown property name.
 */
export function matrixEngineSetup(options: MatrixEngineSetupOptions): EngineSetup {
  const schemas = loadPropertySchemas();
  return {
    extractor: async (article, extractorOptions) => {
      const result = await runMatrix(
        article,
        {
          properties: selectPropertySchemas(schemas, extractorOptions.properties),
          preset: options.preset,
          models: options.models,
          seed: options.seed,
        },
        defaultMatrixDependencies({
          llm: options.llm,
          seed: options.seed,
          ...(options.embeddings ? { embeddings: options.embeddings } : {}),
          ...(extractorOptions.signal ? { signal: extractorOptions.signal } : {}),
        }),
      );
      options.onRun?.(result.run, article);
      return result.records.filter((record) => record.status === 'verified').map((record) => record.triplet);
    },
    isGrounded: (triplet: Triplet, article: Article) => ground(triplet, article).grounded,
    status: 'verified',
  };
}
