import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CAPTURED_TEXT_LIMITS, capturedString, stripControlCharacters } from '../../../src/contracts/captured-text';

/** Every C0 control but tab and line feed, DEL and every C1 control. */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

describe('stripControlCharacters', () => {
  it('removes escape sequences whole, turns separating controls into spaces, and leaves tabs, line feeds and text alone (property)', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const plain = text.replace(/[\u0000-\u001f\u007f-\u009f]/g, '');
        expect(stripControlCharacters(plain)).toBe(plain);
        const cleaned = stripControlCharacters(`${text}\u001b[1;31m${text}\t\n`);
        expect(CONTROL.test(cleaned)).toBe(false);
      }),
    );
    expect(stripControlCharacters('a\u001b[38;5;196mred\u001b[0m\rb\u000bc\u0085d')).toBe('ared b c d');
  });

  it('leaves no unterminated escape able to swallow a paragraph, and reads hostile runs in linear time', () => {
    expect(stripControlCharacters(`a\u001b]0;${'x'.repeat(5_000)}`).length).toBeGreaterThan(3_900);
    const started = performance.now();
    stripControlCharacters('\u001b['.repeat(300_000) + '\u001b]'.repeat(300_000));
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});

describe('capturedString', () => {
  it('cleans a metadata value to one line and bounds its length with an error naming the field', () => {
    const title = capturedString('title', CAPTURED_TEXT_LIMITS.title);
    expect(title.parse(' Band\u001b[1m gaps\r\nof ZnO ')).toBe('Band gaps of ZnO');
    expect(title.safeParse('x'.repeat(2_001)).error?.issues[0]?.message).toBe("title is longer than 2,000 characters: not a paper's title");
  });
});
