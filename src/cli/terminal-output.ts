/**
 * What the command line prints comes partly from documents (titles, quotes, error details that
 * quote a file) and from files the user passes, all untrusted. A control character printed raw
 * is an instruction to the terminal (`ESC ] 0 ;` retitles the window, `ESC [ 2 J` clears the
 * screen, a bidi override reorders what the reader sees), so every write to stdout and stderr
 * goes through `terminalSafe`. Capture already strips control characters from what it keeps;
 * this is the last guard for everything else.
 */

/**
 * C0 controls except tab and line feed, DEL, C1 controls, and the bidirectional embedding,
 * override and isolate characters (U+202A–U+202E, U+2066–U+2069).
 */
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * `text` with every unsafe character written as a visible `\uXXXX` escape. In JSON output the
 * escape is the JSON escape of the same character (such characters only occur inside strings),
 * so `--json` output stays valid and means the same.
 */
export function terminalSafe(text: string): string {
  return text.replace(UNSAFE, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The slice of a writable stream that is guarded. */
interface WritableLike {
  write: (chunk: never, ...rest: never[]) => boolean;
}

/** Each guarded stream's own `write`, for `unguardedTerminal`. */
const ownWrites = new WeakMap<object, WritableLike['write']>();

/**
 * Route every write to `streams` (strings, or UTF-8 bytes) through `terminalSafe` until the
 * returned function is called, which restores the streams' own `write`.
 */
export function guardTerminalOutput(...streams: WritableLike[]): () => void {
  const originals = streams.map((stream) => stream.write);
  streams.forEach((stream, index) => {
    ownWrites.set(stream, originals[index]!);
    const write = originals[index]!;
    stream.write = ((chunk: unknown, ...rest: unknown[]) => {
      const text = typeof chunk === 'string' ? chunk : chunk instanceof Uint8Array ? new TextDecoder().decode(chunk) : chunk;
      return (write as (chunk: unknown, ...rest: unknown[]) => boolean).call(
        stream,
        typeof text === 'string' ? terminalSafe(text) : text,
        ...rest,
      );
    }) as WritableLike['write'];
  });
  return () =>
    streams.forEach((stream, index) => {
      stream.write = originals[index]!;
      ownWrites.delete(stream);
    });
}

/** The part of a terminal stream a progress bar draws on. */
export interface TerminalLike {
  isTTY: boolean;
  columns: number | undefined;
  write(text: string): boolean;
}

/**
 * A view of the terminal `stream` whose writes skip the `terminalSafe` guard, for a progress bar
 * that must send its own cursor-control sequences. Only text Assay composes may go through it
 * (numbers, fixed words): anything from a document or a file name must be passed through
 * `terminalSafe` by the caller first.
 */
export function unguardedTerminal(stream: NodeJS.WriteStream): TerminalLike {
  return {
    get isTTY() {
      return stream.isTTY === true;
    },
    get columns() {
      return stream.columns;
    },
    write: (text: string) => {
      const write = (ownWrites.get(stream) ?? stream.write) as (chunk: string) => boolean;
      return write.call(stream, text);
    },
  };
}
