// @vitest-environment jsdom
/** The rendered fact list (FactList): one tab stop, j/k and Enter locate, a click locates, the unplaced facts named. */
import { act, createElement } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { ListedFact } from '../../../../src/ui/side-panel/fact-list-model';
import { FactList } from '../../../../src/ui/side-panel/fact-list';
import { reactRootPerTest } from '../react-root';

const view = reactRootPerTest();

const facts: ListedFact[] = [
  { id: 'candidate-0', material: 'GaN', property: 'Band gap', value: '3.4 eV', status: 'candidate' },
  { id: 'candidate-1', material: 'Fe', property: 'Curie temperature', value: '1043 K', status: 'candidate', page: 2 },
  {
    id: 'candidate-2',
    material: 'ZnO',
    property: 'Band gap',
    value: '3.37 eV',
    status: 'candidate',
    unplaced: 'The quote was not found in the page.',
  },
];

function render(locatable = true) {
  const onLocate = vi.fn();
  act(() => view.root.render(createElement(FactList, { facts, onLocate, locatable })));
  return onLocate;
}

const fact = (id: string) => view.container.querySelector<HTMLLIElement>(`[data-testid="fact-${id}"]`)!;

async function press(key: string) {
  const target = (document.activeElement ?? document.body) as HTMLElement;
  await act(async () => {
    target.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));
  });
}

describe('the fact list', () => {
  it('lists by property then material, in that order, with status in words and the page', () => {
    render();
    const order = [...view.container.querySelectorAll<HTMLElement>('li.fact')].map((element) => element.dataset.id);
    expect(order).toEqual(['candidate-0', 'candidate-2', 'candidate-1']);
    expect([...view.container.querySelectorAll('h4')].map((heading) => heading.textContent)).toEqual(['Band gap', 'Curie temperature']);
    expect(fact('candidate-1').textContent).toBe('1043 K Candidate — not yet checked · page 2');
    expect(view.container.querySelector('[data-testid="fact-counts"]')?.textContent).toBe(
      '3 candidates — not yet checked · 1 not marked in the page',
    );
  });

  it('is one tab stop; j/k move in the listed order and locate each; Enter and a click locate', async () => {
    const onLocate = render();
    const tabbable = [...view.container.querySelectorAll<HTMLElement>('[tabindex]')].filter((element) => element.tabIndex >= 0);
    expect(tabbable).toEqual([fact('candidate-0')]);
    act(() => fact('candidate-0').focus());
    await press('j');
    expect(document.activeElement).toBe(fact('candidate-2'));
    expect(onLocate).toHaveBeenLastCalledWith('candidate-2');
    await press('j');
    await press('j'); // the last fact: j stays, and does not locate again
    expect(document.activeElement).toBe(fact('candidate-1'));
    expect(onLocate).toHaveBeenCalledTimes(2);
    await press('k');
    expect(onLocate).toHaveBeenLastCalledWith('candidate-2');
    await press('Enter');
    expect(onLocate).toHaveBeenCalledTimes(4);
    act(() => fact('candidate-0').click());
    expect(onLocate).toHaveBeenLastCalledWith('candidate-0');
    expect(fact('candidate-0').tabIndex).toBe(0);
  });

  it('names the fact the page could not mark, with the reason; does not promise locating where it cannot', () => {
    render(false);
    expect(view.container.querySelector('[data-testid="fact-orphans"] li')?.textContent).toBe(
      'ZnO, Band gap 3.37 eV — The quote was not found in the page.',
    );
    expect(view.container.querySelector('.fact-list .hint')?.textContent).toBe('j / k or the arrow keys move through the facts.');
  });
});
