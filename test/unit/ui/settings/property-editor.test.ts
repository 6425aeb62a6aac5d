import { describe, expect, it } from 'vitest';
import {
  EMPTY_PROPERTY_DRAFT,
  PROPERTY_DIMENSIONS,
  propertyFromDraft,
  USER_PROPERTY_NOTE,
  type PropertyDraft,
} from '../../../../src/ui/settings/property-editor-model';
import { readUserProperties } from '../../../../src/extension/stored-settings';

const draft: PropertyDraft = {
  name: 'thermal_conductivity',
  label: 'Thermal conductivity',
  synonyms: 'thermal conductivity, κ value , ',
  unit: 'W/(m·K)',
  min: '0.01',
  max: '3000',
  dimension: 'energy',
  questions: [],
};

describe('propertyFromDraft', () => {
  it('builds a schema the built-in loader would accept', () => {
    expect(propertyFromDraft(draft, ['band_gap'])).toEqual({
      ok: true,
      property: {
        name: 'thermal_conductivity',
        label: 'Thermal conductivity',
        synonyms: ['thermal conductivity', 'κ value'],
        symbols: [],
        symbolContext: 'word',
        contextualSynonyms: [],
        contextualExclusions: [],
        dimension: 'energy',
        canonicalUnit: 'W/(m·K)',
        units: ['W/(m·K)'],
        plausibleRange: { min: 0.01, max: 3000 },
        note: USER_PROPERTY_NOTE,
        questions: [],
      },
    });
  });

  it('keeps a display unit the unit converts to, refuses one of another dimension, and leaves a blank one out', () => {
    const meV = { ...draft, name: 'exchange_splitting', unit: 'meV', dimension: 'energy' as const };
    const shown = propertyFromDraft({ ...meV, displayUnit: ' eV ' }, []);
    expect(shown.ok && shown.property.displayUnit).toBe('eV');
    expect(propertyFromDraft({ ...meV, displayUnit: 'K' }, [])).toEqual({
      ok: false,
      problems: ['Display unit: "K" is not a unit "meV" converts to; leave it blank to show values in meV.'],
    });
    const blank = propertyFromDraft({ ...meV, displayUnit: '' }, []);
    expect(blank.ok && 'displayUnit' in blank.property).toBe(false);
  });

  it('reads verification questions: lists split on commas, blank drafts dropped, ids from the words, never a built-in id', () => {
    const result = propertyFromDraft(
      {
        ...draft,
        questions: [
          { question: ' Was the value measured on a single crystal? ', choices: 'yes, no, ', expected: 'yes' },
          { question: '', choices: ' ', expected: '' },
          { question: 'Origin?', choices: '', expected: '' },
          { question: 'Was the value measured on a thin film?', choices: 'yes,no', expected: '' },
        ],
      },
      [],
    );
    expect(result.ok && result.property.questions).toEqual([
      { id: 'was_the_value_measured', question: 'Was the value measured on a single crystal?', choices: ['yes', 'no'], expected: ['yes'] },
      { id: 'origin_2', question: 'Origin?', choices: [], expected: [] },
      { id: 'was_the_value_measured_2', question: 'Was the value measured on a thin film?', choices: ['yes', 'no'], expected: [] },
    ]);
  });

  it('names a question’s problems by its place in the form', () => {
    const result = propertyFromDraft(
      {
        ...draft,
        questions: [
          { question: 'Single crystal?', choices: 'yes, no', expected: 'maybe' },
          { question: ' ', choices: 'a', expected: '' },
        ],
      },
      [],
    );
    expect(result).toEqual({
      ok: false,
      problems: ['Question 1: expected answer "maybe" is not one of the choices', 'Question 2: must not be blank'],
    });
  });

  it('accepts a typographic minus in the range', () => {
    const result = propertyFromDraft({ ...draft, min: '−273.15', max: '0' }, []);
    expect(result.ok && result.property.plausibleRange).toEqual({ min: -273.15, max: 0 });
  });

  it('gives zod’s messages named by field', () => {
    const result = propertyFromDraft({ ...draft, name: 'Thermal Conductivity', label: ' ', synonyms: ' , ', min: '10', max: '1' }, []);
    expect(result).toEqual({
      ok: false,
      problems: [
        'Name: name must be lower-case snake case, e.g. "band_gap"',
        'Label: must not be blank',
        'Synonyms: give at least one synonym (the name as written in papers)',
        'Plausible range: plausibleRange.min is greater than plausibleRange.max',
      ],
    });
  });

  it('asks for numbers for the range and one line about a blank unit', () => {
    const result = propertyFromDraft({ ...EMPTY_PROPERTY_DRAFT, name: 'x', label: 'X', synonyms: 'x', min: 'low' }, []);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toEqual([
      'Plausible range: give the minimum as a number, e.g. 0.',
      'Plausible range: give the maximum as a number, e.g. 10.',
      'Unit: must not be blank',
    ]);
  });

  it('refuses a name already used', () => {
    expect(propertyFromDraft({ ...draft, name: 'band_gap' }, ['band_gap', 'tc'])).toEqual({
      ok: false,
      problems: ['Name: a property named "band_gap" already exists; choose another name.'],
    });
  });

  it('offers every dimension the schema knows', () => {
    expect(PROPERTY_DIMENSIONS).toContain('temperature');
    expect(PROPERTY_DIMENSIONS).toHaveLength(7);
  });
});

describe('readUserProperties', () => {
  it('keeps valid entries once each and drops the rest', () => {
    const valid = propertyFromDraft(draft, []);
    if (!valid.ok) throw new Error('fixture');
    expect(readUserProperties([valid.property, { name: 'Bad' }, valid.property, 42])).toEqual([valid.property]);
    expect(readUserProperties({ thermal_conductivity: valid.property })).toEqual([]);
    expect(readUserProperties(undefined)).toEqual([]);
  });

  it('keeps at most 50 (the run settings’ limit)', () => {
    const valid = propertyFromDraft(draft, []);
    if (!valid.ok) throw new Error('fixture');
    const many = Array.from({ length: 60 }, (_, index) => ({ ...valid.property, name: `p${index}` }));
    const read = readUserProperties(many);
    expect(read).toHaveLength(50);
    expect(read.at(-1)?.name).toBe('p49');
  });
});
