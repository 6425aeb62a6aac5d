/**
 * `UsageMeter`: counts what a run costs — calls, prompt and completion tokens, time — per stage
 * (moa, mcts, discriminator, …) and per model, by wrapping an `LlmPort`. Each meter owns its
 * counters (no module-level state); `snapshot()` is plain JSON for the run record.
 */
import type { UsageSnapshot, UsageTotals } from '../contracts/llm';
import { LlmError, type LlmPort, type LlmReply, type LlmRequest } from './llm-port';

export type { UsageSnapshot, UsageTotals };

interface Accumulator extends Omit<UsageTotals, 'wallTimeMs'> {
  firstStart: number;
  lastEnd: number;
}

/** Stage name for calls made through the meter itself rather than a `stage(...)` view. */
export const UNSTAGED = 'unstaged';

export class UsageMeter implements LlmPort {
  private readonly total = emptyAccumulator();
  private readonly stages = new Map<string, Accumulator>();
  private readonly models = new Map<string, Accumulator>();

  /** `now` is injectable (ms, monotonic) so tests get exact times; default `performance.now`. */
  constructor(
    private readonly llm: LlmPort,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** An `LlmPort` whose calls are counted under `stage` (and under their model). */
  stage(stage: string): LlmPort {
    return { complete: (request) => this.measure(stage, request) };
  }

  complete(request: LlmRequest): Promise<LlmReply> {
    return this.measure(UNSTAGED, request);
  }

  /** Plain JSON copy of the counters; later calls do not change it. */
  snapshot(): UsageSnapshot {
    return {
      total: finish(this.total),
      byStage: Object.fromEntries([...this.stages].map(([name, accumulator]) => [name, finish(accumulator)])),
      byModel: Object.fromEntries([...this.models].map(([name, accumulator]) => [name, finish(accumulator)])),
    };
  }

  private async measure(stage: string, request: LlmRequest): Promise<LlmReply> {
    const start = this.now();
    try {
      const reply = await this.llm.complete(request);
      this.add(stage, reply.model, start, false, reply.usage.promptTokens, reply.usage.completionTokens);
      return reply;
    } catch (error) {
      const usage = error instanceof LlmError ? error.details.usage : undefined;
      this.add(stage, request.model ?? `(${request.role} model)`, start, true, usage?.promptTokens ?? 0, usage?.completionTokens ?? 0);
      throw error;
    }
  }

  private add(stage: string, model: string, start: number, failed: boolean, promptTokens: number, completionTokens: number): void {
    const end = this.now();
    const targets = [this.total, accumulatorFor(this.stages, stage), accumulatorFor(this.models, model)];
    for (const target of targets) {
      target.calls += 1;
      if (failed) target.failedCalls += 1;
      target.promptTokens += promptTokens;
      target.completionTokens += completionTokens;
      target.callTimeMs += end - start;
      target.firstStart = Math.min(target.firstStart, start);
      target.lastEnd = Math.max(target.lastEnd, end);
    }
  }
}

function emptyAccumulator(): Accumulator {
  return { calls: 0, failedCalls: 0, promptTokens: 0, completionTokens: 0, callTimeMs: 0, firstStart: Infinity, lastEnd: -Infinity };
}

function accumulatorFor(map: Map<string, Accumulator>, key: string): Accumulator {
  let accumulator = map.get(key);
  if (!accumulator) {
    accumulator = emptyAccumulator();
    map.set(key, accumulator);
  }
  return accumulator;
}

function finish({ firstStart, lastEnd, ...counts }: Accumulator): UsageTotals {
  return { ...counts, wallTimeMs: counts.calls === 0 ? 0 : lastEnd - firstStart };
}
