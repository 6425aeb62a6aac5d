/**
 * JavaScript's and Node's own errors from reading a file, in words for the reader (issue 27,
 * item 12): "Invalid string length" says nothing to someone who gave a 600 MB text file. Each
 * known engine limit is named with its size; an error nothing here knows keeps its name and
 * message, marked as unexpected, so it can still be reported.
 */

/** Node's limit on `fs.readFile` into one buffer (`ERR_FS_FILE_TOO_LARGE`): 2 GiB. */
const READ_FILE_LIMIT = '2 GiB';

/**
 * The longest string V8 (Chrome, Node) holds is 2^29 − 24 UTF-16 code units on 64-bit builds
 * (`v8::String::kMaxLength`), about 512 M characters; building a longer one throws
 * `RangeError: Invalid string length`.
 */
const TOO_LONG_TEXT = 'the file is too large to read as text (over ~512 MB of text, the longest text JavaScript can hold)';

/** RangeError messages of V8, what each means for a file being read, and whether it is a size limit. */
const RANGE_ERRORS: ReadonlyArray<{ pattern: RegExp; words: string; tooLarge: boolean }> = [
  { pattern: /invalid string length/i, words: TOO_LONG_TEXT, tooLarge: true },
  {
    pattern: /array buffer allocation failed|invalid (?:typed )?array(?: buffer)? length|out of memory/i,
    words: 'reading the file needs more memory than is free (the file, or what it unpacks to, is too large)',
    tooLarge: true,
  },
  {
    pattern: /maximum call stack size exceeded/i,
    words: 'the file is nested too deeply to read (structures inside structures, thousands of levels down)',
    tooLarge: false,
  },
];

/** Node system error codes (errno) and what each means for a file being read. */
const SYSTEM_ERRORS: Readonly<Record<string, string>> = {
  EACCES: 'permission denied: this user may not read the file',
  EPERM: 'permission denied: this user may not read the file',
  EIO: 'the disk reported an input/output error while reading the file',
  EMFILE: 'too many files are open at once; try again with fewer',
  ENFILE: 'too many files are open at once; try again with fewer',
  ENOMEM: 'reading the file needs more memory than is free',
  ELOOP: 'the path is a loop of symbolic links',
  ENAMETOOLONG: 'the path is too long',
  ERR_FS_FILE_TOO_LARGE: `the file is over ${READ_FILE_LIMIT}, more than can be read at once`,
  ERR_STRING_TOO_LONG: TOO_LONG_TEXT,
};

/** DOMException names of the File API (https://w3c.github.io/FileAPI/#failureReason) and what each means. */
const DOM_ERRORS: Readonly<Record<string, string>> = {
  NotReadableError: 'the file could not be read back (it was changed, moved or deleted after it was chosen, or access was lost)',
  NotFoundError: 'the file is no longer there (moved or deleted after it was chosen)',
  SecurityError: 'the browser does not allow reading this file',
};

/** A read error in words, and whether it is a size limit (the file, or what it unpacks to, is too large). */
export interface ReadErrorWords {
  words: string;
  tooLarge: boolean;
}

const TOO_LARGE_CODES = new Set(['ERR_FS_FILE_TOO_LARGE', 'ERR_STRING_TOO_LONG', 'ENOMEM']);

/**
 * Why reading failed, in words, from whatever was thrown: a V8 limit (`RangeError` "Invalid
 * string length" → "the file is too large to read as text (over ~512 MB of text …)"; allocation
 * failures; stack overflow from deep nesting), a Node system error by its `code` (EACCES, EIO,
 * ERR_FS_FILE_TOO_LARGE …), a File API DOMException by its name (NotReadableError …), else "an
 * unexpected error (Name: message)" on one line. `tooLarge` is set for the size and memory
 * limits. Never throws.
 */
export function describeReadError(error: unknown): ReadErrorWords {
  const code = error instanceof Object && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
  if (code !== undefined && SYSTEM_ERRORS[code] !== undefined) return { words: SYSTEM_ERRORS[code], tooLarge: TOO_LARGE_CODES.has(code) };
  const name = error instanceof Object && 'name' in error && typeof error.name === 'string' ? error.name : '';
  if (DOM_ERRORS[name] !== undefined) return { words: DOM_ERRORS[name], tooLarge: false };
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof RangeError || /^(?:invalid string length|array buffer allocation failed)/i.test(message)) {
    const known = RANGE_ERRORS.find(({ pattern }) => pattern.test(message));
    if (known) return { words: known.words, tooLarge: known.tooLarge };
  }
  const label = name !== '' && name !== 'Error' ? `${name}: ` : '';
  const oneLine = message.replace(/\s*\n\s*/g, ' ').trim();
  return { words: `an unexpected error (${label}${oneLine || 'no message'})`, tooLarge: false };
}

/** `describeReadError(error).words`. */
export function readErrorWords(error: unknown): string {
  return describeReadError(error).words;
}
