import { describe, expect, it } from 'vitest';
import { loadPropertySchemas, parsePropertySchema, PropertySchemaError, selectPropertySchemas } from '../../../src/properties';

const userSchema = {
  name: 'thermal_conductivity',
  label: 'Thermal conductivity',
  synonyms: ['thermal conductivity', 'lattice thermal conductivity'],
  symbols: ['κ', 'κL'],
  dimension: 'energy', // any known dimension; the loader checks shape, not physics
  canonicalUnit: 'W/(m K)',
  units: ['W/(m K)'],
  plausibleRange: { min: 0, max: 3000 },
  note: 'Diamond, about 2000–2200 W/(m K), is the best bulk conductor.',
};

describe('loadPropertySchemas', () => {
  it('loads and validates every built-in schema, including those the brief requires', () => {
    const schemas = loadPropertySchemas();
    const names = schemas.map((schema) => schema.name);
    for (const required of [
      'band_gap',
      'tc',
      'bulk_modulus',
      'curie_temperature',
      'neel_temperature',
      'lattice_a',
      'lattice_b',
      'lattice_c',
      'd33',
      'density',
      'bet_surface_area',
    ]) {
      expect(names).toContain(required);
    }
    expect(new Set(names).size).toBe(names.length);
    const bandGap = schemas.find((schema) => schema.name === 'band_gap')!;
    expect(bandGap).toMatchObject({ canonicalUnit: 'eV', dimension: 'energy', plausibleRange: { min: -2, max: 15 } });
    expect(bandGap.synonyms).toEqual(expect.arrayContaining(['band gap', 'bandgap', 'band-gap', 'optical gap', 'energy gap']));
    expect(bandGap.symbols).toEqual(expect.arrayContaining(['Eg', 'E_g', 'Egap']));
  });

  it('adds a valid user schema and lets a user schema replace a built-in one of the same name', () => {
    const schemas = loadPropertySchemas([userSchema, { ...userSchema, name: 'band_gap', label: 'My band gap' }]);
    expect(schemas.find((schema) => schema.name === 'thermal_conductivity')?.symbols).toEqual(['κ', 'κL']);
    expect(schemas.filter((schema) => schema.name === 'band_gap').map((schema) => schema.label)).toEqual(['My band gap']);
  });

  it('defaults symbols to none and symbolContext to word', () => {
    const { symbols, ...withoutSymbols } = userSchema;
    expect(symbols).toHaveLength(2);
    expect(parsePropertySchema(withoutSymbols)).toMatchObject({ symbols: [], symbolContext: 'word' });
  });

  it.each([
    ['a name that is not snake case', { name: 'Band Gap' }, /name must be lower-case snake case/],
    ['no synonyms', { synonyms: [] }, /at least one synonym/],
    ['an unknown dimension', { dimension: 'colour' }, /dimension/],
    ['an inverted range', { plausibleRange: { min: 5, max: 1 } }, /min is greater than plausibleRange.max/],
    ['a canonical unit missing from units', { units: ['mW/(m K)'] }, /units must include the canonical unit/],
    ['a missing note', { note: undefined }, /note/],
  ])('rejects a user schema with %s, naming the schema', (_case, change, message) => {
    const bad = { ...userSchema, ...change };
    expect(() => loadPropertySchemas([bad])).toThrow(PropertySchemaError);
    expect(() => loadPropertySchemas([bad])).toThrow(message);
    expect(() => loadPropertySchemas([bad])).toThrow(/property schema "(thermal_conductivity|Band Gap)" is invalid/);
  });

  it('rejects input that is not an object, and two user schemas with one name', () => {
    expect(() => loadPropertySchemas(['band gap'])).toThrow(/property schema #1 is invalid/);
    expect(() => loadPropertySchemas([userSchema, userSchema])).toThrow(/defined twice/);
  });
});

describe('selectPropertySchemas', () => {
  it('selects by name, all when no name is given, and names the known ones on a typo', () => {
    const schemas = loadPropertySchemas();
    expect(selectPropertySchemas(schemas, ['tc']).map((schema) => schema.name)).toEqual(['tc']);
    expect(selectPropertySchemas(schemas, [])).toHaveLength(schemas.length);
    expect(() => selectPropertySchemas(schemas, ['bandgap'])).toThrow(/unknown property "bandgap"; known: band_gap, tc/);
  });
});
