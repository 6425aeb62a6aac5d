/**
 * `[unreadable]` passed JavaScript's own messages ("Invalid string length") to the reader (issue
 * 27, item 12): engine and system errors are now said in words, with the limit they hit.
 */
import { describe, expect, it } from 'vitest';
import { toCaptureFailure } from '../../../src/capture/errors';
import { readErrorWords } from '../../../src/capture/read-error-words';

/** What V8 itself throws when a string would pass its longest length (2^29 − 24 code units). */
function engineStringLimitError(): unknown {
  try {
    // Two strings of 2^28 characters joined: one past V8's longest string.
    const half = 'x'.repeat(2 ** 28);
    return `${half}${half}`.length;
  } catch (error) {
    return error;
  }
}

describe('read errors in words', () => {
  it('says a RangeError "Invalid string length" is a file too large to read as text, code too-large', () => {
    const error = engineStringLimitError();
    expect(error).toBeInstanceOf(RangeError);
    const failure = toCaptureFailure(error);
    expect(failure).toEqual({
      code: 'too-large',
      message:
        'Could not read the document: the file is too large to read as text (over ~512 MB of text, the longest text JavaScript can hold).',
    });
    expect(failure.message).not.toContain('Invalid string length');
  });

  it('words Node system errors by their code and the File API errors by their name', () => {
    const nodeError = (code: string, message: string) => Object.assign(new Error(message), { code });
    expect(readErrorWords(nodeError('EACCES', "EACCES: permission denied, open '/x'"))).toBe(
      'permission denied: this user may not read the file',
    );
    expect(readErrorWords(nodeError('ERR_FS_FILE_TOO_LARGE', 'File size (3221225472) is greater than 2 GiB'))).toBe(
      'the file is over 2 GiB, more than can be read at once',
    );
    expect(readErrorWords(new DOMException('The requested file could not be read', 'NotReadableError'))).toMatch(
      /^the file could not be read back/,
    );
    expect(readErrorWords(new RangeError('Maximum call stack size exceeded'))).toMatch(/^the file is nested too deeply/);
  });

  it('marks anything else as unexpected, on one line, keeping its name and message', () => {
    expect(toCaptureFailure(new TypeError('x is not\n a function'))).toEqual({
      code: 'unreadable',
      message: 'Could not read the document: an unexpected error (TypeError: x is not a function).',
    });
  });
});
