/**
 * `assay bench --presets`: what the SLM-MATRIX presets cost per paper — LLM calls, prompt and
 * completion tokens, model loads — from the control flow alone, with the scripted engine
 * (issue 4: "worst case, from the control flow with the scripted engine"). Two scripts:
 *
 * - worst case: the proposers of a layer disagree (no early exit), the generator's steps are never
 *   final (every rollout runs to the depth limit), and the MoA and G–D paths never agree (all K
 *   refinement rounds run);
 * - best case: every role states the same grounded triplet (the paper's first band-gap scan
 *   candidate), so the paths agree at once and the browser preset exits early.
 *
 * Not modelled: repair calls. A malformed reply costs one more call (`generateObject`'s repair),
 * so a model that is malformed every time can double any figure here.
 * Tokens are the scripted engine's estimate, ceil(characters / 4) (`approximateTokenCount`):
 * the prompts are the real prompts over the real passages, the completions are the scripts'
 * short replies — real models write more. Model loads: distinct model ids called per paper,
 * assuming each model loads once per paper (the scheduler groups calls model by model when the
 * roles do not fit in memory together; when they do, one `reload([...])` covers all of them).
 */
import type { Article } from '../contracts/article';
import type { LlmRequest, ModelRole } from '../llm/llm-port';
import { createScriptedLlm, type LlmScript } from '../llm/scripted-llm';
import { runMatrix } from '../matrix/pipeline';
import type { MatrixPreset, PresetModels } from '../matrix/presets';
import { createSeededRandom } from '../matrix/random';
import type { PropertyDefinition } from '../properties';
import { sameMaterial } from '../text/materials';
import { scanArticle } from '../text/scan';
import { toSI } from '../text/units';
import { ground } from '../verify/ground';
import type { BenchFigure } from './bench-command';

export type BenchScenario = 'worst' | 'best';

/** A triplet as the scripts state it. */
export interface ScriptFact {
  material: string;
  property: string;
  value: number;
  unit: string;
  quote: string;
}

/**
 * Models of the browser preset for the bench: it names none (the WebLLM roster picks), so each
 * role gets its own placeholder — the most loads a roster with no shared model would cause.
 */
export const BROWSER_BENCH_MODELS: PresetModels = {
  proposers: ['browser-proposer-1', 'browser-proposer-2', 'browser-proposer-3'],
  aggregator: 'browser-aggregator',
  generator: 'browser-generator',
  discriminator: 'browser-discriminator',
};

function moaReply(fact: ScriptFact, value: number): string {
  return JSON.stringify({ triplets: [{ material: fact.material, property: fact.property, value: String(value), unit: fact.unit, quote: fact.quote }] });
}

function numericReply(fact: ScriptFact, value: number, role: ModelRole, final: boolean): string {
  const triplets = [{ ...fact, value }];
  return JSON.stringify(role === 'generator' ? { text: `The passage gives ${fact.material} a value of ${value} ${fact.unit}.`, materials: [fact.material], triplets, final } : { triplets });
}

/**
 * The worst-case script. Per role, the k-th call (k counts that role's calls, from 0):
 * proposer → `fact` with value 1 + (k mod 3) (the three proposers of a layer disagree pairwise);
 * aggregator → value 1; generator → value 9, `final: false` (never final, so every rollout runs
 * to the depth limit); discriminator → value 9. The MoA answer (1) never matches the G–D answer
 * (9), so every refinement round runs. Values differ by far more than any tolerance.
 */
export function worstCaseScript(fact: ScriptFact): LlmScript {
  const counters = new Map<ModelRole, number>();
  return {
    respond: (request: LlmRequest) => {
      const k = counters.get(request.role) ?? 0;
      counters.set(request.role, k + 1);
      if (request.role === 'proposer') return moaReply(fact, 1 + (k % 3));
      if (request.role === 'aggregator') return moaReply(fact, 1);
      return numericReply(fact, 9, request.role, false);
    },
  };
}

/** The best-case script: every role states `fact` (generator steps final at once). */
export function bestCaseScript(fact: ScriptFact): LlmScript {
  return {
    respond: (request: LlmRequest) => (request.role === 'proposer' || request.role === 'aggregator' ? moaReply(fact, fact.value) : numericReply(fact, fact.value, request.role, true)),
  };
}

/**
 * The paper's first scan candidate of `property` with a plain number as a fact: the candidate's
 * material (or "the sample"), value and unit, and its sentence or table row as the quote — a
 * triplet the grounding gate can pass. Null when the scan finds no such candidate.
 */
