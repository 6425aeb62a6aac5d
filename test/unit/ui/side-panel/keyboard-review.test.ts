import { describe, expect, it } from 'vitest';
import {
  decisionAnnouncement,
  factText,
  reviewedCount,
  reviewKeyAction,
  type ReviewKeyInput,
} from '../../../../src/ui/side-panel/keyboard-review';
import { spellPropertyName } from '../../../../src/ui/shared/run-view-model';
import { record, runRow } from '../run-fixtures';

const key = (name: string, change: Partial<ReviewKeyInput> = {}): ReviewKeyInput => ({
  key: name,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  targetTag: 'LI',
  targetEditable: false,
  ...change,
});

describe('reviewKeyAction', () => {
  it('moves with j/k and the arrow keys, stopping at the ends', () => {
    expect(reviewKeyAction(key('j'), 0, 3)).toEqual({ kind: 'move', position: 1 });
    expect(reviewKeyAction(key('ArrowDown'), 1, 3)).toEqual({ kind: 'move', position: 2 });
    expect(reviewKeyAction(key('j'), 2, 3)).toEqual({ kind: 'move', position: 2 });
    expect(reviewKeyAction(key('k'), 2, 3)).toEqual({ kind: 'move', position: 1 });
    expect(reviewKeyAction(key('ArrowUp'), 0, 3)).toEqual({ kind: 'move', position: 0 });
    expect(reviewKeyAction(key('Home'), 2, 3)).toEqual({ kind: 'move', position: 0 });
    expect(reviewKeyAction(key('End'), 0, 3)).toEqual({ kind: 'move', position: 2 });
  });

  it('clamps a position the list no longer has (a shorter list after a new run)', () => {
    expect(reviewKeyAction(key('k'), 9, 3)).toEqual({ kind: 'move', position: 1 });
    expect(reviewKeyAction(key('j'), -1, 3)).toEqual({ kind: 'move', position: 1 });
  });

  it('maps a, r and e to accept, reject and edit, also from a button inside the item', () => {
    expect(reviewKeyAction(key('a'), 0, 1)).toEqual({ kind: 'decide', decision: 'accepted' });
    expect(reviewKeyAction(key('r'), 0, 1)).toEqual({ kind: 'decide', decision: 'rejected' });
    expect(reviewKeyAction(key('e', { targetTag: 'BUTTON' }), 0, 1)).toEqual({ kind: 'edit' });
  });

  it('ignores keys while typing in an input, textarea, select or contenteditable', () => {
    for (const targetTag of ['INPUT', 'TEXTAREA', 'SELECT', 'input'])
      expect(reviewKeyAction(key('a', { targetTag }), 0, 3)).toEqual({ kind: 'none' });
    expect(reviewKeyAction(key('j', { targetTag: 'DIV', targetEditable: true }), 0, 3)).toEqual({ kind: 'none' });
  });

  it('ignores keys with Ctrl, Meta or Alt held, capitals, other keys, and an empty list', () => {
    expect(reviewKeyAction(key('a', { ctrlKey: true }), 0, 3)).toEqual({ kind: 'none' });
    expect(reviewKeyAction(key('r', { metaKey: true }), 0, 3)).toEqual({ kind: 'none' });
    expect(reviewKeyAction(key('j', { altKey: true }), 0, 3)).toEqual({ kind: 'none' });
    expect(reviewKeyAction(key('A'), 0, 3)).toEqual({ kind: 'none' });
    expect(reviewKeyAction(key('x'), 0, 3)).toEqual({ kind: 'none' });
    expect(reviewKeyAction(key('j'), 0, 0)).toEqual({ kind: 'none' });
  });

  it('locates with Enter on the record, but leaves Enter to a focused button; m and the ContextMenu key open the menu', () => {
    expect(reviewKeyAction(key('Enter'), 0, 3)).toEqual({ kind: 'locate' });
    expect(reviewKeyAction(key('Enter', { targetTag: 'BUTTON' }), 0, 3)).toEqual({ kind: 'none' });
    expect(reviewKeyAction(key('m'), 1, 3)).toEqual({ kind: 'menu' });
    expect(reviewKeyAction(key('ContextMenu'), 1, 3)).toEqual({ kind: 'menu' });
    expect(reviewKeyAction(key('m', { targetTag: 'INPUT' }), 1, 3)).toEqual({ kind: 'none' });
  });
});

describe('the announcement', () => {
  const row = runRow({
    records: [
      record('verified', {}, { material: 'SrTiO3', value: { kind: 'number', value: 3.2 } }),
      record('needs_review'),
      record('rejected'),
      record('verified'),
      record('needs_review'),
    ],
    reviews: { 1: { decision: 'rejected', at: '2025-01-01T10:00:00.000Z' } },
  });

  it('counts the decided records with the new decision in place', () => {
    expect(reviewedCount(row, 0, 'accepted')).toBe(2);
    expect(reviewedCount(row, 1, 'accepted')).toBe(1);
    expect(reviewedCount(row, 1, 'pending')).toBe(0);
    expect(reviewedCount(runRow({ records: row.records }), 4, 'edited')).toBe(1);
  });

  it('says what was decided about which fact and how far the review is', () => {
    const label = (name: string) => (name === 'band_gap' ? 'Band gap' : spellPropertyName(name));
    expect(factText(row.records[0]!, label)).toBe('SrTiO3 band gap 3.2 eV');
    expect(decisionAnnouncement({ decision: 'accepted' }, row.records[0]!, label, 2, 5)).toBe(
      'Accepted: SrTiO3 band gap 3.2 eV. 2 of 5 reviewed.',
    );
    expect(decisionAnnouncement({ decision: 'rejected' }, row.records[1]!, label, 1, 5)).toBe(
      'Rejected: GaN band gap 3.4 eV. 1 of 5 reviewed.',
    );
    expect(decisionAnnouncement({ decision: 'pending' }, row.records[1]!, label, 0, 5)).toBe(
      'Undecided: GaN band gap 3.4 eV. 0 of 5 reviewed.',
    );
  });

  it('says an edit with the reader’s values', () => {
    const label = (name: string) => (name === 'band_gap' ? 'Band gap' : spellPropertyName(name));
    const edit = { material: 'GaN film', valueText: '3.39', unit: 'eV' };
    expect(decisionAnnouncement({ decision: 'edited', edit }, row.records[1]!, label, 3, 5)).toBe(
      'Edited: GaN film band gap 3.39 eV. 3 of 5 reviewed.',
    );
    expect(factText(row.records[1]!, label, { material: 'GaN', valueText: '0.5', unit: '' })).toBe('GaN band gap 0.5');
  });
});
