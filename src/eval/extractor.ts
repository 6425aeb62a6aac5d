/**
 * The interface `assay eval` drives: anything that turns a captured `Article` into triplets —
 * the rules engine, an LLM engine, or a test double. Injected, so the evaluation code does not
 * depend on any particular engine.
 */
import type { Article } from '../contracts/article';
import type { Triplet } from '../contracts/triplet';

export interface ExtractorOptions {
  /** Property schema names to extract, e.g. `['band_gap']`. */
  properties: string[];
  signal?: AbortSignal;
}

/** `(article, options) → triplets` for that article; rejects on engine failure. */
export type Extractor = (article: Article, options: ExtractorOptions) => Promise<Triplet[]>;

/** An engine as `assay eval` runs it: the extractor, and the grounding check for the grounding rate. */
export interface EngineSetup {
  extractor: Extractor;
  /** Whether a produced triplet's evidence re-anchors and shows the value (`ground(...).grounded`). */
  isGrounded?: (triplet: Triplet, article: Article) => boolean;
  /** The status every returned triplet has, for the re-scorable output (`verified`; default `extracted`). */
  status?: string;
}
