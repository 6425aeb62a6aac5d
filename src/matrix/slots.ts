/**
 * Independent model calls of one stage at once, up to the server's parallel slots (issue 29,
 * item 5): the proposers of a MoA layer, the reading stage's groups, the discriminator's
 * reconstructions, the Chain-of-Verification batches. Results keep the items' order, so what a
 * stage makes of them (triplets, problems, usage) is the same whatever the timing; with one slot
 * the tasks run one after another exactly as a plain loop would.
 */
import pLimit from 'p-limit';
import { throwIfAborted } from '../llm/abort';

/**
 * Validate a number of parallel slots (a server's `--parallel`, `OLLAMA_NUM_PARALLEL`, a reader's
 * setting): a whole number ≥ 1. → the number; throws `RangeError` naming it otherwise.
 */
export function checkedSlots(slots: number): number {
  if (!Number.isInteger(slots) || slots < 1) throw new RangeError(`parallel slots must be a whole number ≥ 1, not ${slots}`);
  return slots;
}

/**
 * `task` over `items`, at most `slots` running at once (p-limit), → the results in item order.
 * `slots` ≤ 1 (or one item): one after another, each starting when the last has settled (a plain
 * loop); `slots` ≥ `items.length`: all at once. Rejects with the first rejection, as
 * `Promise.all`; no queued task starts after it (it rejects with the same error without
 * running), nor once `signal` has fired (`LlmError('aborted')`), while the ones already running
 * are left to the caller's AbortSignal. A task that rejects later is handled here (no unhandled
 * rejection). The one-slot loop checks nothing itself: each task's call meets the signal at the
 * engine, as before. Throws `RangeError` for slots that are not a whole number ≥ 1.
 */
export async function mapInSlots<T, R>(
  items: readonly T[],
  slots: number,
  task: (item: T, index: number) => Promise<R>,
  signal?: AbortSignal,
): Promise<R[]> {
  checkedSlots(slots);
  if (slots === 1 || items.length <= 1) {
    const results: R[] = [];
    for (const [index, item] of items.entries()) results.push(await task(item, index));
    return results;
  }
  if (slots >= items.length) return Promise.all(items.map((item, index) => task(item, index)));
  const limit = pLimit(slots);
  let failure: { error: unknown } | null = null;
  return Promise.all(
    items.map((item, index) =>
      limit(async () => {
        if (failure) throw failure.error;
        throwIfAborted(signal);
        try {
          return await task(item, index);
        } catch (error) {
          failure ??= { error };
          throw error;
        }
      }),
    ),
  );
}
