import { describe, expect, it } from 'vitest';
import type { Condition } from '../../../../src/contracts/conditions';
import { conditionMatcher, conditionText, factLine, methodText, OTHER_CONDITION_KINDS } from '../../../../src/ui/shared/fact-conditions';

const conditions: Condition[] = [
  { kind: 'phase', value: 'monolayer' },
  { kind: 'temperature', value: '300 K' },
  { kind: 'direction', value: 'indirect' },
  { kind: 'method', value: 'HSE06' },
];

describe('factLine', () => {
  it('puts the value first, then the conditions method first, then the provenance', () => {
    expect(factLine('2.31 eV', conditions.slice(2), { kind: 'computed' })).toBe('2.31 eV · HSE06 · indirect · computed');
    expect(factLine('0.7 eV', undefined, { kind: 'cited', reference: '[19]' })).toBe('0.7 eV · cited [19]');
    expect(factLine('3.4 eV', [], { kind: 'unknown' })).toBe('3.4 eV');
  });
});

describe('conditionText', () => {
  it('splits the conditions over the table’s columns, the rest in the contract’s order', () => {
    expect(methodText(conditions)).toBe('HSE06');
    expect(conditionText(conditions, ['temperature'])).toBe('300 K');
    expect(conditionText(conditions, ['pressure'])).toBe('');
    expect(conditionText(conditions, OTHER_CONDITION_KINDS)).toBe('indirect · monolayer');
    expect(OTHER_CONDITION_KINDS).not.toContain('method');
    expect(OTHER_CONDITION_KINDS).toContain('other');
  });
});

describe('conditionMatcher', () => {
  const row = (values: Condition[], provenance?: { kind: 'measured' | 'computed' | 'cited' | 'unknown' }) => ({
    conditions: values,
    ...(provenance && { provenance }),
  });
  it('asks nothing for an empty filter', () => {
    expect(conditionMatcher({ method: ' ', provenance: '' })).toBeUndefined();
  });

  it('matches the start of a method in any case and spelling of its separators', () => {
    const matches = conditionMatcher({ method: 'gga/pbe', provenance: '' })!;
    expect(matches(row([{ kind: 'method', value: 'GGA-PBE' }]))).toBe(true);
    expect(matches(row([{ kind: 'method', value: 'HSE06' }]))).toBe(false);
    // Only a method condition counts, not the same words under another kind.
    expect(matches(row([{ kind: 'other', value: 'GGA-PBE' }]))).toBe(false);
    expect(conditionMatcher({ method: 'hse', provenance: '' })!(row(conditions))).toBe(true);
  });

  it('filters by provenance, a row without one being unknown, and "not cited" hides only cited values', () => {
    const cited = row([], { kind: 'cited' });
    const computed = row([], { kind: 'computed' });
    const none = row([]);
    const only = conditionMatcher({ method: '', provenance: 'cited' })!;
    expect([cited, computed, none].map(only)).toEqual([true, false, false]);
    const hide = conditionMatcher({ method: '', provenance: 'not_cited' })!;
    expect([cited, computed, none].map(hide)).toEqual([false, true, true]);
    const unknown = conditionMatcher({ method: '', provenance: 'unknown' })!;
    expect([cited, computed, none].map(unknown)).toEqual([false, false, true]);
  });
});
