import { describe, expect, it, vi } from 'vitest';
import type { ResponseOf } from '../../../../src/contracts/messages';
import { agreedText, failureLines, highlightItems, scrollNote, showOutcome } from '../../../../src/ui/side-panel/highlight-items';
import { createPageHighlighter } from '../../../../src/ui/side-panel/highlight-sync';
import { keepAnswerReview } from '../../../../src/ui/side-panel/review-model';
import { record, runRow, triplet } from '../run-fixtures';

const AT = '2025-02-01T09:00:00.000Z';
const label = (name: string) => (name === 'band_gap' ? 'Band gap' : name);

describe('agreedText', () => {
  it('names the paths that agreed in words', () => {
    expect(agreedText(['moa', 'gd'])).toBe('MoA and the generator–discriminator search agreed');
    expect(agreedText(['moa', 'gd', 'proposers'])).toBe('MoA, the generator–discriminator search and the proposers agreed');
    expect(agreedText(['moa'])).toBe('Only MoA gave it');
    expect(agreedText(['chemdataextractor'])).toBe('Only chemdataextractor gave it');
    expect(agreedText([])).toBe('No path agreed');
  });
});

describe('highlightItems', () => {
  const position = { type: 'TextPositionSelector' as const, start: 120, end: 171 };
  const gd = triplet({
    value: { kind: 'range', low: 3.3, high: 3.5 },
    evidence: { quote: { type: 'TextQuoteSelector', exact: 'between 3.3 and 3.5 eV', prefix: 'gaps ', suffix: '.' } },
  });
  // GaN 3.45 eV against the search's 3.3–3.5 eV: not the verified GaN 3.4 eV, which would be the same fact (one mark).
  const moa = triplet({ value: { kind: 'number', value: 3.45 } });
  const disputed = record('needs_review', { votes: ['moa'], adjudication: { outcome: 'conflict', moa, gd } }, moa);
  const row = runRow({
    records: [
      record(
        'verified',
        {},
        {
          valueText: '3.4',
          // Out of order: the card puts the method first.
          conditions: [
            { kind: 'other', value: 'at 300 K' },
            { kind: 'method', value: 'HSE06' },
          ],
          provenance: { kind: 'cited', reference: '[19]' },
          evidence: { quote: { type: 'TextQuoteSelector', exact: 'The band gap of GaN is 3.4 eV', prefix: 'b', suffix: 'a' }, position },
        },
      ),
      record('verified', {}, { material: 'AlN' }),
      record('verified', {}, { material: 'InN', evidence: undefined }),
      record('verified', {}, { material: 'ZnO' }),
      disputed,
    ],
    reviews: {
      1: { decision: 'rejected', at: AT },
      3: { decision: 'edited', edit: { material: 'ZnO:Al', valueText: '3.5', unit: 'eV' }, at: AT },
      4: keepAnswerReview(disputed, 'gd', new Date(AT)),
    },
  });
  const { items, skipped } = highlightItems(row, label);

  it('makes one item per record with evidence, id = its index, and reports the others', () => {
    expect(items.map((item) => item.id)).toEqual(['0', '1', '3', '4']);
    expect(skipped).toEqual([{ id: '2', reason: 'The model gave no evidence quote.' }]);
  });

  it('fills the quote, position, mark and card of a verified record', () => {
    expect(items[0]).toEqual({
      id: '0',
      status: 'verified',
      quote: { type: 'TextQuoteSelector', exact: 'The band gap of GaN is 3.4 eV', prefix: 'b', suffix: 'a' },
      position,
      mark: '3.4',
      card: {
        material: 'GaN',
        property: 'Band gap',
        value: '3.4',
        unit: 'eV',
        conditions: 'HSE06 · at 300 K',
        provenance: 'cited [19]',
        agreed: 'MoA and the generator–discriminator search agreed',
      },
    });
  });

  it('leaves conditions and provenance out of a card whose triplet has none (or an unknown provenance)', () => {
    const plain = highlightItems(runRow({ records: [record('verified', {}, { provenance: { kind: 'unknown' } })] }), label).items[0]!;
    expect(plain.card).not.toHaveProperty('conditions');
    expect(plain.card).not.toHaveProperty('provenance');
  });

  it('shows the reader’s reject as rejected and the reader’s edit on the card, marking the printed value', () => {
    expect(items[1]!.status).toBe('rejected');
    expect(items[2]!.status).toBe('verified');
    expect(items[2]!.mark).toBe('3.4');
    expect(items[2]!.card).toMatchObject({ material: 'ZnO:Al', value: '3.5', unit: 'eV' });
  });

  it('puts the model’s value in the display unit on the card, but not beside the reader’s edit', () => {
    const inMeV = { valueText: '40', value: { kind: 'number' as const, value: 40 }, unit: 'meV' };
    const meVRow = runRow({
      records: [record('verified', {}, inMeV), record('verified', {}, { ...inMeV, material: 'AlN' })],
      reviews: { 1: { decision: 'edited', edit: { valueText: '0.04', unit: 'eV' }, at: AT } },
    });
    const [model, edited] = highlightItems(meVRow, label).items;
    expect(model!.card).toMatchObject({ value: '40', unit: 'meV', display: '0.040 eV' });
    expect(edited!.card).toMatchObject({ value: '0.04', unit: 'eV' });
    expect(edited!.card.display).toBeUndefined();
    // A value already in eV says nothing more.
    expect(items[0]!.card.display).toBeUndefined();
  });

  it('highlights a kept search answer at its own evidence', () => {
    expect(items[3]).toMatchObject({
      id: '4',
      status: 'needs_review',
      mark: '3.3–3.5',
      quote: { exact: 'between 3.3 and 3.5 eV' },
      card: { value: '3.3–3.5', agreed: 'Only MoA gave it' },
    });
  });

  it('marks a fact two verdicts stated once, by the verified one', () => {
    const moaOnly = record('needs_review', { votes: ['moa'], adjudication: { outcome: 'moa-only', moa: triplet() } });
    const twice = highlightItems(runRow({ records: [moaOnly, record('verified')] }), label).items;
    expect(twice.map((item) => [item.id, item.status])).toEqual([['1', 'verified']]);
  });

  it('lists failures with what the record said', () => {
    expect(failureLines(row, [...skipped, { id: '1', reason: 'The quote is not in the page.' }, { id: 'x', reason: 'odd' }])).toEqual([
      { id: '2', what: 'InN: 3.4 eV', reason: 'The model gave no evidence quote.' },
      { id: '1', what: 'AlN: 3.4 eV', reason: 'The quote is not in the page.' },
      { id: 'x', what: 'Record x', reason: 'odd' },
    ]);
  });
});

