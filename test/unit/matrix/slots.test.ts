/** `mapInSlots`: a stage's independent calls at most `slots` at a time, results in item order. */
import { describe, expect, it } from 'vitest';
import { checkedSlots, mapInSlots } from '../../../src/matrix/slots';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A task that records how many run at once and finishes after a delay that varies by item. */
function recordingTask() {
  const state = { running: 0, most: 0, started: [] as number[] };
  const task = async (item: number, index: number) => {
    state.started.push(index);
    state.running += 1;
    state.most = Math.max(state.most, state.running);
    await pause((item * 7) % 5);
    state.running -= 1;
    return item * 10;
  };
  return { state, task };
}

describe('mapInSlots', () => {
  it('keeps the items’ order and never runs more than the slots at once', async () => {
    const items = [4, 1, 3, 0, 2, 5, 6];
    for (const slots of [1, 3, items.length + 2]) {
      const { state, task } = recordingTask();
      expect(await mapInSlots(items, slots, task)).toEqual(items.map((item) => item * 10));
      expect(state.most).toBe(Math.min(slots, items.length));
      // Queued tasks start in item order, whatever order the running ones finish in.
      expect(state.started).toEqual(items.map((_, index) => index));
    }
  });

  it('with one slot starts a task only once the one before has settled', async () => {
    const events: string[] = [];
    await mapInSlots([1, 2, 3], 1, async (item) => {
      events.push(`start ${item}`);
      await pause(1);
      events.push(`end ${item}`);
    });
    expect(events).toEqual(['start 1', 'end 1', 'start 2', 'end 2', 'start 3', 'end 3']);
  });

  it('rejects with the first failure and starts no queued task after it', async () => {
    const started: number[] = [];
    const failure = new Error('device lost');
    const result = mapInSlots([0, 1, 2, 3, 4, 5], 2, async (item) => {
      started.push(item);
      await pause(item === 1 ? 1 : 5);
      if (item === 1) throw failure;
      return item;
    });
    await expect(result).rejects.toBe(failure);
    await pause(30);
    // 0 and 1 ran; the slots that came free (when 1 failed, when 0 ended) started nothing.
    expect(started).toEqual([0, 1]);
  });

  it('refuses slots that are not a whole number ≥ 1', async () => {
    for (const slots of [0, -1, 1.5, Number.NaN]) {
      expect(() => checkedSlots(slots)).toThrow(RangeError);
      await expect(mapInSlots([1], slots, async (item) => item)).rejects.toThrow(RangeError);
    }
    expect(checkedSlots(4)).toBe(4);
  });
});
