// @vitest-environment jsdom
import { act, createElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RunResults } from '../../../../src/ui/side-panel/review-results';
import { record, runRow } from '../run-fixtures';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let container: HTMLElement;
let root: Root;
beforeEach(() => {
  container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
});
afterEach(() => {
  act(() => root.unmount());
  container.remove();
});

describe('the verdict list, grouped by property and material (issue 28)', () => {
  it('lists each property’s verdicts under their material, materials in the order of their first verdict', () => {
    const row = runRow({
      status: 'done',
      records: [
        record('needs_review', {}, { material: 'ZnS', value: { kind: 'number', value: 3.6 } }),
        record('verified', {}, { material: 'Cu2S', value: { kind: 'number', value: 1.2 } }),
        record('verified', {}, { material: 'ZnS', value: { kind: 'number', value: 3.7 } }),
        record('verified', {}, { material: 'MgB2', property: 'tc', value: { kind: 'number', value: 39 }, unit: 'K' }),
      ],
    });
    act(() => root.render(createElement(RunResults, { row, label: (name: string) => name })));
    const sections = [...container.querySelectorAll<HTMLElement>('section.property-verdicts')];
    expect(sections.map((section) => section.dataset.property)).toEqual(['band_gap', 'tc']);
    // Verified first within the property (Cu2S 1.2, ZnS 3.7), so Cu2S's group comes first, and ZnS's 3.6 joins its material.
    const bandGap = sections[0]!;
    expect([...bandGap.querySelectorAll('h4.material-heading')].map((heading) => heading.textContent)).toEqual(['Cu2S', 'ZnS']);
    const listed = [...bandGap.querySelectorAll<HTMLElement>('.material-verdicts')].map((group) => [
      group.dataset.material,
      [...group.querySelectorAll<HTMLLIElement>('li.record')].map((item) => Number(item.dataset.index)),
    ]);
    expect(listed).toEqual([
      ['Cu2S', [1]],
      ['ZnS', [2, 0]],
    ]);
  });
});