describe('answers of the page', () => {
  it('turns a failed send into a short note, and a report into its failures', () => {
    const failed: ResponseOf<'highlight-show'> = {
      ok: false,
      failure: { code: 'internal', message: 'Cannot access contents of the PDF viewer.' },
    };
    expect(showOutcome(failed)).toEqual({
      failed: [],
      note: 'Highlights are not shown in this page: Cannot access contents of the PDF viewer.',
    });
    const report: ResponseOf<'highlight-show'> = {
      ok: true,
      report: { anchored: ['0'], failed: [{ id: '1', reason: 'not found' }], method: 'overlay' },
    };
    expect(showOutcome(report)).toEqual({ failed: [{ id: '1', reason: 'not found' }], note: null });
  });

  it('says why a scroll did not happen', () => {
    expect(scrollNote({ ok: true, found: true })).toBeNull();
    expect(scrollNote({ ok: true, found: false })).toBe('This value is not highlighted in the page.');
    expect(scrollNote({ ok: false, failure: { code: 'internal', message: 'gone' } })).toBe('Could not scroll the page: gone');
  });
});

describe('createPageHighlighter', () => {
  it('sends to the tab resolved once, at creation', async () => {
    let tab = 7;
    const resolve = vi.fn(async () => tab);
    const send = vi.fn(async () => ({ ok: true, found: true }) as never);
    const highlighter = createPageHighlighter(resolve, send);
    tab = 9;
    await highlighter.scroll('3');
    await highlighter.show([]);
    expect(resolve).toHaveBeenCalledTimes(1);
    expect(send).toHaveBeenNthCalledWith(1, { type: 'highlight-scroll', tabId: 7, id: '3' });
    expect(send).toHaveBeenNthCalledWith(2, { type: 'highlight-show', tabId: 7, items: [] });
  });

  it('answers a failure in words when there is no tab, without sending', async () => {
    const send = vi.fn();
    const highlighter = createPageHighlighter(async () => Promise.reject(new Error('No capturable tab')), send);
    expect(await highlighter.show([])).toEqual({ ok: false, failure: { code: 'no-tab', message: 'No capturable tab' } });
    expect(send).not.toHaveBeenCalled();
  });
});
