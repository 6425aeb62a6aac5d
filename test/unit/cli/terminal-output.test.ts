import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { terminalSafe } from '../../../src/cli/terminal-output';

/** What a terminal would act on: C0 controls but tab and line feed, DEL, C1, bidi overrides and isolates. */
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

describe('terminal-safe output', () => {
  it('writes control characters as visible escapes, keeping JSON valid and equal (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.string(), (value, text) => {
        const json = JSON.stringify({ value, text: `${text}\u001b[2J\u009b\u202e` });
        const safe = terminalSafe(json);
        expect(UNSAFE.test(safe)).toBe(false);
        expect(JSON.parse(safe)).toEqual(JSON.parse(json));
      }),
    );
    expect(terminalSafe('title\u001b]0;owned\u0007\tend\n')).toBe('title\\u001b]0;owned\\u0007\tend\n');
  });
});
