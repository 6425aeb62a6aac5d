import { describe, expect, it } from 'vitest';
import type { HighlightItem } from '../../../../src/contracts/messages';
import {
  listedFacts,
  factKeyAction,
  factSentence,
  groupFacts,
  listedOrder,
  pageAt,
  statusCountsText,
  statusWords,
  type ListedFact,
} from '../../../../src/ui/side-panel/fact-list-model';
import type { ReviewKeyInput } from '../../../../src/ui/side-panel/keyboard-review';

const fact = (id: string, property: string, material: string, change: Partial<ListedFact> = {}): ListedFact => ({
  id,
  property,
  material,
  value: '3.4 eV',
  status: 'candidate',
  ...change,
});

const item = (id: string, change: Partial<HighlightItem['card']> = {}, status: HighlightItem['status'] = 'candidate'): HighlightItem => ({
  id,
  status,
  quote: { type: 'TextQuoteSelector', exact: 'a band gap of 3.4 eV', prefix: '', suffix: '' },
  card: { material: 'GaN', property: 'Band gap', value: '3.4', unit: 'eV', ...change },
});

const key = (name: string, change: Partial<ReviewKeyInput> = {}): ReviewKeyInput => ({
  key: name,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  targetTag: 'LI',
  targetEditable: false,
  ...change,
});

describe('the fact list’s words', () => {
  it('says each status in words', () => {
    expect(statusWords('candidate')).toBe('Candidate — not yet checked');
    expect(statusWords('verified')).toBe('Verified');
    expect(statusWords('needs_review')).toBe('Needs review');
    expect(statusWords('rejected')).toBe('Rejected');
  });

  it('counts the statuses present, in order, and the facts not marked in the page', () => {
    expect(statusCountsText([])).toBe('No facts');
    expect(statusCountsText([fact('a', 'p', 'm'), fact('b', 'p', 'm', { unplaced: 'not found' })])).toBe(
      '2 candidates — not yet checked · 1 not marked in the page',
    );
    expect(statusCountsText([fact('a', 'p', 'm')])).toBe('1 candidate — not yet checked');
    expect(
      statusCountsText([
        fact('a', 'p', 'm', { status: 'rejected' }),
        fact('b', 'p', 'm', { status: 'verified' }),
        fact('c', 'p', 'm', { status: 'verified' }),
        fact('d', 'p', 'm', { status: 'needs_review' }),
      ]),
    ).toBe('2 verified · 1 needs review · 1 rejected');
  });

  it('says a fact as one sentence, with conditions and page when it has them', () => {
    expect(factSentence(fact('a', 'Band gap', 'GaN'))).toBe('GaN, Band gap 3.4 eV, Candidate — not yet checked');
    expect(factSentence(fact('a', 'Band gap', 'GaN', { conditions: 'HSE06', status: 'verified', page: 3 }))).toBe(
      'GaN, Band gap 3.4 eV (HSE06), Verified, page 3',
    );
  });
});

describe('grouping', () => {
  it('groups by property, then material, in order of first appearance, keeping the facts’ order', () => {
    const facts = [
      fact('1', 'Band gap', 'GaN'),
      fact('2', 'Curie temperature', 'Fe'),
      fact('3', 'Band gap', 'AlN'),
      fact('4', 'Band gap', 'GaN'),
    ];
    const groups = groupFacts(facts);
    expect(groups.map((group) => [group.property, group.materials.map((entry) => [entry.material, entry.facts.map((f) => f.id)])])).toEqual(
      [
        [
          'Band gap',
          [
            ['GaN', ['1', '4']],
            ['AlN', ['3']],
          ],
        ],
        ['Curie temperature', [['Fe', ['2']]]],
      ],
    );
    // j/k move in the order shown, not in the order given.
    expect(listedOrder(groups).map((f) => f.id)).toEqual(['1', '4', '3', '2']);
  });
});

describe('entries from highlight items', () => {
  it('takes value, unit, display, conditions and provenance from the card, pages by id, and the page’s reasons', () => {
    const items = [
      item('candidate-0', { value: '40', unit: 'meV', display: '0.040 eV', conditions: 'HSE06', provenance: 'computed' }),
      item('candidate-1', { material: 'AlN' }),
    ];
    const entries = listedFacts(
      items,
      {
        ok: true,
        report: { anchored: ['candidate-0'], failed: [{ id: 'candidate-1', reason: 'The quote was not found.' }], method: 'overlay' },
      },
      { 'candidate-1': 4 },
    );
    expect(entries).toEqual([
      {
        id: 'candidate-0',
        material: 'GaN',
        property: 'Band gap',
        value: '40 meV (0.040 eV)',
        conditions: 'HSE06 · computed',
        status: 'candidate',
      },
      {
        id: 'candidate-1',
        material: 'AlN',
        property: 'Band gap',
        value: '3.4 eV',
        status: 'candidate',
        page: 4,
        unplaced: 'The quote was not found.',
      },
    ]);
  });

  it('marks nothing unplaced when the page could not be reached (a PDF in Chrome’s viewer) or has not answered', () => {
    const items = [item('candidate-0')];
    expect(listedFacts(items, { ok: false, failure: { code: 'no-tab', message: 'no script' } })[0]!.unplaced).toBeUndefined();
    expect(listedFacts(items)[0]!.unplaced).toBeUndefined();
  });

  it('finds the page of an offset from the blocks', () => {
    const blocks = [
      { start: 0, end: 10, page: 1 },
      { start: 12, end: 30, page: 1 },
      { start: 32, end: 50, page: 2 },
    ];
    expect(pageAt({ blocks } as never, 5)).toBe(1);
    expect(pageAt({ blocks } as never, 31)).toBe(1);
    expect(pageAt({ blocks } as never, 40)).toBe(2);
    expect(pageAt({ blocks: [{ start: 0, end: 10 }] } as never, 5)).toBeUndefined();
  });
});

describe('keys', () => {
  it('moves with j/k and the arrows, locates with Enter or Space on a fact, and ignores decisions and typing', () => {
    expect(factKeyAction(key('j'), 0, 3)).toEqual({ kind: 'move', position: 1 });
    expect(factKeyAction(key('ArrowUp'), 2, 3)).toEqual({ kind: 'move', position: 1 });
    expect(factKeyAction(key('End'), 0, 3)).toEqual({ kind: 'move', position: 2 });
    expect(factKeyAction(key('Enter'), 1, 3)).toEqual({ kind: 'locate' });
    expect(factKeyAction(key(' '), 1, 3)).toEqual({ kind: 'locate' });
    expect(factKeyAction(key('Enter', { targetTag: 'BUTTON' }), 1, 3)).toEqual({ kind: 'none' });
    expect(factKeyAction(key('a'), 1, 3)).toEqual({ kind: 'none' });
    expect(factKeyAction(key('m'), 1, 3)).toEqual({ kind: 'none' });
    expect(factKeyAction(key('j', { targetTag: 'INPUT' }), 1, 3)).toEqual({ kind: 'none' });
    expect(factKeyAction(key('j'), 0, 0)).toEqual({ kind: 'none' });
  });
});
