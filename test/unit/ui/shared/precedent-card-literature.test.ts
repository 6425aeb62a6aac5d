// @vitest-environment jsdom
import { act, createElement } from 'react';
import { describe, expect, it } from 'vitest';
import type { PrecedentCheck } from '../../../../src/precedent/check-precedent';
import { PrecedentCard, droppedText } from '../../../../src/ui/shared/precedent-card';
import { reactRootPerTest } from '../react-root';

const view = reactRootPerTest();

const byTestId = (id: string) => view.container.querySelector<HTMLElement>(`[data-testid="${id}"]`)!;
const claim = { kind: 'Tc' as const, value: 9, unit: 'K', sourceId: '10.9999/x', quote: 'made up' };

function show(check: PrecedentCheck) {
  act(() =>
    view.root.render(
      createElement(PrecedentCard, { record: { key: 'Pb|tc', material: 'Pb', property: 'tc', checkedAt: '2026-11-22T06:00:00Z', check } }),
    ),
  );
}

describe('PrecedentCard with literature answers', () => {
  it('links a literature value to its DOI with title and year, and counts the dropped claims', () => {
    show({
      answer: 'Yes',
      values: [
        {
          kind: 'Tc',
          value: 7.2,
          unit: 'K',
          reference: { sourceId: '10.1000/pb', doi: '10.1000/pb', title: 'Lead films', year: 1990, origin: 'crossref' },
          quote: 'Pb films become superconducting at 7.2 K',
          origin: 'crossref',
        },
      ],
      sources: ['10.1000/pb'],
      searched: [{ source: 'Crossref', found: 1, note: '1 found (1 with an abstract)' }],
      dropped: [
        { reason: 'quote not found in the retrieved text', claim },
        { reason: 'source not retrieved', claim },
      ],
      related: [],
      phases: [],
    });
    const link = byTestId('precedent-supporting').querySelector('a')!;
    expect(link.getAttribute('href')).toBe('https://doi.org/10.1000/pb');
    expect(link.textContent).toBe('10.1000/pb');
    expect(byTestId('precedent-supporting').textContent).toContain('10.1000/pb (Lead films, 1990)');
    expect(byTestId('precedent-dropped').textContent).toBe('2 claims dropped: not found in the retrieved text');
  });

  it('lists each provider line when the literature was unreachable', () => {
    const searched = [
      { source: 'Crossref', found: 0, note: 'unreachable — could not reach crossref' },
      { source: 'arXiv', found: 0, note: 'unreachable — could not reach arxiv' },
    ];
    show({
      answer: 'Unknown',
      values: [],
      sources: [],
      searched,
      unknownBecause: 'No network: only local sources were searched.',
      dropped: [],
      related: [],
      phases: [],
    });
    expect([...byTestId('precedent-searched').querySelectorAll('li')].map((item) => item.textContent)).toEqual([
      'Crossref: unreachable — could not reach crossref',
      'arXiv: unreachable — could not reach arxiv',
    ]);
    expect(byTestId('precedent-unknown').textContent).toContain('No network: only local sources were searched.');
    expect(view.container.querySelector('[data-testid="precedent-dropped"]')).toBeNull();
    expect(droppedText(1)).toBe('1 claim dropped: not found in the retrieved text');
  });

  it('lists related materials and phases as text, a grounded phase with its quote, an unquoted one marked unchecked', () => {
    show({
      answer: 'Yes',
      values: [
        {
          kind: 'Tc',
          value: 7.2,
          unit: 'K',
          reference: { sourceId: '10.1000/pb', doi: '10.1000/pb', title: 'Lead films', year: 1990, origin: 'crossref' },
          quote: 'Pb films become superconducting at 7.2 K',
          origin: 'crossref',
        },
      ],
      sources: ['10.1000/pb'],
      searched: [],
      dropped: [],
      related: [{ material: '<img src=x onerror=alert(1)>', note: 'a lead alloy' }],
      phases: [
        { phase: 'charge density wave', note: 'below 30 K', grounded: true, quote: 'a CDW forms below 30 K' },
        { phase: 'antiferromagnet', note: '', grounded: false },
      ],
    });
    const mentioned = byTestId('precedent-mentioned');
    expect(mentioned.querySelector('img')).toBeNull();
    expect(mentioned.textContent).toContain('<img src=x onerror=alert(1)> — a lead alloy');
    expect(mentioned.querySelector('blockquote')!.textContent).toBe('a CDW forms below 30 K');
    expect(mentioned.textContent).toContain('antiferromagnet (not checked against a text)');
  });
});
