/**
 * Maximum bipartite matching by augmenting paths (Kuhn's algorithm; Kuhn 1955, as in any
 * algorithms text, e.g. Cormen et al., "Introduction to Algorithms", §26.3 via flows).
 *
 * Why not greedy: with predictions P1, P2 and truths T1, T2 where P1 fits T1 and T2 but P2 fits
 * only T1, a greedy pass that gives T1 to P1 leaves P2 unmatched (1 match); the maximum is 2.
 * Papers here have at most a few dozen triplets, so O(V·E) is immediate.
 */

/**
 * Size and pairs of a maximum matching. `leftCount` and `rightCount` are the sizes of the two
 * sides; `compatible(left, right)` says whether an edge exists. Returns `pairs` as
 * `[leftIndex, rightIndex]`, each index used at most once.
 */
export function maximumMatching(
  leftCount: number,
  rightCount: number,
  compatible: (left: number, right: number) => boolean,
): { size: number; pairs: Array<[number, number]> } {
  const adjacency: number[][] = [];
  for (let left = 0; left < leftCount; left += 1) {
    const neighbours: number[] = [];
    for (let right = 0; right < rightCount; right += 1) if (compatible(left, right)) neighbours.push(right);
    adjacency.push(neighbours);
  }
  const matchOfRight: number[] = new Array<number>(rightCount).fill(-1);

  const augment = (left: number, visited: boolean[]): boolean => {
    for (const right of adjacency[left] ?? []) {
      if (visited[right]) continue;
      visited[right] = true;
      const holder = matchOfRight[right] ?? -1;
      if (holder === -1 || augment(holder, visited)) {
        matchOfRight[right] = left;
        return true;
      }
    }
    return false;
  };

  let size = 0;
  for (let left = 0; left < leftCount; left += 1) {
    if (augment(left, new Array<boolean>(rightCount).fill(false))) size += 1;
  }
  const pairs: Array<[number, number]> = [];
  matchOfRight.forEach((left, right) => {
    if (left !== -1) pairs.push([left, right]);
  });
  pairs.sort((a, b) => a[0] - b[0]);
  return { size, pairs };
}
