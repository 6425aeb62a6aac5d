/**
 * The rules extractor (`src/extract/rules`) and the grounding gate (`src/verify/ground.ts`)
 * behind the `Extractor` interface, for `assay eval --engine rules`.
 */
import type { Article } from '../contracts/article';
import type { Triplet } from '../contracts/triplet';
import { extractWithRules } from '../extract/rules';
import { loadPropertySchemas, selectPropertySchemas } from '../properties';
import { ground } from '../verify/ground';
import type { EngineSetup } from './extractor';

/** `extractWithRules` restricted to the requested properties; throws on an unknown property name. */
export function rulesEngine(): EngineSetup {
  const schemas = loadPropertySchemas();
  return {
    extractor: async (article: Article, options) =>
      extractWithRules(article, { properties: selectPropertySchemas(schemas, options.properties) }),
    isGrounded: (triplet: Triplet, article: Article) => ground(triplet, article).grounded,
  };
}
