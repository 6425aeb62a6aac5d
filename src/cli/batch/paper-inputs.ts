/**
 * The papers of a batch from what the command line names: files (taken whatever their name:
 * capture detects the type from the content), folders (walked for documents capture reads) and
 * glob patterns (tinyglobby, since node:fs glob needs Node 22).
 */
import { stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';
import { glob, isDynamicPattern } from 'tinyglobby';
import { fileKindWords } from '../../capture/node/regular-file';

/** File name endings a folder walk takes: HTML, XHTML, XML (JATS, Elsevier, ACS), PDF and plain text. */
export const PAPER_EXTENSIONS = ['html', 'htm', 'xhtml', 'xml', 'pdf', 'txt'] as const;

const FOLDER_PATTERN = `**/*.{${PAPER_EXTENSIONS.join(',')}}`;

/** The batch's papers: distinct paths in a stable order, and inputs that named nothing (usage problems, in words). */
export interface PaperInputs {
  /** Paths as shown to the reader: relative to `cwd` when inside it, else absolute. */
  files: string[];
  problems: string[];
}

function shown(path: string, cwd: string): string {
  const fromCwd = relative(cwd, path);
  return fromCwd !== '' && !fromCwd.startsWith('..') && !isAbsolute(fromCwd) ? fromCwd : path;
}

/**
 * Expand `inputs` (relative to `cwd`): an existing file is one paper; an existing folder gives
 * every file under it ending in one of `PAPER_EXTENSIONS` (any case; hidden files and folders
 * are left out, symbolic links are not followed); anything else with glob characters is a
 * pattern (hidden files left out). Paths are de-duplicated by their resolved path, in the order
 * the inputs give them, each folder's and pattern's matches sorted. An input that names nothing
 * (a missing path, a folder or pattern with no document) is a problem, and so is a path that
 * is neither a file nor a folder (a FIFO, socket or device, or a link to one). `exclude` (resolved
 * paths, e.g. the batch's own output) is never a paper. Never throws for a missing path.
 */
export async function collectPaperFiles(inputs: readonly string[], cwd: string, exclude: readonly string[] = []): Promise<PaperInputs> {
  const seen = new Set(exclude.map((path) => resolve(cwd, path)));
  const files: string[] = [];
  const problems: string[] = [];
  const add = (absolute: string): boolean => {
    if (seen.has(absolute)) return false;
    seen.add(absolute);
    files.push(shown(absolute, cwd));
    return true;
  };
  for (const input of inputs) {
    const absolute = resolve(cwd, input);
    let kind: 'file' | 'folder' | null = null;
    let special: string | null = null;
    try {
      const info = await stat(absolute);
      kind = info.isDirectory() ? 'folder' : info.isFile() ? 'file' : null;
      if (kind === null) special = fileKindWords(info);
    } catch {
      kind = null;
    }
    if (special !== null) {
      problems.push(`${input} is ${special}, not a regular file: Assay reads only regular files`);
      continue;
    }
    if (kind === 'file') {
      add(absolute);
      continue;
    }
    let matches: string[];
    if (kind === 'folder') {
      matches = await glob(FOLDER_PATTERN, {
        cwd: absolute,
        absolute: true,
        caseSensitiveMatch: false,
        dot: false,
        followSymbolicLinks: false,
      });
    } else if (isDynamicPattern(input)) {
      matches = await glob(input, { cwd, absolute: true, dot: false, onlyFiles: true });
    } else {
      problems.push(`no such file or folder: ${input}`);
      continue;
    }
    matches.sort();
    for (const match of matches) add(match);
    if (matches.length === 0)
      problems.push(
        kind === 'folder'
          ? `no documents in ${input} (looked for ${PAPER_EXTENSIONS.map((extension) => `.${extension}`).join(', ')})`
          : `no file matches ${input}`,
      );
  }
  return { files, problems };
}
