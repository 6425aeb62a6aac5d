/**
 * The MCTS generator of SLM-MATRIX (Methods, "MCTS"): a search tree whose root is the input x and
 * whose nodes are reasoning steps S_i reached by actions A1–A5; a root-to-leaf path is a
 * trajectory t = x ⊕ S_1 ⊕ … ⊕ S_d (Eq. 5). Each rollout: UCT selection (Eq. 6) → expansion of
 * one untried action → simulation (random actions) to a terminal triplet set → terminal reward
 * R_L (`reward.ts`) → backpropagation (Eqs. 7–9). Each rollout yields one trajectory; the top N by
 * reward go to the discriminator.
 *
 * Trade-off: rollout (simulation) steps are not added to the tree, as in classic UCT — only the
 * expanded node is. rStar keeps every generated step as a node; that reuses more model output
 * but grows the tree by up to `depth` nodes per rollout. Classic UCT keeps the tree small and
 * the statistics of Eqs. 7–9 attached to nodes that selection actually revisits.
 */
import type { MctsOptions } from '../../contracts/matrix-preset';
import { throwIfAborted } from '../../llm/abort';
import { generateObject, isUnusableReply, replyFailure, sumUsage, type ReplyFailure } from '../../llm/generate-object';
import type { LlmPort, LlmUsage } from '../../llm/llm-port';
import { randomIndex, type Random } from '../random';
import {
  buildStepMessages,
  REASONING_ACTIONS,
  ReasoningStepSchema,
  type ExtractedTriplet,
  type GeneratorInput,
  type ReasoningAction,
  type ReasoningStep,
} from './prompts';
import { DEFAULT_REWARD_WEIGHTS, terminalReward, type RewardBreakdown, type RewardDependencies } from './reward';

/** What the generator–discriminator path needs from outside (injected; no module state). */
export interface GdDependencies extends RewardDependencies {
  llm: LlmPort;
  rng: Random;
  signal?: AbortSignal;
}

/** The paper's settings (SLM-MATRIX, "Experimental setup", item c; and item a). */
export const PAPER_MCTS_OPTIONS: Readonly<MctsOptions> = { rollouts: 16, depth: 5, paths: 3, c: 1.5, temperature: 0.7, maxTokens: 2048 };

/** A node of the search tree: the state after `action` produced `step` (null at the root). */
export interface MctsNode {
  readonly parent: MctsNode | null;
  readonly action: ReasoningAction | null;
  /** The step; null at the root and when the model's reply was malformed. */
  readonly step: ReasoningStep | null;
  readonly depth: number;
  readonly children: MctsNode[];
  untriedActions: ReasoningAction[];
  /** N(s, a): visits (Eq. 7). */
  visits: number;
  /** W(s, a): accumulated reward (Eq. 8). */
  totalReward: number;
  /** A final step, the depth limit, or a malformed reply: no further expansion. */
  readonly terminal: boolean;
  /** The raw reply when the step could not be parsed (after generateObject's one repair). */
  readonly malformedReply?: string;
}

export interface TrajectoryStep {
  action: ReasoningAction;
  step: ReasoningStep;
}

/** One trajectory: its steps S_1…S_d, its final triplet set (S_d's triplets) and R_L. */
export interface Trajectory {
  steps: TrajectoryStep[];
  triplets: ExtractedTriplet[];
  reward: number;
  rewardBreakdown: RewardBreakdown;
}

export interface MctsResult {
  /** Top-N trajectories by reward, best first; distinct step sequences; malformed ones excluded. */
  trajectories: Trajectory[];
  root: MctsNode;
  /** Generator steps requested (a step whose reply needed repair still counts once). */
  generatorSteps: number;
  /** Tokens of every generator call, repair calls included. */
  usage: LlmUsage;
  /** Generator steps whose reply stayed unusable after the one retry, in call order (each ended its branch). */
  failures: ReplyFailure[];
}

/** A fresh root (the input x): all five actions untried, no visits. */
export function createRoot(): MctsNode {
  return {
    parent: null,
    action: null,
    step: null,
    depth: 0,
    children: [],
    untriedActions: [...REASONING_ACTIONS],
    visits: 0,
    totalReward: 0,
    terminal: false,
  };
}

/** Q(s, a) = W(s, a) / N(s, a) for N > 0 (Eq. 9); 0 for an unvisited node. */
export function meanReward(node: Pick<MctsNode, 'visits' | 'totalReward'>): number {
  return node.visits > 0 ? node.totalReward / node.visits : 0;
}

