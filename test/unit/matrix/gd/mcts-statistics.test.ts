import { describe, expect, it } from 'vitest';
import { backpropagate, createRoot, meanReward, select, uct, type MctsNode } from '../../../../src/matrix/gd/mcts';
import type { ReasoningAction } from '../../../../src/matrix/gd/prompts';

function child(parent: MctsNode, action: ReasoningAction, visits: number, totalReward: number): MctsNode {
  const node: MctsNode = {
    parent,
    action,
    step: { text: action, materials: [], triplets: [], final: false },
    depth: parent.depth + 1,
    children: [],
    untriedActions: [],
    visits,
    totalReward,
    terminal: false,
  };
  parent.children.push(node);
  return node;
}

describe('uct (Eq. 6 of SLM-MATRIX)', () => {
  it('is +Infinity for an unvisited node', () => {
    expect(uct({ visits: 0, totalReward: 0 }, 10, 1.5)).toBe(Number.POSITIVE_INFINITY);
  });

  it('is W/N + c·sqrt(ln N_parent / N)', () => {
    // W = 1.2, N = 2 → W/N = 0.6; ln 8 = 2.0794415416798357; /2 = 1.0397207708399179;
    // sqrt = 1.0196669901688088; × 1.5 = 1.5295004852532132; + 0.6 = 2.1295004852532133.
    expect(uct({ visits: 2, totalReward: 1.2 }, 8, 1.5)).toBeCloseTo(2.1295004852532133, 12);
  });

  it('reduces to the mean reward (Eq. 9) with c = 0 or a parent visited once (ln 1 = 0)', () => {
    expect(uct({ visits: 4, totalReward: 3 }, 8, 0)).toBe(0.75);
    expect(uct({ visits: 1, totalReward: 0.4 }, 1, 1.5)).toBe(0.4);
  });
});

describe('meanReward (Eq. 9)', () => {
  it('is W/N, and 0 for an unvisited node', () => {
    expect(meanReward({ visits: 4, totalReward: 3 })).toBe(0.75);
    expect(meanReward({ visits: 0, totalReward: 0 })).toBe(0);
  });
});

describe('backpropagate (Eqs. 7–8)', () => {
  it('adds one visit and R_L to every node of a 3-node path, and nothing to siblings', () => {
    const root = createRoot();
    root.untriedActions = [];
    root.visits = 2;
    root.totalReward = 1.0;
    const middle = child(root, 'A1', 1, 0.4);
    const sibling = child(root, 'A2', 1, 0.6);
    const leaf = child(middle, 'A3', 0, 0);

    backpropagate(leaf, 0.8);
    // root: N 2 → 3, W 1.0 → 1.8; middle: N 1 → 2, W 0.4 → 1.2; leaf: N 0 → 1, W 0 → 0.8.
    expect([root.visits, root.totalReward]).toEqual([3, 1.8]);
    expect([middle.visits, middle.totalReward]).toEqual([2, 1.2000000000000002]);
    expect([leaf.visits, leaf.totalReward]).toEqual([1, 0.8]);
    expect([sibling.visits, sibling.totalReward]).toEqual([1, 0.6]);
    // Q (Eq. 9): root 1.8/3 = 0.6, middle 1.2/2 = 0.6, leaf 0.8/1 = 0.8.
    expect(meanReward(root)).toBeCloseTo(0.6, 12);
    expect(meanReward(middle)).toBeCloseTo(0.6, 12);
    expect(meanReward(leaf)).toBe(0.8);

    backpropagate(leaf, 0.2);
    expect([root.visits, leaf.visits, middle.visits]).toEqual([4, 2, 3]);
    expect(root.totalReward).toBeCloseTo(2.0, 12);
    expect(leaf.totalReward).toBeCloseTo(1.0, 12);
  });
});

describe('select (UCT descent)', () => {
  it('stops at a node with untried actions', () => {
    const root = createRoot();
    child(root, 'A1', 1, 1);
    expect(select(root, 1.5, () => 0)).toBe(root);
  });

  it('takes an unvisited child first, then the highest UCT, breaking exact ties with rng', () => {
    const root = createRoot();
    root.untriedActions = [];
    root.visits = 3;
    const low = child(root, 'A5', 1, 0.75); // 0.75 + 1.5·sqrt(ln 3) = 2.3222206109523076
    const first = child(root, 'A3', 1, 1); //  1 + 1.5·sqrt(ln 3) = 2.5722206109523076
    const second = child(root, 'A1', 1, 1); // tie with `first`
    first.untriedActions = ['A2'];
    second.untriedActions = ['A2'];
    expect(select(root, 1.5, () => 0)).toBe(first);
    expect(select(root, 1.5, () => 0.99)).toBe(second);
    expect(select(root, 0, () => 0)).not.toBe(low);

    const fresh = child(root, 'A2', 0, 0);
    expect(select(root, 1.5, () => 0)).toBe(fresh);
  });

  it('descends through fully expanded nodes to a terminal leaf', () => {
    const root = createRoot();
    root.untriedActions = [];
    root.visits = 2;
    const middle = child(root, 'A1', 2, 1.5);
    middle.untriedActions = [];
    const leaf: MctsNode = { ...child(middle, 'A2', 1, 1), terminal: true };
    middle.children[0] = leaf;
    expect(select(root, 1.5, () => 0)).toBe(leaf);
  });
});
