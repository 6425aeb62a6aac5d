import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { maximumMatching } from '../../../src/eval/bipartite-matching';

/** Brute force: the largest set of disjoint edges, by trying every assignment (small graphs only). */
function bruteForceMaximum(left: number, right: number, edges: boolean[][]): number {
  const best = (row: number, used: Set<number>): number => {
    if (row === left) return 0;
    let result = best(row + 1, used);
    for (let column = 0; column < right; column += 1) {
      if (!edges[row]![column] || used.has(column)) continue;
      used.add(column);
      result = Math.max(result, 1 + best(row + 1, used));
      used.delete(column);
    }
    return result;
  };
  return best(0, new Set());
}

describe('maximumMatching', () => {
  it('beats greedy on the classic case (left 0 takes right 0 first; augmenting path moves it)', () => {
    const edges = [
      [true, true],
      [true, false],
    ];
    const result = maximumMatching(2, 2, (left, right) => edges[left]![right]!);
    expect(result.size).toBe(2);
    expect(result.pairs).toEqual([
      [0, 1],
      [1, 0],
    ]);
  });

  it('equals the brute-force maximum, uses each vertex once and only existing edges', () => {
    const graph = fc
      .record({ left: fc.integer({ min: 0, max: 6 }), right: fc.integer({ min: 0, max: 6 }) })
      .chain(({ left, right }) =>
        fc.tuple(
          fc.constant(left),
          fc.constant(right),
          fc.array(fc.array(fc.boolean(), { minLength: right, maxLength: right }), { minLength: left, maxLength: left }),
        ),
      );
    fc.assert(
      fc.property(graph, ([left, right, edges]) => {
        const result = maximumMatching(left, right, (row, column) => edges[row]![column]!);
        expect(result.size).toBe(bruteForceMaximum(left, right, edges));
        expect(result.pairs).toHaveLength(result.size);
        expect(new Set(result.pairs.map(([row]) => row)).size).toBe(result.size);
        expect(new Set(result.pairs.map(([, column]) => column)).size).toBe(result.size);
        for (const [row, column] of result.pairs) expect(edges[row]![column]).toBe(true);
      }),
    );
  });
});
