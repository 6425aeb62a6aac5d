/**
 * A reader's own property is treated like a built-in one (issue 26): the resolved catalogue is
 * passed in, and nothing caches the built-in schemas, so grounding checks its unit and the
 * dataset shows it in its display unit.
 */
import { describe, expect, it } from 'vitest';
import type { Triplet } from '../../../src/contracts/triplet';
import { displayUnitsOf, displayValueOf, loadPropertySchemas } from '../../../src/properties';
import { defaultAttributionDependencies } from '../../../src/verify/attribution';
import { ground } from '../../../src/verify/ground';
import { groundingDependencies } from '../../../src/verify/grounding-dependencies';
import { groundAndAttribute } from '../../../src/verify/grounding-gate';
import { defaultGroundingDependencies } from '../../../src/verify/grounding-dependencies';
import { articleFromBlocks, paragraph } from '../text/article-from-blocks';
import { excitonBindingEnergy } from '../../support/reader-property';

// A property a reader adds: reported in eV or meV, shown in meV.
const binding = excitonBindingEnergy;
const catalogue = [...loadPropertySchemas(), binding];

const article = articleFromBlocks([paragraph('The exciton binding energy of MoS2 is 0.021 eV in the monolayer.')]);
const triplet = (unit: string, value = 0.021): Triplet => ({
  material: 'MoS2',
  property: 'exciton_binding_energy',
  value: { kind: 'number', value },
  unit,
  engine: 'test',
  evidence: { quote: { type: 'TextQuoteSelector', exact: `is ${value} ${unit}`, prefix: '', suffix: '' } },
});

describe("a reader's own property", () => {
  it('gets its unit check in grounding from the catalogue passed in', () => {
    expect(ground(triplet('eV'), article, groundingDependencies(catalogue))).toMatchObject({ grounded: true, unitFitsProperty: true });
    // Without the reader's catalogue the property is unknown: no unit check is reported.
    expect(ground(triplet('eV'), article).unitFitsProperty).toBeUndefined();
  });

  it('is flagged for a unit that is not one of its units', () => {
    const wrong = articleFromBlocks([paragraph('The exciton binding energy of MoS2 is 0.021 K here.')]);
    const result = ground(triplet('K'), wrong, groundingDependencies(catalogue));
    expect(result).toMatchObject({ grounded: true, unitFitsProperty: false });
    expect(result.reasons).toContain('unit K is not a unit of exciton_binding_energy');
  });

  it('gets the same check through the gate, from the attribution catalogue', () => {
    const sentence = triplet('eV');
    sentence.evidence = { quote: { type: 'TextQuoteSelector', exact: article.text, prefix: '', suffix: '' } };
    const result = groundAndAttribute(sentence, article, defaultGroundingDependencies, defaultAttributionDependencies(catalogue));
    expect(result).toMatchObject({ grounded: true, unitFitsProperty: true });
    expect(result.attribution?.attributed).toBe(true);
  });

  it('is shown in its display unit', () => {
    const display = displayValueOf({ ...triplet('eV'), valueText: '0.021' }, displayUnitsOf(catalogue));
    expect(display).toMatchObject({ unit: 'meV', text: '21 meV' });
    expect(displayValueOf({ ...triplet('eV'), valueText: '0.021' }, displayUnitsOf(loadPropertySchemas()))).toBeNull();
  });
});
