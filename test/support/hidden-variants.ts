/**
 * A saved article page with one visible control fact beside 22 variants of hidden text (issue
 * 27): each hidden line states a band gap no other line states, so a failure names the variant.
 * Shared by the extension's e2e test (live page) and the CLI's headless-Chromium test.
 */

/** The visible control fact: it must be captured. */
export const CONTROL_FACT = 'The control GaN film has a band gap of 3.40 eV';

/** `[variant, fake band gap]`: the text `GaN band gap <value> eV` must not be captured. */
export const HIDDEN_VARIANTS: [variant: string, value: string][] = [
  ['text coloured like its background', '9.01'],
  ['color: transparent', '9.02'],
  ['rgba(…, 0)', '9.03'],
  ['<font color=white>', '9.04'],
  ['font-size: 0.1px', '9.05'],
  ['font-size: 1px', '9.06'],
  ['opacity: 0.01', '9.07'],
  ['transform: translateX(-9999px)', '9.08'],
  ['transform: scale(0)', '9.09'],
  ['left: -999px', '9.10'],
  ['margin-left: -9999px', '9.11'],
  ['z-index: -1 under a cover', '9.12'],
  ['clip-path: polygon(0 0, 0 0, 0 0)', '9.13'],
  ['max-height: 0; overflow: hidden', '9.14'],
  ['display: var(--h)', '9.15'],
  ['escaped property name', '9.16'],
  ['@layer { display: none }', '9.17'],
  ['content-visibility: hidden', '9.18'],
  ['external stylesheet', '9.19'],
  ['aria-hidden="TRUE"', '9.20'],
  ['closed <details>', '9.21'],
  ['closed <details>, bare text', '9.22'],
];

/**
 * `[case, band gap]`: visible text that looks like a hidden variant and must be captured
 * (`AlN band gap <value> eV`): the judges must stay conservative.
 */
export const VISIBLE_LOOKALIKES: [lookalike: string, value: string][] = [
  ['white text on a dark background', '7.01'],
  ['10px text', '7.02'],
  ['opacity: 0.5', '7.03'],
  ['transparent text with a shadow', '7.04'],
  ['z-index: -1 with nothing over it', '7.05'],
  ['white text over a positioned dark box', '7.06'],
];

const fact = (value: string): string => `GaN band gap ${value} eV`;
const shown = (value: string): string => `AlN band gap ${value} eV`;
const paragraph = (marker: string): string =>
  `<p>The ${marker} AlN films were annealed at 450 °C for 2 h and showed a band gap of 6.2 eV in absorption. `.repeat(6) + '</p>';

/** The external stylesheet the page links as `hidden-variants.css`. */
export const HIDDEN_VARIANTS_CSS = '.external-rule { display: none }\n';

/** The page: `doi` in its metadata, linking `hidden-variants.css` beside it. */
export function hiddenVariantsPage(doi: string): string {
  return `<!DOCTYPE html><html><head><meta charset="utf-8">
<title>Nitride films with hidden variants</title>
<meta name="citation_title" content="Nitride films with hidden variants">
<meta name="citation_doi" content="${doi}">
<link rel="stylesheet" href="hidden-variants.css">
<style>
  :root { --h: none }
  .var-hidden { display: var(--h) }
  .escaped { \\64 isplay: none }
  @layer hiding { .layered { display: none } }
  .cover-box { position: relative }
  .cover-box .under { position: relative; z-index: -1 }
  .cover-box .cover { position: absolute; inset: 0; background: #fff }
</style></head>
<body><article><h1>Nitride films with hidden variants</h1>
<h2>Results</h2>
${paragraph('first visible')}
<p>${CONTROL_FACT} (visible control).</p>
<div style="background:#fafafa"><p style="color:#fafafa">${fact('9.01')} (coloured like its background).</p></div>
<p style="color:transparent">${fact('9.02')} (transparent).</p>
<p style="color:rgba(20, 40, 60, 0)">${fact('9.03')} (rgba alpha 0).</p>
<p>Seen before. <font color="white">${fact('9.04')} (font colour white).</font> Seen after.</p>
<p style="font-size:0.1px">${fact('9.05')} (font size 0.1px).</p>
<p style="font-size:1px">${fact('9.06')} (font size 1px).</p>
<p style="opacity:0.01">${fact('9.07')} (opacity 0.01).</p>
<p style="transform:translateX(-9999px)">${fact('9.08')} (translated away).</p>
<p style="transform:scale(0)">${fact('9.09')} (scaled to zero).</p>
<p style="position:absolute;left:-999px">${fact('9.10')} (left -999px).</p>
<p style="margin-left:-9999px">${fact('9.11')} (negative margin).</p>
<div class="cover-box"><p class="under">${fact('9.12')} (under a cover).</p><div class="cover"></div></div>
<p style="clip-path:polygon(0 0,0 0,0 0)">${fact('9.13')} (clip path polygon).</p>
<div style="max-height:0;overflow:hidden"><p>${fact('9.14')} (max height zero).</p></div>
<p class="var-hidden">${fact('9.15')} (display from a custom property).</p>
<p class="escaped">${fact('9.16')} (escaped property name).</p>
<p class="layered">${fact('9.17')} (cascade layer).</p>
<p style="content-visibility:hidden">${fact('9.18')} (content visibility hidden).</p>
<p class="external-rule">${fact('9.19')} (external stylesheet).</p>
<p aria-hidden="TRUE">${fact('9.20')} (aria hidden upper case).</p>
<details><summary>More results</summary><p>${fact('9.21')} (closed details).</p></details>
<details><summary>Even more</summary>${fact('9.22')} (closed details, bare text).</details>
<div style="background:#222"><p style="color:#fff">${shown('7.01')} (white on dark).</p></div>
<p style="font-size:10px">${shown('7.02')} (10px).</p>
<p style="opacity:0.5">${shown('7.03')} (half opacity).</p>
<p style="color:transparent;text-shadow:0 0 2px #000">${shown('7.04')} (shadowed).</p>
<p style="position:relative;z-index:-1">${shown('7.05')} (negative z-index, uncovered).</p>
<div style="position:relative"><div style="position:absolute;inset:0;background:#123"></div><p style="position:relative;color:#fff">${shown('7.06')} (white over a dark box).</p></div>
${paragraph('second visible')}
</article></body></html>`;
}

/** The visible lookalikes whose fact is missing from `text` (empty when all were captured). */
export function lostLookalikes(text: string): string[] {
  return VISIBLE_LOOKALIKES.filter(([, value]) => !text.includes(shown(value))).map(([lookalike, value]) => `${lookalike} (${value} eV)`);
}

/** The hidden variants whose fact appears in `text` (empty when none leaked). */
export function leakedVariants(text: string): string[] {
  return HIDDEN_VARIANTS.filter(([, value]) => text.includes(fact(value))).map(([variant, value]) => `${variant} (${value} eV)`);
}
