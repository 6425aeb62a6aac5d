import type { ScorerDependencies } from '../../../src/eval/triplet-scorer-types';

const ELECTRON_VOLT = 1.602176634e-19;

export const testConvert: ScorerDependencies['convert'] = (value, unit) => {
  if (unit === 'eV') return { value: value * ELECTRON_VOLT, unit: 'J' };
  if (unit === 'meV') return { value: value * ELECTRON_VOLT * 1e-3, unit: 'J' };
  if (unit === 'K') return { value, unit: 'K' };
  return null;
};

const squash = (text: string) => text.toLowerCase().replace(/\s+/g, '');

export const testSameMaterial: ScorerDependencies['sameMaterial'] = (a, b, aliases = []) =>
  [b, ...aliases].some((name) => squash(name) === squash(a));

/** The doubles compare materials the same way in both modes: these tests are about values and matching. */
export const testDependencies: ScorerDependencies = {
  convert: testConvert,
  sameMaterial: testSameMaterial,
  sameMaterialStrict: (a, b, aliases = []) => testSameMaterial(a, b, aliases),
};