/**
 * UCT (Eq. 6): W/N + c·√(ln N_parent / N), where Eq. 6's "Q(s,a)/N(s,a)" divides the
 * accumulated reward by the visits — the mean of Eq. 9, not divided twice. An unvisited node
 * scores +Infinity so every child is tried once before any is revisited.
 */
export function uct(node: Pick<MctsNode, 'visits' | 'totalReward'>, parentVisits: number, c: number): number {
  if (node.visits === 0) return Number.POSITIVE_INFINITY;
  return meanReward(node) + c * Math.sqrt(Math.log(parentVisits) / node.visits);
}

/**
 * Selection: from `root`, while the node is fully expanded and not terminal, descend to the
 * child of highest UCT (Eq. 6; exact ties broken by `rng`). → the node to expand or simulate from.
 */
export function select(root: MctsNode, c: number, rng: Random): MctsNode {
  let node = root;
  while (!node.terminal && node.untriedActions.length === 0 && node.children.length > 0) {
    const scores = node.children.map((child) => uct(child, node.visits, c));
    const best = Math.max(...scores);
    const tied = node.children.filter((_, index) => scores[index] === best);
    node = tied.length === 1 ? tied[0]! : tied[randomIndex(rng, tied.length)]!;
  }
  return node;
}

/** Backpropagation: N ← N + 1 (Eq. 7) and W ← W + R_L (Eq. 8) for `leaf` and every ancestor. */
export function backpropagate(leaf: MctsNode, reward: number): void {
  for (let node: MctsNode | null = leaf; node !== null; node = node.parent) {
    node.visits += 1;
    node.totalReward += reward;
  }
}

/** The steps from the root down to `node` (Eq. 5's S_1…S_i). */
export function pathSteps(node: MctsNode): TrajectoryStep[] {
  const steps: TrajectoryStep[] = [];
  for (let current: MctsNode | null = node; current !== null; current = current.parent) {
    if (current.action !== null && current.step !== null) steps.unshift({ action: current.action, step: current.step });
  }
  return steps;
}

type StepOutcome =
  { ok: true; step: ReasoningStep; usage: LlmUsage } | { ok: false; rawText: string; usage: LlmUsage; failure: ReplyFailure };

/**
 * One generator call for `action` after `history`. A reply still unusable after generateObject's
 * one retry (`isUnusableReply`) comes back as `{ ok: false }` with its code and message (the
 * caller ends the branch with reward 0); every other LlmError (aborted, unreachable, device-lost…)
 * propagates.
 */
async function generateStep(
  input: GeneratorInput,
  history: readonly TrajectoryStep[],
  action: ReasoningAction,
  lastStep: boolean,
  options: MctsOptions,
  dependencies: GdDependencies,
): Promise<StepOutcome> {
  throwIfAborted(dependencies.signal);
  try {
    const generated = await generateObject(
      dependencies.llm,
      {
        role: 'generator',
        messages: buildStepMessages(input, history, action, lastStep),
        temperature: options.temperature ?? PAPER_MCTS_OPTIONS.temperature,
        maxTokens: options.maxTokens ?? PAPER_MCTS_OPTIONS.maxTokens,
        ...(dependencies.signal ? { signal: dependencies.signal } : {}),
      },
      ReasoningStepSchema,
    );
    return { ok: true, step: generated.value, usage: generated.usage };
  } catch (error) {
    if (!isUnusableReply(error)) throw error;
    return {
      ok: false,
      rawText: error.details.rawText ?? '',
      usage: error.details.usage ?? { promptTokens: 0, completionTokens: 0 },
      failure: replyFailure(error),
    };
  }
}

/** Counters shared by one search (calls, tokens, unusable replies), passed explicitly — no module state. */
export interface SearchTally {
  generatorSteps: number;
  usage: LlmUsage;
  /** Absent in a tally made before failures were counted: then they are not kept. */
  failures?: ReplyFailure[];
}

/**
 * Expansion: take one untried action of `node` (drawn with `rng`), ask the generator for the
 * step, and attach the child. The child is terminal when the step is final, the depth limit
 * is reached, or the reply was malformed. → the new child.
 */