export function candidateFact(article: Article, property: PropertyDefinition): ScriptFact | null {
  const candidates = scanArticle(article, { properties: [property] }).candidates.filter((candidate) => candidate.property === property.name);
  for (const candidate of candidates) {
    if (candidate.quantity.value.kind !== 'number') continue;
    return {
      material: candidate.material?.text ?? 'the sample',
      property: property.name,
      value: candidate.quantity.value.value,
      unit: candidate.quantity.unitText || candidate.quantity.unit,
      quote: article.text.slice(candidate.segment.start, candidate.segment.end).trim(),
    };
  }
  return null;
}

/** What one paper cost under one preset and script. */
export interface PresetPaperCost {
  /** The scan found no candidate: the pipeline made no call. */
  skipped: boolean;
  calls: number;
  promptTokens: number;
  completionTokens: number;
  /** Distinct model ids called (each loads once per paper, by assumption). */
  modelLoads: number;
  earlyExit: boolean;
  refinementRounds: number;
}

/**
 * Run `preset` on `article` for `property` with the `scenario` script (seed 1). → the paper's
 * calls, estimated tokens, model loads (distinct models in the run's usage), early exit and
 * refinement rounds. The browser preset runs with `BROWSER_BENCH_MODELS`.
 */
export async function benchPresetOnArticle(article: Article, preset: MatrixPreset, property: PropertyDefinition, scenario: BenchScenario): Promise<PresetPaperCost> {
  // A paper with no numeric candidate still runs: the pipeline decides whether to call (it does
  // not when the scan finds nothing); the placeholder fact only shapes the replies.
  const fact = candidateFact(article, property) ?? { material: 'the sample', property: property.name, value: 1, unit: property.units[0] ?? '', quote: article.title ?? 'none' };
  const llm = createScriptedLlm(scenario === 'worst' ? worstCaseScript(fact) : bestCaseScript(fact));
  const models = preset.name === 'browser' ? BROWSER_BENCH_MODELS : preset.models;
  const { run } = await runMatrix(article, { properties: [property], preset, models, seed: 1 }, {
    llm,
    rng: createSeededRandom(1),
    sameMaterial: (a, b) => sameMaterial(a, b),
    toSI,
    ground: (triplet, target) => ground(triplet, target),
    now: () => 0,
  });
  const propertyRun = run.properties[0];
  return {
    skipped: propertyRun?.skipped ?? true,
    calls: run.calls,
    promptTokens: run.promptTokens,
    completionTokens: run.completionTokens,
    modelLoads: Object.values(run.usage.byModel).filter((totals) => totals.calls > 0).length,
    earlyExit: propertyRun?.earlyExit ?? false,
    refinementRounds: propertyRun?.refinementRounds ?? 0,
  };
}

function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * Figures for one preset and scenario over `costs` (one per paper): max / median / total of calls,
 * prompt and completion tokens, and model loads over the papers that made calls; early exits;
 * and the number of papers with no candidate (no call).
 */
export function presetFigures(presetName: string, scenario: BenchScenario, costs: readonly PresetPaperCost[]): BenchFigure[] {
  const label = `${presetName} preset, ${scenario} case`;
  const called = costs.filter((cost) => !cost.skipped);
  const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
  const figures: BenchFigure[] = [{ name: `${label}: papers with no band-gap candidate (no call)`, value: costs.length - called.length, unit: `papers of ${costs.length}` }];
  const per = (name: string, unit: string, pick: (cost: PresetPaperCost) => number) => {
    const values = called.map(pick);
    figures.push({ name: `${label}: ${name} per paper (max)`, value: values.length ? Math.max(...values) : 0, unit });
    figures.push({ name: `${label}: ${name} per paper (median)`, value: values.length ? median(values) : 0, unit });
    figures.push({ name: `${label}: ${name}, all papers`, value: sum(values), unit });
  };
  per('LLM calls', 'calls', (cost) => cost.calls);
  per('prompt tokens', 'tokens (estimated, chars/4)', (cost) => cost.promptTokens);
  per('completion tokens', 'tokens (estimated, chars/4, scripted replies)', (cost) => cost.completionTokens);
  figures.push({ name: `${label}: model loads per paper (max)`, value: called.length ? Math.max(...called.map((cost) => cost.modelLoads)) : 0, unit: 'loads (each model once per paper)' });
  figures.push({ name: `${label}: papers that exited early (MCTS skipped)`, value: called.filter((cost) => cost.earlyExit).length, unit: `papers of ${called.length}` });
  figures.push({ name: `${label}: refinement rounds per paper (max)`, value: called.length ? Math.max(...called.map((cost) => cost.refinementRounds)) : 0, unit: 'rounds' });
  return figures;
}
