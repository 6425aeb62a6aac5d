/** The generator–discriminator path of SLM-MATRIX (MCTS generator + mask-and-reconstruct discriminator). */
export * from './prompts';
export * from './reward';
export * from './mcts';
export * from './discriminator';
export * from './gd-path';
export { toTriplet } from './to-triplet';
