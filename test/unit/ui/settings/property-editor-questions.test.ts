// @vitest-environment jsdom
import { act, createElement } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { PropertyDefinition } from '../../../../src/contracts/property';
import { questionsFor } from '../../../../src/properties';
import { PropertyEditor } from '../../../../src/ui/settings/property-editor';
import { reactRootPerTest } from '../react-root';
import { readUserProperties } from '../../../../src/extension/stored-settings';

const view = reactRootPerTest();
const byTestId = <T extends HTMLElement = HTMLElement>(id: string) => view.container.querySelector<T>(`[data-testid="${id}"]`);
const click = async (id: string) => {
  const element = byTestId(id);
  if (!element) throw new Error(`no element ${id}`);
  await act(async () => element.click());
};

/** Set an input's value the way typing does, so React's onChange fires. */
function type(id: string, value: string): void {
  const input = byTestId<HTMLInputElement>(id);
  if (!input) throw new Error(`no input ${id}`);
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
  act(() => {
    setter.call(input, value);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

describe('the property editor’s verification questions', () => {
  it('adds a reader-defined question with its answers and expectation, checked by the property schema', async () => {
    const onAdd = vi.fn(async (_property: PropertyDefinition) => {});
    act(() => view.root.render(createElement(PropertyEditor, { properties: [], takenNames: ['band_gap'], onAdd, onRemove: vi.fn() })));
    type('property-name', 'thermal_conductivity');
    type('property-label', 'Thermal conductivity');
    type('property-synonyms', 'thermal conductivity');
    type('property-unit', 'W/(m·K)');
    type('property-min', '0');
    type('property-max', '3000');
    expect(byTestId('property-questions')?.textContent).toContain('Always asked: property match; origin; phase; conditions.');

    await click('property-question-add');
    type('property-question-0-question', 'Was the value measured on a single crystal?');
    type('property-question-0-choices', 'yes, no');
    type('property-question-0-expected', 'maybe');
    await click('property-question-add');
    await click('property-question-1-remove');
    expect(byTestId('property-question-1')).toBeNull();
    await click('property-add');
    expect(byTestId('property-problems')?.textContent).toBe('Question 1: expected answer "maybe" is not one of the choices');
    expect(onAdd).not.toHaveBeenCalled();

    type('property-question-0-expected', 'yes');
    await click('property-add');
    expect(byTestId('property-problems')).toBeNull();
    expect(onAdd).toHaveBeenCalledTimes(1);
    const added = onAdd.mock.calls[0]![0];
    expect(added.questions).toEqual([
      { id: 'was_the_value_measured', question: 'Was the value measured on a single crystal?', choices: ['yes', 'no'], expected: ['yes'] },
    ]);
    // Stored and read back by the same schema; asked after the built-in questions.
    expect(readUserProperties([added])).toEqual([added]);
    expect(questionsFor(added).map((question) => question.id)).toEqual([
      'property_match',
      'origin',
      'phase',
      'conditions',
      'was_the_value_measured',
    ]);
    // The form is empty again, questions included.
    expect(byTestId('property-question-0')).toBeNull();
  });

  it('lists a reader’s property with how many questions it has', () => {
    const property = readUserProperties([
      {
        name: 'thermal_conductivity',
        label: 'Thermal conductivity',
        synonyms: ['thermal conductivity'],
        dimension: 'energy',
        canonicalUnit: 'W/(m·K)',
        units: ['W/(m·K)'],
        plausibleRange: { min: 0, max: 3000 },
        note: 'mine',
        questions: [{ id: 'single_crystal', question: 'Single crystal?', choices: ['yes', 'no'], expected: ['yes'] }],
      },
    ]);
    act(() => view.root.render(createElement(PropertyEditor, { properties: property, takenNames: [], onAdd: vi.fn(), onRemove: vi.fn() })));
    expect(view.container.querySelector('.user-properties li')?.textContent).toContain(
      '(thermal_conductivity, W/(m·K), 1 verification question)',
    );
  });
});
