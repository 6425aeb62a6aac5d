/**
 * `assay capture` of a saved page judges hidden text in headless Chromium with the extension's
 * live-page judge: of the 22 hidden variants of issue 27 beside a visible control fact, only the
 * control is captured. Without Chromium (ASSAY_CHROMIUM naming a missing file) or with
 * `--no-browser`, the style rules judge and the article says so in a warning.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../../src/cli/main';
import { DEFAULT_CHROMIUM, PARTIAL_CHECK } from '../../../src/capture/node/chromium-visibility';
import { CONTROL_FACT, HIDDEN_VARIANTS_CSS, hiddenVariantsPage, leakedVariants, lostLookalikes } from '../../support/hidden-variants';

interface CapturedJson {
  title: string;
  text: string;
  warnings: string[];
}

/** Run `assay <argv>` in this process with `env` set; answer the exit code and the parsed --json article. */
async function capture(argv: string[], env: Record<string, string | undefined> = {}): Promise<{ code: number; article?: CapturedJson }> {
  const stdout: string[] = [];
  const saved = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]));
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (stdout.push(String(chunk)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    const code = await main(argv);
    return { code, article: code === 0 ? (JSON.parse(stdout.join('')) as CapturedJson) : undefined };
  } finally {
    vi.restoreAllMocks();
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

let directory: string;
let page: string;

beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), 'assay-hidden-cli-'));
  page = join(directory, 'variants.html');
  writeFileSync(page, hiddenVariantsPage('10.5555/hidden.cli.1'));
  writeFileSync(join(directory, 'hidden-variants.css'), HIDDEN_VARIANTS_CSS);
});

afterAll(() => {
  if (directory) rmSync(directory, { recursive: true, force: true });
});

describe.skipIf(!existsSync(DEFAULT_CHROMIUM))(`assay capture in headless Chromium (${DEFAULT_CHROMIUM})`, () => {
  it('captures the visible control fact and none of the 22 hidden variants, without a warning', async () => {
    const { code, article } = await capture(['capture', page, '--json'], { ASSAY_CHROMIUM: undefined, ASSAY_BROWSER: undefined });
    expect(code).toBe(0);
    expect(article!.text).toContain(CONTROL_FACT);
    expect(article!.text).toContain('Seen before.');
    expect(leakedVariants(article!.text)).toEqual([]);
    expect(lostLookalikes(article!.text)).toEqual([]);
    expect(article!.warnings.filter((warning) => warning.startsWith(PARTIAL_CHECK))).toEqual([]);
  }, 60_000);

  it('judges the text capture decoded, not Chromium’s own guess at the encoding', async () => {
    // UTF-8 without a declared charset and with C1 controls: capture sniffs UTF-8, Chromium's
    // own detector reads this file as a CJK encoding ("gaps聸2J").
    const undeclared = join(directory, 'undeclared.html');
    const paragraph = 'Zinc oxide films show a direct optical band gap of 3.3 eV at room temperature, as measured here. ';
    writeFileSync(
      undeclared,
      `<html><head><title>T\u001b[31mitle</title><meta name="citation_title" content="Band \u001b[5mgaps\u009b2J"></head>` +
        `<body><article><h2>Res\u001b]8;;http://evil\u0007ults</h2><p>${paragraph.repeat(40)}</p></article></body></html>`,
    );
    const { code, article } = await capture(['capture', undeclared, '--json'], { ASSAY_CHROMIUM: undefined, ASSAY_BROWSER: undefined });
    expect(code).toBe(0);
    expect(article!.text).toContain('band gap of 3.3 eV at room temperature');
    expect(article!.title).toBe('Band gaps');
  }, 60_000);
});

describe('assay capture without the browser check', () => {
  it('falls back to the style rules and says why when Chromium is missing', async () => {
    const missing = join(directory, 'no-such-chromium');
    const { code, article } = await capture(['capture', page, '--json'], { ASSAY_CHROMIUM: missing, ASSAY_BROWSER: undefined });
    expect(code).toBe(0);
    expect(article!.text).toContain(CONTROL_FACT);
    const warning = article!.warnings.find((text) => text.startsWith(PARTIAL_CHECK));
    expect(warning).toContain(`Chromium was not found at ${missing} (set ASSAY_CHROMIUM to its path)`);
    // The style rules settle 14 of the 22 variants; colour, geometry, a cover and an external
    // stylesheet need the browser.
    expect(leakedVariants(article!.text)).toEqual([
      'text coloured like its background (9.01 eV)',
      'color: transparent (9.02 eV)',
      'rgba(…, 0) (9.03 eV)',
      '<font color=white> (9.04 eV)',
      'left: -999px (9.10 eV)',
      'margin-left: -9999px (9.11 eV)',
      'z-index: -1 under a cover (9.12 eV)',
      'external stylesheet (9.19 eV)',
    ]);
    expect(lostLookalikes(article!.text)).toEqual([]);
  });

  it('says the check was turned off with --no-browser', async () => {
    const { code, article } = await capture(['capture', page, '--json', '--no-browser']);
    expect(code).toBe(0);
    expect(article!.warnings.find((text) => text.startsWith(PARTIAL_CHECK))).toContain('turned off (--no-browser');
  });
});
