/** A property a reader adds, for tests of "a reader's own property is treated like a built-in one" (issue 26). */
import { parsePropertySchema } from '../../src/properties';

/** Exciton binding energy: reported in eV or meV, shown in meV; no built-in schema has its name. */
export const excitonBindingEnergy = parsePropertySchema({
  name: 'exciton_binding_energy',
  label: 'Exciton binding energy',
  synonyms: ['exciton binding energy'],
  dimension: 'energy',
  canonicalUnit: 'eV',
  units: ['eV', 'meV'],
  displayUnit: 'meV',
  plausibleRange: { min: 0, max: 2 },
  note: 'A reader-defined property for tests.',
});
