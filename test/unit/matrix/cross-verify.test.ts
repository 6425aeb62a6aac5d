import { describe, expect, it } from 'vitest';
import type { ReportedValue, Triplet } from '../../../src/contracts/triplet';
import { crossVerify, pathsAgree, tripletsAgree, valueDifference, VALUE_TOLERANCE } from '../../../src/matrix/cross-verify';
import { sameMaterial } from '../../../src/text/materials';
import { toSI } from '../../../src/text/units';

const dependencies = { sameMaterial: (a: string, b: string) => sameMaterial(a, b), toSI };

function triplet(material: string, value: number | [number, number], unit = 'eV', engine = 'moa'): Triplet {
  const reported: ReportedValue = typeof value === 'number' ? { kind: 'number', value } : { kind: 'range', low: value[0], high: value[1] };
  return { material, property: 'band_gap', value: reported, unit, engine };
}

describe('tripletsAgree / valueDifference', () => {
  it('agrees on the same material, value and unit', () => {
    expect(tripletsAgree(triplet('ZnO', 3.4), triplet('ZnO', 3.4, 'eV', 'gd'), dependencies)).toBe(true);
  });

  it('accepts a value within 0.1% and refuses one outside', () => {
    expect(VALUE_TOLERANCE).toBe(0.001);
    // |1.4009 − 1.4| / 1.4009 = 0.064% ≤ 0.1%
    expect(valueDifference(triplet('ZnO', 1.4), triplet('ZnO', 1.4009), dependencies)).toBeNull();
    // |1.45 − 1.4| / 1.45 = 3.4% > 0.1%
    expect(valueDifference(triplet('ZnO', 1.4), triplet('ZnO', 1.45), dependencies)).toBe('values differ (1.4 eV vs 1.45 eV)');
    // a looser tolerance lets it through: 3.4% ≤ 5%
    expect(valueDifference(triplet('ZnO', 1.4), triplet('ZnO', 1.45), { ...dependencies, tolerance: 0.05 })).toBeNull();
  });

  it('compares after SI conversion: 1400 meV = 1.4 eV, 11 meV = 0.011 eV, but eV ≠ K', () => {
    expect(tripletsAgree(triplet('GaAs', 1.4), triplet('GaAs', 1400, 'meV'), dependencies)).toBe(true);
    expect(tripletsAgree(triplet('GaAs', 0.011), triplet('GaAs', 11, 'meV'), dependencies)).toBe(true);
    expect(tripletsAgree(triplet('GaAs', 1.4), triplet('GaAs', 1.4, 'meV'), dependencies)).toBe(false);
    expect(valueDifference(triplet('GaAs', 1.4), triplet('GaAs', 1.4, 'K'), dependencies)).toBe('units differ (eV vs K)');
  });

  it('treats equivalent material spellings as the same material', () => {
    expect(tripletsAgree(triplet('Ba1−xKxBiO3', 0.5), triplet('Ba1-xKxBiO3', 0.5), dependencies)).toBe(true);
    expect(tripletsAgree(triplet('ZnO', 3.4), triplet('ZnS', 3.4), dependencies)).toBe(false);
  });

  it('compares ranges endpoint by endpoint and never a range with a number', () => {
    expect(tripletsAgree(triplet('TiO2', [3.0, 3.2]), triplet('TiO2', [3000, 3200], 'meV'), dependencies)).toBe(true);
    expect(valueDifference(triplet('TiO2', [3.0, 3.2]), triplet('TiO2', 3.0), dependencies)).toBe(
      'one value is a range, the other a number',
    );
  });

  it('needs the same property', () => {
    expect(tripletsAgree(triplet('ZnO', 3.4), { ...triplet('ZnO', 3.4), property: 'tc' }, dependencies)).toBe(false);
  });
});

describe('crossVerify', () => {
  it('pairs agreements, flags a conflict with its reason, and lists one-path triplets', () => {
    const moa = [triplet('ZnO', 3.4), triplet('GaN', 3.5), triplet('Si', 1.12)];
    const gd = [triplet('GaN', 3.2, 'eV', 'gd'), triplet('ZnO', 3400, 'meV', 'gd'), triplet('GaAs', 1.42, 'eV', 'gd')];
    const entries = crossVerify(moa, gd, dependencies);
    expect(entries.map((entry) => [entry.outcome, entry.moa?.material, entry.gd?.material])).toEqual([
      ['agreed', 'ZnO', 'ZnO'],
      ['conflict', 'GaN', 'GaN'],
      ['moa-only', 'Si', undefined],
      ['gd-only', undefined, 'GaAs'],
    ]);
    expect(entries[1]!.reason).toBe('values differ (3.5 eV vs 3.2 eV)');
    expect(pathsAgree(entries)).toBe(false);
  });

  it('pairs one to one: a duplicate on one side is left over', () => {
    const entries = crossVerify([triplet('ZnO', 3.4), triplet('ZnO', 3.4)], [triplet('ZnO', 3.4, 'eV', 'gd')], dependencies);
    expect(entries.map((entry) => entry.outcome)).toEqual(['agreed', 'moa-only']);
  });

  it('two empty answers agree', () => {
    expect(pathsAgree(crossVerify([], [], dependencies))).toBe(true);
  });
});
