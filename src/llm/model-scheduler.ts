/**
 * The GPU-memory scheduler: an `LlmPort` in front of WebLLM that decides which models are
 * loaded when (DESIGN.md "Engines"). WebLLM generates one reply at a time and its `complete`
 * would itself replace every loaded model with the one a request names, so three concurrent
 * proposer calls to three models that do not fit together would reload on every call. The
 * scheduler queues the calls, serves those whose model is loaded, and otherwise loads the
 * group of the `LoadPlan` (src/llm/roster.ts) that the most waiting calls need.
 */
import { LlmError, toLlmError, type LlmPort, type LlmReply, type LlmRequest } from './llm-port';
import type { LoadPlan } from './roster';

/** What the scheduler needs of an engine's lifecycle (`WebLlm.load` / `loadedModels`). */
export interface ModelLoader {
  /** Load these models together, replacing the loaded ones. Rejects (ideally with `LlmError`) on failure. */
  load(modelIds: readonly string[]): Promise<void>;
  /** The models loaded now; empty after a failed load or a lost device. */
  loadedModels(): readonly string[];
}

export interface ModelSchedulerOptions {
  /**
   * Awaited before a model switch, to let callers whose call just returned ask their next one;
   * default one macrotask (`setTimeout` 0), which runs after every pending microtask: a caller
   * awaiting replies in a loop (the MCTS generator) queues its next call before the scheduler
   * decides to load another model.
   */
  settle?: () => Promise<void>;
}

export interface ModelScheduler extends LlmPort {
  /** Group loads done so far (successful `loader.load` calls). */
  loads(): number;
  /** The model ids of each successful load, in order. */
  loadLog(): string[][];
}

interface PendingCall {
  request: LlmRequest;
  model: string;
  resolve: (reply: LlmReply) => void;
  reject: (error: LlmError) => void;
  /** Stop listening to the request's AbortSignal. */
  detach: () => void;
}

const nextMacrotask = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * Wrap `inner` (the engine's `LlmPort`) so that calls run one at a time and models load as
 * `plan` says, through `loader`. Order of service: the oldest waiting call whose model is
 * loaded. When none is: await `settle()`, look again, then load the plan group that covers the
 * most waiting calls (ties: the group holding the oldest waiting call). In a `together` plan the
 * one group holds every model, so a run loads once (again only after a lost device or a failed load).
 * Errors (all `LlmError`): a request with no `model`, or a model outside the plan →
 * 'unavailable'; an AbortSignal fired before the call starts → 'aborted' (a waiting call leaves
 * the queue); a failed load rejects every waiting call for the models of that group with the
 * loader's error (non-`LlmError`s become 'unavailable'), and a later call may try the load again;
 * the inner engine's errors pass through (after 'device-lost' the loader reports nothing loaded,
 * so the next call reloads).
 */
export function createModelScheduler(
  inner: LlmPort,
  loader: ModelLoader,
  plan: LoadPlan,
  options: ModelSchedulerOptions = {},
): ModelScheduler {
  const settle = options.settle ?? nextMacrotask;
  const planned = new Set(plan.groups.flat());
  const queue: PendingCall[] = [];
  const log: string[][] = [];
  let draining = false;

  const remove = (call: PendingCall): boolean => {
    const index = queue.indexOf(call);
    if (index < 0) return false;
    queue.splice(index, 1);
    call.detach();
    return true;
  };

  const oldestServable = (): PendingCall | undefined => {
    const loaded = loader.loadedModels();
    return queue.find((call) => loaded.includes(call.model));
  };

  /** The group covering the most waiting calls; ties go to the group whose oldest waiting call is oldest. */
  const chooseGroup = (): string[] | undefined => {
    let best: { group: string[]; count: number; oldest: number } | undefined;
    for (const group of plan.groups) {
      const count = queue.filter((call) => group.includes(call.model)).length;
      if (count === 0) continue;
      const oldest = queue.findIndex((call) => group.includes(call.model));
      if (!best || count > best.count || (count === best.count && oldest < best.oldest)) best = { group, count, oldest };
    }
    return best?.group;
  };

  async function serve(call: PendingCall): Promise<void> {
    remove(call);
    try {
      call.resolve(await inner.complete(call.request));
    } catch (error) {
      call.reject(toLlmError(error, `the model call to ${call.model} failed`));
    }
  }

  async function loadGroup(group: string[]): Promise<void> {
    const waiting = () => queue.filter((call) => group.includes(call.model));
    try {
      await loader.load(group);
    } catch (error) {
      const failure = toLlmError(error, `loading ${group.join(', ')} failed`);
      for (const call of waiting()) if (remove(call)) call.reject(failure);
      return;
    }
    log.push([...group]);
    // A loader that reports success without the models would make the queue spin: fail those calls.
    const loaded = loader.loadedModels();
    for (const call of waiting()) {
      if (!loaded.includes(call.model) && remove(call))
        call.reject(new LlmError('unavailable', `The engine reported ${call.model} loaded but does not list it among its loaded models.`));
    }
  }

  async function drain(): Promise<void> {
    try {
      while (queue.length > 0) {
        const ready = oldestServable();
        if (ready) {
          await serve(ready);
          continue;
        }
        await settle().catch(() => undefined);
        if (queue.length === 0 || oldestServable()) continue;
        const group = chooseGroup();
        if (group) await loadGroup(group);
      }
    } catch (error) {
      // Only a throwing `loadedModels()` gets here; fail the waiting calls rather than hang them.
      const failure = toLlmError(error, 'the model scheduler failed');
      for (const call of [...queue]) if (remove(call)) call.reject(failure);
    }
    // Same microtask as the empty-queue check: a call queued after this starts a new drain.
    draining = false;
  }

  function complete(request: LlmRequest): Promise<LlmReply> {
    const model = request.model;
    if (!model)
      return Promise.reject(
        new LlmError('unavailable', `The ${request.role} call names no model; the scheduler needs one to know what to load.`),
      );
    if (request.signal?.aborted) return Promise.reject(new LlmError('aborted', 'The run was cancelled before the model call.'));
    if (!planned.has(model))
      return Promise.reject(
        new LlmError('unavailable', `The model ${model} is not in this run's load plan (${[...planned].join(', ') || 'empty'}).`),
      );
    return new Promise<LlmReply>((resolve, reject) => {
      const signal = request.signal;
      const onAbort = (): void => {
        if (remove(call)) reject(new LlmError('aborted', 'The run was cancelled while the model call waited for its model.'));
      };
      const call: PendingCall = { request, model, resolve, reject, detach: () => signal?.removeEventListener('abort', onAbort) };
      signal?.addEventListener('abort', onAbort, { once: true });
      queue.push(call);
      if (!draining) {
        draining = true;
        void drain();
      }
    });
  }

  return { complete, loads: () => log.length, loadLog: () => log.map((group) => [...group]) };
}
