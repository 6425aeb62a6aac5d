/**
 * Finding the JSON value inside a model's reply. Small models wrap JSON in prose or code fences;
 * this pulls it out WITHOUT fixing it: trailing commas, single quotes, comments and truncation are
 * left for the repair call (`generateObject`), because silently patching them would hide how often
 * a model misbehaves and could turn a garbled reply into a plausible-looking wrong one.
 */

export type JsonExtraction = { ok: true; value: unknown } | { ok: false; problem: string };

/**
 * Tries, in order: the whole reply; each fenced block (```json … ``` or ``` … ```); then each
 * balanced `{…}` / `[…]` span found by scanning from the first opening bracket (string-aware).
 * Returns the first candidate that `JSON.parse` accepts.
 */
export function extractJson(text: string): JsonExtraction {
  const candidates: string[] = [text.trim()];
  for (const match of text.matchAll(/```[a-zA-Z]*[ \t]*\r?\n?([\s\S]*?)```/g)) {
    candidates.push((match[1] ?? '').trim());
  }
  candidates.push(...balancedSpans(text));
  let firstProblem: string | undefined;
  for (const candidate of candidates) {
    if (candidate === '') continue;
    try {
      return { ok: true, value: JSON.parse(candidate) };
    } catch (error) {
      firstProblem ??= error instanceof Error ? error.message : String(error);
    }
  }
  if (text.trim() === '') return { ok: false, problem: 'the reply was empty' };
  return { ok: false, problem: `the reply is not valid JSON (${firstProblem ?? 'no JSON object or array found'})` };
}

/** Every top-level balanced bracket span, left to right; at most 8 so a long prose reply stays cheap. */
function balancedSpans(text: string): string[] {
  const spans: string[] = [];
  let searchFrom = 0;
  while (spans.length < 8) {
    const start = text.slice(searchFrom).search(/[{[]/);
    if (start < 0) break;
    const absoluteStart = searchFrom + start;
    const end = matchingClose(text, absoluteStart);
    if (end < 0) {
      // Unbalanced (e.g. truncated output): still offer the tail so the parser names the problem.
      spans.push(text.slice(absoluteStart));
      break;
    }
    spans.push(text.slice(absoluteStart, end + 1));
    // Continue AFTER the span: offering a nested object on its own could turn a broken outer
    // value into a well-formed but wrong inner one.
    searchFrom = end + 1;
  }
  return spans;
}

/** Where a string-aware bracket scan ended (`scanBrackets`). */
interface BracketScan {
  /** Index of the bracket that closed the first top-level value, when the scan stopped there; else -1. */
  closedAt: number;
  /** Brackets still open where the scan ended. */
  open: number;
  /** Whether the scan ended inside a JSON string. */
  inString: boolean;
  /** A bracket closed the wrong kind (`{ ]`): the scan stopped there. */
  mismatched: boolean;
}

/**
 * Scan `text` from `start`, ignoring brackets inside JSON strings. Between top-level values only an
 * opening bracket counts (prose after a closed object is skipped). With `untilFirstClose`, stop
 * at the bracket that closes the first top-level value. Shared by `matchingClose` and `unclosedJson`.
 */
function scanBrackets(text: string, start: number, untilFirstClose: boolean): BracketScan {
  const stack: string[] = [];
  let inString = false;
  for (let index = start; index < text.length; index += 1) {
    const character = text[index];
    if (inString) {
      if (character === '\\') index += 1;
      else if (character === '"') inString = false;
      continue;
    }
    const opening = character === '{' ? '}' : character === '[' ? ']' : undefined;
    if (opening) stack.push(opening);
    else if (stack.length === 0) continue;
    else if (character === '"') inString = true;
    else if (character === '}' || character === ']') {
      if (stack.pop() !== character) return { closedAt: -1, open: stack.length, inString, mismatched: true };
      if (stack.length === 0 && untilFirstClose) return { closedAt: index, open: 0, inString, mismatched: false };
    }
  }
  return { closedAt: -1, open: stack.length, inString, mismatched: false };
}

/** Index of the bracket closing the one at `start`, ignoring brackets inside JSON strings; -1 if none. */
function matchingClose(text: string, start: number): number {
  return scanBrackets(text, start, true).closedAt;
}

/**
 * How a reply's JSON was left open, when it was: scanning from its first `{` or `[` (string-aware,
 * like `extractJson`'s spans), the brackets still open at the end of `text` and whether it ended
 * inside a string. Null when every bracket closed, when there is no bracket at all, or when a
 * bracket closed the wrong kind (that reply is invalid, not unfinished). The mark of a reply the
 * model stopped early or that max_tokens cut.
 */
export function unclosedJson(text: string): { open: number; inString: boolean } | null {
  const start = text.search(/[{[]/);
  if (start < 0) return null;
  const scan = scanBrackets(text, start, false);
  return !scan.mismatched && scan.open > 0 ? { open: scan.open, inString: scan.inString } : null;
}