export async function expand(
  node: MctsNode,
  input: GeneratorInput,
  options: MctsOptions,
  dependencies: GdDependencies,
  tally: SearchTally,
): Promise<MctsNode> {
  const [action] = node.untriedActions.splice(randomIndex(dependencies.rng, node.untriedActions.length), 1);
  if (action === undefined) throw new Error('expand: the node has no untried action');
  const depth = node.depth + 1;
  const outcome = await generateStep(input, pathSteps(node), action, depth >= options.depth, options, dependencies);
  tally.generatorSteps += 1;
  tally.usage = sumUsage(tally.usage, outcome.usage);
  if (!outcome.ok) tally.failures?.push(outcome.failure);
  const base = { parent: node, action, depth, children: [], visits: 0, totalReward: 0 };
  const child: MctsNode = outcome.ok
    ? { ...base, step: outcome.step, untriedActions: [...REASONING_ACTIONS], terminal: outcome.step.final || depth >= options.depth }
    : { ...base, step: null, untriedActions: [], terminal: true, malformedReply: outcome.rawText };
  node.children.push(child);
  return child;
}

export interface Rollout {
  /** Steps from the root through `node` and on through the simulated steps. */
  steps: TrajectoryStep[];
  /** True when a step's reply was malformed: the rollout ends there and earns 0. */
  malformed: boolean;
}

/**
 * Simulation: from `node`, draw actions uniformly with `rng` and ask the generator for steps
 * until one is final or the depth limit is reached (the step at the limit is told to be the
 * last). Simulated steps are not added to the tree. → the whole trajectory's steps.
 */
export async function simulate(
  node: MctsNode,
  input: GeneratorInput,
  options: MctsOptions,
  dependencies: GdDependencies,
  tally: SearchTally,
): Promise<Rollout> {
  const steps = pathSteps(node);
  if (node.malformedReply !== undefined) return { steps, malformed: true };
  if (node.terminal) return { steps, malformed: false };
  for (let depth = node.depth + 1; depth <= options.depth; depth += 1) {
    const action = REASONING_ACTIONS[randomIndex(dependencies.rng, REASONING_ACTIONS.length)]!;
    const outcome = await generateStep(input, steps, action, depth >= options.depth, options, dependencies);
    tally.generatorSteps += 1;
    tally.usage = sumUsage(tally.usage, outcome.usage);
    if (!outcome.ok) {
      tally.failures?.push(outcome.failure);
      return { steps, malformed: true };
    }
    steps.push({ action, step: outcome.step });
    if (outcome.step.final) break;
  }
  return { steps, malformed: false };
}

/**
 * Run the search: `options.rollouts` rounds of select → expand → simulate → reward →
 * backpropagate, then the top `options.paths` distinct trajectories by R_L (ties keep the
 * earlier rollout). Rejects with `LlmError('aborted')` as soon as `signal` fires (checked before
 * every model call); other LlmErrors propagate. Malformed steps end their branch with R_L = 0.
 */
export async function runMcts(input: GeneratorInput, options: MctsOptions, dependencies: GdDependencies): Promise<MctsResult> {
  const root = createRoot();
  const tally: SearchTally = { generatorSteps: 0, usage: { promptTokens: 0, completionTokens: 0 }, failures: [] };
  const collected: Trajectory[] = [];
  const seen = new Set<string>();
  for (let round = 0; round < options.rollouts; round += 1) {
    throwIfAborted(dependencies.signal);
    let leaf = select(root, options.c, dependencies.rng);
    if (!leaf.terminal && leaf.untriedActions.length > 0) leaf = await expand(leaf, input, options, dependencies, tally);
    const rollout = await simulate(leaf, input, options, dependencies, tally);
    const triplets = rollout.malformed ? [] : (rollout.steps.at(-1)?.step.triplets ?? []);
    const breakdown = terminalReward(
      rollout.steps.map((entry) => entry.step),
      triplets,
      input,
      dependencies,
      options.rewardWeights ?? DEFAULT_REWARD_WEIGHTS,
    );
    backpropagate(leaf, breakdown.reward);
    const key = JSON.stringify(rollout.steps);
    if (!rollout.malformed && rollout.steps.length > 0 && !seen.has(key)) {
      seen.add(key);
      collected.push({ steps: rollout.steps, triplets, reward: breakdown.reward, rewardBreakdown: breakdown });
    }
  }
  const trajectories = collected
    .map((trajectory, index) => ({ trajectory, index }))
    .sort((a, b) => b.trajectory.reward - a.trajectory.reward || a.index - b.index)
    .slice(0, options.paths)
    .map(({ trajectory }) => trajectory);
  return { trajectories, root, generatorSteps: tally.generatorSteps, usage: tally.usage, failures: tally.failures ?? [] };
}
