/**
 * Named settings of the SLM-MATRIX pipeline (`runMatrix`): `paper`, the configuration of the
 * SLM-MATRIX paper ("Experimental setup"; DESIGN.md "Roles and defaults"), and `browser`, small
 * settings for WebGPU-sized models with an early exit. Plain data, no module state.
 */
import type { MatrixPreset, RetrievalBudget } from '../contracts/matrix-preset';

/**
 * Retrieval of the paper preset: 3,000 chunk tokens per call (the 12,000 characters of its
 * passage cap by chars/4, inside an 8k context with the 2,048-token reply), at most 8 reading
 * calls (24,000 tokens of chunks, more than the relevant chunks of any dev paper take), MMR
 * k = 9 and λ = 0.5 (Eunomia, seeds/001).
 */
export const PAPER_RETRIEVAL: RetrievalBudget = { chunkTokensPerCall: 3_000, maxReadingCalls: 8, mmrK: 9, mmrLambda: 0.5 };

/**
 * Retrieval of the browser preset: 1,200 chunk tokens per call (≈ 1,400 prompt tokens with the
 * instructions, inside a 4k WebLLM context with the 1,024-token reply), at most 7 reading calls
 * so the worst case is 7 + 22 (MoA, MCTS, discriminator, one refinement round) + 1
 * (Chain-of-Verification) = 30 calls per property (issue 11's ceiling), MMR k = 9 and λ = 0.5
 * (Eunomia, seeds/001). On the dev data 7 reads as much as 8 did: the cap drops chunks that print
 * no number first (`readingPriority`).
 */
export const BROWSER_RETRIEVAL: RetrievalBudget = { chunkTokensPerCall: 1_200, maxReadingCalls: 7, mmrK: 9, mmrLambda: 0.5 };

/** `preset.retrieval`, or for a preset stored before it had one, the named preset's own. */
export function retrievalOf(preset: MatrixPreset): RetrievalBudget {
  return preset.retrieval ?? (preset.name === 'paper' ? PAPER_RETRIEVAL : BROWSER_RETRIEVAL);
}

/**
 * The paper's settings (SLM-MATRIX "Experimental setup"): 3 MoA layers × 3 proposers; MCTS with
 * 16 rollouts, search depth 5, 3 reasoning paths, c = 1.5 (Eq. 6); α = 0.7, β = 0.3 (Eq. 13);
 * up to K = 3 refinement rounds; temperature 0.7 and max_tokens 2048 for all models. Models:
 * Qwen2.5-7B, Mistral-7B, Gemma-2-9B proposers; Llama-3.2-11B aggregator and discriminator;
 * Llama-3.1-8B generator (ids as published on Hugging Face, what vLLM serves them as; an
 * Ollama user passes `--model proposer=qwen2.5:7b` etc. instead). Passage cap 12 000 characters
 * (≈ 3 000 tokens by the chars/4 rule, leaving room in an 8k context for prompt, references and
 * the 2048-token reply). Chain-of-Verification asks each verified triplet's questions in a call
 * of its own (Eunomia: verification answers stay independent of each other).
 */
export const PAPER_PRESET: MatrixPreset = {
  name: 'paper',
  layers: 3,
  proposers: 3,
  mcts: { rollouts: 16, depth: 5, paths: 3, c: 1.5, temperature: 0.7, maxTokens: 2048 },
  scoreWeights: { alpha: 0.7, beta: 0.3 },
  K: 3,
  temperature: 0.7,
  maxTokens: 2048,
  earlyExit: false,
  maxPassageChars: 12_000,
  verificationQuestions: 'per-triplet',
  retrieval: PAPER_RETRIEVAL,
  models: {
    proposers: ['Qwen/Qwen2.5-7B-Instruct', 'mistralai/Mistral-7B-Instruct-v0.3', 'google/gemma-2-9b-it'],
    aggregator: 'meta-llama/Llama-3.2-11B-Vision-Instruct',
    discriminator: 'meta-llama/Llama-3.2-11B-Vision-Instruct',
    generator: 'meta-llama/Llama-3.1-8B-Instruct',
  },
};

/**
 * Small settings for 1–3B models on WebGPU (ours, not the paper's): 1 layer × 3 proposers;
 * 4 rollouts, depth 3, 2 paths, c = 1.5; K = 1; temperature 0.7, max_tokens 1024; early exit on.
 * Passage cap 4 000 characters (≈ 1 000 tokens) because small WebLLM models are compiled with a
 * 4k context window. No default models: the WebLLM roster (or `--model`) picks them.
 * Trade-off: fewer rollouts and one refinement round find less and send more to review; the early
 * exit spends no MCTS calls on the easy case where all proposers already agree and ground.
 * Chain-of-Verification asks all verified triplets of a property in one call (more only past
 * 4,000 evidence characters or 8 triplets).
 */
export const BROWSER_PRESET: MatrixPreset = {
  name: 'browser',
  layers: 1,
  proposers: 3,
  mcts: { rollouts: 4, depth: 3, paths: 2, c: 1.5, temperature: 0.7, maxTokens: 1024 },
  scoreWeights: { alpha: 0.7, beta: 0.3 },
  K: 1,
  temperature: 0.7,
  maxTokens: 1024,
  earlyExit: true,
  maxPassageChars: 4_000,
  verificationQuestions: 'per-property',
  retrieval: BROWSER_RETRIEVAL,
  models: {},
};

export const MATRIX_PRESETS: Readonly<Record<MatrixPreset['name'], MatrixPreset>> = { paper: PAPER_PRESET, browser: BROWSER_PRESET };

/** The preset called `name`, or undefined. */
export function presetByName(name: string): MatrixPreset | undefined {
  return Object.hasOwn(MATRIX_PRESETS, name) ? MATRIX_PRESETS[name as MatrixPreset['name']] : undefined;
}
