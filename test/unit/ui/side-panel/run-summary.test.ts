import { describe, expect, it } from 'vitest';
import { engineShortName, filterProperties, runSummaryText, summaryName } from '../../../../src/ui/side-panel/run-summary';

const tc = { name: 'tc', label: 'Superconducting transition temperature', synonyms: ['critical temperature'], symbols: ['Tc', 'T_c'] };
const bandGap = { name: 'band_gap', label: 'Band gap', synonyms: ['bandgap', 'optical gap'], symbols: ['Eg'] };
const lattice = { name: 'lattice_constant', label: 'Lattice constant' };

describe('the run controls’ summary line', () => {
  it('names the engine by the part in brackets of its label', () => {
    expect(engineShortName('In this browser (WebLLM)')).toBe('WebLLM');
    expect(engineShortName('OpenAI-compatible server')).toBe('OpenAI-compatible server');
  });

  it('names a long label by its first symbol, a short one by itself', () => {
    expect(summaryName(tc)).toBe('Tc');
    expect(summaryName(bandGap)).toBe('Band gap');
    expect(summaryName({ ...tc, symbols: [] })).toBe(tc.label);
  });

  it('reads "Band gap, Tc · browser preset · WebLLM", with "and N more" past three and a sentence for none', () => {
    expect(runSummaryText(['Band gap', 'Tc'], 'browser', 'In this browser (WebLLM)')).toBe('Band gap, Tc · browser preset · WebLLM');
    expect(runSummaryText(['A', 'B', 'C', 'D', 'E'], 'paper', 'OpenAI-compatible server')).toBe(
      'A, B, C and 2 more · paper preset · OpenAI-compatible server',
    );
    expect(runSummaryText([], 'browser', 'X')).toBe('No property chosen · browser preset · X');
  });
});

describe('filterProperties', () => {
  const all = [bandGap, tc, lattice];
  it('finds by label, schema name, synonym and symbol, case-insensitively, in the given order', () => {
    expect(filterProperties(all, '  ')).toEqual(all);
    expect(filterProperties(all, 'GAP')).toEqual([bandGap]);
    expect(filterProperties(all, 'lattice_const')).toEqual([lattice]);
    expect(filterProperties(all, 'critical')).toEqual([tc]);
    expect(filterProperties(all, 't_c')).toEqual([tc]);
    expect(filterProperties(all, 'e')).toEqual(all);
    expect(filterProperties(all, 'perovskite')).toEqual([]);
  });

  it('puts exact hits first: a symbol as typed, case included, or a whole label or synonym', () => {
    const curie = { name: 'curie_temperature', label: 'Curie temperature', symbols: ['TC', 'T_C'] };
    expect(filterProperties([curie, tc], 'Tc')).toEqual([tc, curie]);
    expect(filterProperties([curie, tc], 'TC')).toEqual([curie, tc]);
    expect(filterProperties([tc, bandGap], 'optical gap')).toEqual([bandGap]);
    expect(filterProperties([lattice, bandGap], 'gap')).toEqual([bandGap]);
  });
});
