// @vitest-environment jsdom
/**
 * A reader's own property is shown in its own display unit in the side panel (issue 26): the
 * verdict line and the hover cards take display units from the catalogue the run used (the
 * built-ins and `settings.extraProperties`), the quick scan's cards from the catalogue it scanned.
 */
import { act, createElement } from 'react';
import { describe, expect, it } from 'vitest';
import { loadPropertySchemas } from '../../../../src/properties';
import { scanHighlightItems } from '../../../../src/ui/side-panel/candidate-highlights';
import { highlightItems } from '../../../../src/ui/side-panel/highlight-items';
import { RunResults } from '../../../../src/ui/side-panel/review-results';
import { runDisplayUnits } from '../../../../src/ui/side-panel/run-display-units';
import { articleFromBlocks, paragraph } from '../../text/article-from-blocks';
import { excitonBindingEnergy } from '../../../support/reader-property';
import { reactRootPerTest } from '../react-root';
import { record, runRow } from '../run-fixtures';

// A property a reader adds: reported in eV, shown in meV (no built-in schema has this name).
const binding = excitonBindingEnergy;

const inEv = { material: 'MoS2', property: 'exciton_binding_energy', value: { kind: 'number' as const, value: 0.021 }, valueText: '0.021' };
const row = runRow({
  status: 'done',
  settings: { ...runRow().settings, properties: ['exciton_binding_energy'], extraProperties: [binding] },
  propertiesDone: ['exciton_binding_energy'],
  records: [record('verified', {}, inEv)],
});
const label = (name: string) => (name === binding.name ? binding.label : name);
const view = reactRootPerTest();

describe("a reader's own property in the side panel", () => {
  it("has the display unit of the run's catalogue, built-ins included", () => {
    const units = runDisplayUnits(row.settings);
    expect(units.get('exciton_binding_energy')?.displayUnit).toBe('meV');
    expect(units.get('band_gap')?.displayUnit).toBe(loadPropertySchemas().find((schema) => schema.name === 'band_gap')!.displayUnit);
    expect(runDisplayUnits(undefined).has('exciton_binding_energy')).toBe(false);
  });

  it('shows its value in its display unit on the verdict line', () => {
    act(() => view.root.render(createElement(RunResults, { row, label })));
    expect(view.container.querySelector('li.record .value')!.textContent).toBe('0.021 eV (21 meV)');
  });

  it("puts its display value on the run's hover card", () => {
    const [item] = highlightItems(row, label).items;
    expect(item!.card).toMatchObject({ value: '0.021', unit: 'eV', display: '21 meV' });
  });

  it("puts its display value on the quick scan's hover card", () => {
    const article = articleFromBlocks([paragraph('The exciton binding energy of MoS2 is 0.021 eV in the monolayer.')]);
    const { items } = scanHighlightItems(article, [...loadPropertySchemas(), binding]);
    expect(items.map((item) => item.card)).toEqual([
      expect.objectContaining({ material: 'MoS2', property: 'Exciton binding energy', value: '0.021', unit: 'eV', display: '21 meV' }),
    ]);
  });
});
