/**
 * Reading a file named on the command line only when it is a regular file (issue 27, item 9): a
 * named pipe (FIFO) blocked `readFile` forever, and a link to /dev/zero read gigabytes. Every
 * command that reads a path it was given (capture, scan, extract, verify, import, export, eval's
 * data and prediction files, precedent's tables) goes through here.
 *
 * The kind is read with `stat` (links followed) before the file is opened, so no device is ever
 * opened (opening some, such as a watchdog, acts). The file is then opened without blocking
 * (O_NONBLOCK: a FIFO swapped in meanwhile cannot hang the open) and its kind checked again on
 * the open handle before anything is read.
 */
import { constants, type Stats } from 'node:fs';
import { lstat, open, readlink, stat } from 'node:fs/promises';

/** A path that is not a regular file (a folder, FIFO, socket or device, or a link to one); the message says which, in one line. */
export class NotRegularFileError extends Error {
  override readonly name = 'NotRegularFileError';
  /** As Node's own errors carry one, so callers that switch on `code` can tell it apart. */
  readonly code = 'ENOTREGULAR';
}

/** What `info` is, in words: "a named pipe (FIFO)", "a character device", "a folder", …; null for a regular file. */
export function fileKindWords(info: Stats): string | null {
  if (info.isFile()) return null;
  if (info.isDirectory()) return 'a folder';
  if (info.isFIFO()) return 'a named pipe (FIFO)';
  if (info.isCharacterDevice()) return 'a character device';
  if (info.isBlockDevice()) return 'a block device';
  if (info.isSocket()) return 'a socket';
  return 'not a file';
}

async function notRegular(path: string, info: Stats): Promise<NotRegularFileError> {
  const kind = fileKindWords(info) ?? 'not a file';
  const link = await lstat(path).then(
    (own) => own.isSymbolicLink(),
    () => false,
  );
  const target = link ? await readlink(path).catch(() => null) : null;
  const what = target !== null ? `links to ${target}, ${kind}` : `is ${kind}`;
  return new NotRegularFileError(`${path} ${what}, not a regular file: Assay reads only regular files.`);
}

/**
 * `stat(path)` (links followed) when it is a regular file. Throws `NotRegularFileError` for
 * anything else, and `stat`'s own error (ENOENT, EACCES, ELOOP) when there is nothing to stat.
 */
export async function regularFileStat(path: string): Promise<Stats> {
  const info = await stat(path);
  if (!info.isFile()) throw await notRegular(path, info);
  return info;
}

/**
 * The bytes (or, with `encoding`, the text) of the regular file `path`, checked before it is
 * opened and again on the open handle. Throws `NotRegularFileError` (one line naming the kind)
 * for a folder, FIFO, socket or device, or a link to one; I/O errors as `fs.readFile` throws them.
 */
export async function readRegularFile(path: string): Promise<Buffer>;
export async function readRegularFile(path: string, encoding: BufferEncoding): Promise<string>;
export async function readRegularFile(path: string, encoding?: BufferEncoding): Promise<Buffer | string> {
  await regularFileStat(path);
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw await notRegular(path, info);
    return encoding ? await handle.readFile({ encoding }) : await handle.readFile();
  } finally {
    await handle.close();
  }
}
