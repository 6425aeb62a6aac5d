// @vitest-environment jsdom
import { act, createElement } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { PrecedentCheck } from '../../../../src/precedent/check-precedent';
import type { PrecedentRecord } from '../../../../src/precedent/cached-precedent-check';
import { PrecedentCard, checkedText } from '../../../../src/ui/shared/precedent-card';
import { reactRootPerTest } from '../react-root';

const view = reactRootPerTest();

const byTestId = (id: string) => view.container.querySelector<HTMLElement>(`[data-testid="${id}"]`);
const EMPTY = { dropped: [], related: [], phases: [] };

function record(material: string, check: PrecedentCheck): PrecedentRecord {
  return { key: `${material}|tc`, material, property: 'tc', checkedAt: '2026-11-22T06:05:30.000Z', check };
}

function render(props: Parameters<typeof PrecedentCard>[0]) {
  act(() => view.root.render(createElement(PrecedentCard, props)));
}

describe('PrecedentCard', () => {
  it('Yes: a DOI as a link, a table value by its code and table name, quotes as text, Tcn apart', () => {
    const onRecheck = vi.fn();
    render({
      record: record('MgB2', {
        answer: 'Yes',
        values: [
          {
            kind: 'Tc',
            value: 39,
            unit: 'K',
            reference: { doi: '10.1038/35065039', title: 'Superconductivity at 39 K', year: 2001 },
            quote: 'MgB2 becomes superconducting at <b>39 K</b>',
            origin: 'your dataset',
          },
          {
            kind: 'Tc',
            value: 38.5,
            unit: 'K',
            reference: { code: 'NAT410063' },
            quote: 'NAT410063,B2Mg,tc,38.5,K',
            origin: 'supercon.csv',
          },
          { kind: 'Tcn', value: 2, unit: 'K', reference: { code: 'PRB0001' }, quote: 'PRB0001,B2Mg,tcn,2,K', origin: 'supercon.csv' },
        ],
        sources: ['10.1038/35065039', 'supercon.csv: NAT410063', 'supercon.csv: PRB0001'],
        searched: [{ source: 'supercon.csv', found: 2, note: 'Yes: 2 row(s)' }],
        ...EMPTY,
      }),
      label: (name) => (name === 'tc' ? 'Tc' : name),
      onRecheck,
    });
    const card = byTestId('precedent-card')!;
    expect(card.dataset.answer).toBe('Yes');
    expect(card.querySelector('.precedent-head')?.textContent).toBe('MgB2 — Tc: Yes');

    const supporting = byTestId('precedent-supporting')!;
    const items = [...supporting.querySelectorAll('li')];
    expect(items).toHaveLength(2);
    const link = items[0]!.querySelector('a')!;
    expect(link.getAttribute('href')).toBe('https://doi.org/10.1038/35065039');
    expect(link.textContent).toBe('10.1038/35065039');
    // The quote is text: the page's markup is shown, never parsed.
    expect(items[0]!.querySelector('blockquote')?.textContent).toBe('MgB2 becomes superconducting at <b>39 K</b>');
    expect(items[0]!.querySelector('b')).toBeNull();
    expect(items[1]!.textContent).toContain('Tc = 38.5 K — NAT410063, supercon.csv');
    expect(items[1]!.querySelector('a')).toBeNull();

    const contradicting = byTestId('precedent-contradicting')!;
    expect(contradicting.querySelectorAll('li')).toHaveLength(1);
    expect(contradicting.textContent).toContain('Tcn = 2 K — PRB0001, supercon.csv');
    expect(byTestId('precedent-unknown')).toBeNull();

    expect(byTestId('precedent-checked-at')?.textContent).toBe('Checked 2026-11-22 06:05 UTC');
    act(() => byTestId('precedent-recheck')!.click());
    expect(onRecheck).toHaveBeenCalledTimes(1);
  });

  it('No: only the Tcn list', () => {
    render({
      record: record('Cu', {
        answer: 'No',
        values: [
          { kind: 'Tcn', value: 0.05, unit: 'K', reference: { code: 'JLTP1' }, quote: 'JLTP1,Cu,tcn,0.05,K', origin: 'supercon.csv' },
        ],
        sources: ['supercon.csv: JLTP1'],
        searched: [],
        ...EMPTY,
      }),
      onRecheck: () => undefined,
      busy: true,
    });
    expect(byTestId('precedent-card')?.dataset.answer).toBe('No');
    expect(byTestId('precedent-supporting')).toBeNull();
    expect(byTestId('precedent-contradicting')?.textContent).toContain('Tcn = 0.05 K');
    const recheck = byTestId('precedent-recheck') as HTMLButtonElement;
    expect(recheck.disabled).toBe(true);
    expect(recheck.textContent).toBe('Checking…');
  });

  it('Unknown: says so and lists what was searched', () => {
    render({
      record: record('Nb3Sn', {
        answer: 'Unknown',
        values: [],
        sources: [],
        searched: [
          { source: 'supercon.csv', found: 0, note: 'no row for Nb3Sn among 2 rows' },
          { source: 'open literature', found: 0, note: 'not searched (turn on in Settings when a model engine is set)' },
        ],
        unknownBecause: 'nothing answered',
        ...EMPTY,
      }),
    });
    expect(byTestId('precedent-card')?.dataset.answer).toBe('Unknown');
    expect(byTestId('precedent-unknown')?.querySelector('p')?.textContent).toBe('Unknown — here is what was searched:');
    expect([...byTestId('precedent-searched')!.querySelectorAll('li')].map((item) => item.textContent)).toEqual([
      'supercon.csv: no row for Nb3Sn among 2 rows',
      'open literature: not searched (turn on in Settings when a model engine is set)',
    ]);
    expect(byTestId('precedent-supporting')).toBeNull();
    // Without onRecheck there is no button.
    expect(byTestId('precedent-recheck')).toBeNull();
  });

  it('checkedText: UTC minutes, or the text itself when it is not a date', () => {
    expect(checkedText('2026-01-02T23:59:59.999Z')).toBe('Checked 2026-01-02 23:59 UTC');
    expect(checkedText('yesterday')).toBe('Checked yesterday');
  });
});
