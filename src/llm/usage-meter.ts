/**
 * `UsageMeter`: counts what a run costs — calls, prompt and completion tokens, time — per stage
 * (moa, mcts, discriminator, …), per model and, when replies name their server (a server pool,
 * src/llm/server-pool.ts), per server with a log of which server answered each call, by wrapping
 * an `LlmPort`. Each meter owns its counters (no module-level state); `snapshot()` is plain JSON
 * for the run record.
 */
import type { ServerCall, UsageSnapshot, UsageTotals } from '../contracts/llm';
import { LlmError, type LlmPort, type LlmReply, type LlmRequest, type LlmUsage } from './llm-port';

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
  private readonly servers = new Map<string, Accumulator>();
  private readonly calls: ServerCall[] = [];

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

  /**
   * Plain JSON copy of the counters; later calls do not change it. `byServer` and `callLog` are
   * there only when some reply or error named its server.
   */
  snapshot(): UsageSnapshot {
    return {
      total: finish(this.total),
      byStage: finishAll(this.stages),
      byModel: finishAll(this.models),
      ...(this.servers.size > 0 ? { byServer: finishAll(this.servers), callLog: this.calls.map((call) => ({ ...call })) } : {}),
    };
  }

  private async measure(stage: string, request: LlmRequest): Promise<LlmReply> {
    const start = this.now();
    try {
      const reply = await this.llm.complete(request);
      this.add({ stage, model: reply.model, server: reply.server, start, failed: false, usage: reply.usage });
      return reply;
    } catch (error) {
      const details = error instanceof LlmError ? error.details : {};
      const model = request.model ?? `(${request.role} model)`;
      this.add({ stage, model, server: details.server, start, failed: true, usage: details.usage });
      throw error;
    }
  }

  private add(call: { stage: string; model: string; server: string | undefined; start: number; failed: boolean; usage?: LlmUsage }): void {
    const { stage, model, server, start, failed } = call;
    const end = this.now();
    const promptTokens = call.usage?.promptTokens ?? 0;
    const completionTokens = call.usage?.completionTokens ?? 0;
    const targets = [this.total, accumulatorFor(this.stages, stage), accumulatorFor(this.models, model)];
    if (server !== undefined) {
      targets.push(accumulatorFor(this.servers, server));
      this.calls.push({ stage, model, server, ms: end - start, failed });
    }
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

function finishAll(map: Map<string, Accumulator>): Record<string, UsageTotals> {
  return Object.fromEntries([...map].map(([name, accumulator]) => [name, finish(accumulator)]));
}

function finish({ firstStart, lastEnd, ...counts }: Accumulator): UsageTotals {
  return { ...counts, wallTimeMs: counts.calls === 0 ? 0 : lastEnd - firstStart };
}
