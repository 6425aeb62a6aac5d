import { parseArgs } from 'node:util';
import type { Article } from '../contracts/article';
import { captureDocument } from '../capture/capture-document';
import { CaptureError, toCaptureFailure } from '../capture/errors';
import { nodeDomParser } from '../capture/node/node-dom';
import { NotRegularFileError, readRegularFile, regularFileStat } from '../capture/node/regular-file';
import { judgeInChromium, partialCheckWarning } from '../capture/node/chromium-visibility';
import { describeReadError } from '../capture/read-error-words';
import { MAX_PDF_BYTES } from '../capture/capture-pdf-document';

/**
 * Read a file into bytes, turning a missing or unreadable path into a `CaptureError`, anything
 * but a regular file (a folder, FIFO, device, or a link to one: `readRegularFile`) into
 * `unsupported-type` before opening it, and a file over the largest size capture accepts
 * (`MAX_PDF_BYTES`) into `too-large` before reading it. Any other read error is said in words
 * (`describeReadError`: EACCES → "permission denied: this user may not read the file").
 */
export async function readInputFile(path: string): Promise<Uint8Array> {
  try {
    const { size } = await regularFileStat(path);
    if (size > MAX_PDF_BYTES) {
      const megabytes = (bytes: number): string => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
      throw new CaptureError(
        'too-large',
        `${path} is ${megabytes(size)}, over the ${megabytes(MAX_PDF_BYTES)} limit of any document capture reads.`,
      );
    }
    return new Uint8Array(await readRegularFile(path));
  } catch (error) {
    if (error instanceof CaptureError) throw error;
    if (error instanceof NotRegularFileError) throw new CaptureError('unsupported-type', error.message);
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new CaptureError('not-found', `No such file: ${path}`);
    if (code === 'EISDIR') throw new CaptureError('unsupported-type', `${path} is a directory, not a file.`);
    const { words, tooLarge } = describeReadError(error);
    throw new CaptureError(tooLarge ? 'too-large' : 'unreadable', `Cannot read ${path}: ${words}.`);
  }
}

/** How `captureFile` judges what an HTML file hides. */
export interface CaptureFileOptions {
  /**
   * `chromium`: in headless Chromium with the extension's live-page judge when it can
   * (`judgeInChromium`), else by style rules with a warning that the check was partial. `off`:
   * by style rules, with a warning that the check was turned off. Absent: by markup and
   * `<style>` rules, no warning (evaluations and benches, whose figures are the style rules').
   */
  browser?: 'chromium' | 'off';
}

/** Capture a file from disk (type detected from content) into a validated `Article`. */
export async function captureFile(path: string, url?: string | null, options: CaptureFileOptions = {}): Promise<Article> {
  const bytes = await readInputFile(path);
  const judgeHtml =
    options.browser === 'chromium'
      ? (text: string) => judgeInChromium(path, text)
      : options.browser === 'off'
        ? async () => ({ warning: partialCheckWarning('the browser check was turned off (--no-browser or ASSAY_BROWSER=0)') })
        : undefined;
  return captureDocument(bytes, { domParser: nodeDomParser(), url: url ?? null, judgeHtml });
}

/** The browser check `assay capture` and `assay extract` ask for: on, unless `--no-browser` or `ASSAY_BROWSER=0`. */
export function browserCheck(noBrowser: boolean | undefined, env: NodeJS.ProcessEnv = process.env): CaptureFileOptions {
  return { browser: noBrowser || env['ASSAY_BROWSER'] === '0' ? 'off' : 'chromium' };
}

/** A short human summary of a captured article (what `assay capture` prints without --json). */
export function summarizeArticle(article: Article): string {
  const counts = new Map<string, number>();
  for (const block of article.blocks) counts.set(block.kind, (counts.get(block.kind) ?? 0) + 1);
  const blockSummary = [...counts].map(([kind, count]) => `${count} ${kind}`).join(', ');
  const lines = [
    `title:    ${article.title}`,
    `doi:      ${article.doi ?? '(none found)'}${article.doiOrigin ? ` [${article.doiOrigin}]` : ''}`,
    `authors:  ${article.authors.length ? article.authors.slice(0, 6).join('; ') + (article.authors.length > 6 ? ` … (${article.authors.length})` : '') : '(none found)'}`,
    `journal:  ${[article.journal ?? '-', article.volume && `vol. ${article.volume}`, article.pages && `${article.pages.includes('-') ? 'pp.' : 'p.'} ${article.pages}`].filter(Boolean).join(', ')}${article.year ? ` (${article.year})` : ''}`,
    `source:   ${article.source} via ${article.adapter}${article.pageCount ? `, ${article.pageCount} pages` : ''}`,
    `blocks:   ${article.blocks.length} (${blockSummary || 'none'}), ${article.text.length} characters`,
  ];
  if (article.abstractOnly && article.blocks.length === 0) lines.push('note:     metadata only: no abstract and no text on this page');
  else if (article.abstractOnly) lines.push('note:     abstract only (landing page or paywall): no full text on this page');
  for (const warning of article.warnings) lines.push(`warning:  ${warning}`);
  return lines.join('\n') + '\n';
}

/**
 * `assay capture <file> [--json] [--url URL] [--no-browser]`. An HTML file is judged for hidden
 * text in headless Chromium when it is installed (`ASSAY_CHROMIUM`, else /usr/bin/chromium),
 * unless `--no-browser`. Returns the exit code.
 */
export async function runCapture(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { json: { type: 'boolean' }, url: { type: 'string' }, 'no-browser': { type: 'boolean' } },
    });
  } catch (error) {
    process.stderr.write(`assay capture: ${(error as Error).message}\n`);
    return 2;
  }
  const [path] = parsed.positionals;
  if (!path || parsed.positionals.length > 1) {
    process.stderr.write('assay capture: give exactly one file: assay capture <file> [--json]\n');
    return 2;
  }
  try {
    const article = await captureFile(path, parsed.values.url, browserCheck(parsed.values['no-browser']));
    process.stdout.write(parsed.values.json ? JSON.stringify(article) + '\n' : summarizeArticle(article));
    return 0;
  } catch (error) {
    const failure = toCaptureFailure(error);
    process.stderr.write(`assay capture: ${path}: ${failure.message} [${failure.code}]\n`);
    return 1;
  }
}
