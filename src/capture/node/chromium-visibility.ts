/**
 * The command line's live-page visibility check. A saved page judged without layout
 * (`styleRuleVisibility`) misses text hidden by colour, geometry, transforms, `var()`, cascade
 * layers or an external stylesheet. When Chromium is installed, the saved file is opened in it
 * headless — JavaScript off, every request outside the file's own folder aborted — and judged by
 * the extension's own live-page judge (`computedVisibility`, bundled for the page from the same
 * source with esbuild); each hidden element gets an attribute whose name is random per run, and
 * the serialized page is captured in Node with `markedVisibility(attribute)`.
 *
 * playwright-core and esbuild are optional: both are imported only when a check runs, and
 * without them, without Chromium or on any failure the answer is a warning, and capture falls
 * back to the style-rule judge.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { dirname, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Where Chromium is looked for when `ASSAY_CHROMIUM` is not set (Debian's package). */
export const DEFAULT_CHROMIUM = '/usr/bin/chromium';

/**
 * Longest a check may take, launch to serialized page (ms). Launch and judgement of the largest
 * shared fixture (1.5 MB) take about 2 s on the 2-core dev machine (README); a page that needs
 * fifteen times that is better judged by the style rules than waited on.
 */
const CHECK_TIMEOUT_MS = 30_000;

/** The page judged in Chromium: its serialized HTML, whose hidden elements carry `attribute`. */
export interface MarkedPage {
  html: string;
  attribute: string;
  /** Elements marked hidden (their subtrees not counted). */
  hiddenCount: number;
}

/** A check that could not run: why, worded for `Article.warnings`. */
export interface VisibilityFallback {
  warning: string;
}

/** The words every fallback warning starts with (tests and readers look for them). */
export const PARTIAL_CHECK = 'Visibility could only be checked partly';

/** The Chromium to use: `ASSAY_CHROMIUM` when set (a path), else `DEFAULT_CHROMIUM`. */
export function chromiumExecutable(env: NodeJS.ProcessEnv = process.env): string {
  const configured = env['ASSAY_CHROMIUM']?.trim();
  return configured ? configured : DEFAULT_CHROMIUM;
}

/** A fallback warning: the style rules were used, and why. */
export function partialCheckWarning(reason: string): string {
  return (
    `${PARTIAL_CHECK}: ${reason}. Hidden text was judged from the page's markup and <style> rules without layout, ` +
    'so text hidden by colour, position, transforms or external stylesheets may have been captured.'
  );
}

let pageScript: Promise<string> | undefined;

/**
 * `markHidden` (src/capture/html/mark-hidden.ts) bundled for the page as one script that
 * defines `globalThis.__assayMarkHidden`; built once per process with esbuild.
 */
function markHiddenScript(): Promise<string> {
  pageScript ??= (async () => {
    const esbuild = await import('esbuild');
    const entry = fileURLToPath(new URL('../html/mark-hidden.ts', import.meta.url));
    const result = await esbuild.build({
      stdin: {
        contents: `import { markHidden } from ${JSON.stringify(entry)};\nglobalThis.__assayMarkHidden = markHidden;\n`,
        resolveDir: dirname(entry),
        loader: 'ts',
      },
      bundle: true,
      write: false,
      format: 'iife',
      platform: 'browser',
      target: 'chrome110',
      logLevel: 'silent',
    });
    return result.outputFiles[0]!.text;
  })();
  pageScript.catch(() => (pageScript = undefined));
  return pageScript;
}

/**
 * Open the saved page at `path`, whose decoded `text` capture reads, in headless Chromium
 * (`executable`) and mark what it hides.
 * Resolves to the marked page, or to a fallback warning when Chromium is missing or fails
 * (never rejects). Requests for files in the page's folder (its stylesheets and images) are
 * served; every other request is aborted, and the page's scripts never run.
 */
export async function judgeInChromium(
  path: string,
  text: string,
  executable: string = chromiumExecutable(),
): Promise<MarkedPage | VisibilityFallback> {
  if (!existsSync(executable))
    return { warning: partialCheckWarning(`Chromium was not found at ${executable} (set ASSAY_CHROMIUM to its path)`) };
  let playwright: typeof import('playwright-core');
  try {
    playwright = await import('playwright-core');
  } catch {
    return { warning: partialCheckWarning('playwright-core is not installed (npm install playwright-core)') };
  }
  let browser: import('playwright-core').Browser | undefined;
  const timer = new AbortController();
  const timeout = setTimeout(() => timer.abort(), CHECK_TIMEOUT_MS);
  try {
    const script = await markHiddenScript();
    const run = async (): Promise<MarkedPage> => {
      browser = await playwright.chromium.launch({ executablePath: executable, headless: true, timeout: CHECK_TIMEOUT_MS });
      // Launched after the time ran out: the `finally` below has already run.
      if (timer.signal.aborted) await browser.close();
      const context = await browser.newContext({
        javaScriptEnabled: false,
        viewport: { width: 1280, height: 1000 },
        serviceWorkers: 'block',
      });
      const folder = pathToFileURL(dirname(resolve(path)) + sep).href;
      const pageUrl = pathToFileURL(resolve(path)).href;
      await context.route('**/*', (route) => {
        const url = route.request().url();
        // The page itself is the text capture decoded (Chromium would guess a file's encoding its own way).
        if (url === pageUrl) return route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: text });
        return url.startsWith(folder) ? route.continue() : route.abort();
      });
      const page = await context.newPage();
      await page.goto(pageUrl, { waitUntil: 'load', timeout: CHECK_TIMEOUT_MS });
      const attribute = `data-assay-hidden-${randomBytes(6).toString('hex')}`;
      // JavaScript is off for the page; Playwright's evaluate runs in the page's world regardless.
      const hiddenCount = await page.evaluate(`${script}\n;globalThis.__assayMarkHidden(document, window, ${JSON.stringify(attribute)})`);
      const html = await page.content();
      return { html, attribute, hiddenCount: Number(hiddenCount) };
    };
    const aborted = new Promise<never>((_, reject) =>
      timer.signal.addEventListener('abort', () => reject(new Error(`it took over ${CHECK_TIMEOUT_MS / 1000} s`))),
    );
    const running = run();
    // Past the time limit `running` is left to fail when the browser closes: not an unhandled rejection.
    running.catch(() => undefined);
    return await Promise.race([running, aborted]);
  } catch (error) {
    const detail = ((error as Error).message ?? String(error)).split('\n')[0]!.slice(0, 200);
    return { warning: partialCheckWarning(`Chromium could not judge the page (${detail})`) };
  } finally {
    clearTimeout(timeout);
    await (browser as import('playwright-core').Browser | undefined)?.close().catch(() => undefined);
  }
}
