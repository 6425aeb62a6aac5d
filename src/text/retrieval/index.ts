/** Retrieval: chunks of an article, ranked for a property (BM25+ and MMR), packed into model calls. */
export { chunkArticle, shownSpan, MAX_CHUNK_CHARS, type Chunk, type ChunkDefinition, type ChunkTable } from './chunk-article';
export { rankChunks, lexicalSimilarity, CANDIDATE_BOOST, UNIT_BOOST, type RankOptions, type RankedChunk } from './rank-chunks';
export { maximalMarginalRelevance, MMR_K, MMR_LAMBDA, type MmrSelection } from './mmr';
export {
  packChunks,
  renderChunk,
  renderChunks,
  continuesFrom,
  CHUNK_SEPARATOR,
  type ChunkGroup,
  type PackOptions,
  type ShownBefore,
} from './pack-chunks';
export { propertyQueryTerms, terms } from './terms';
export { embeddingSimilarity, vectorCosine } from './embedding-similarity';
