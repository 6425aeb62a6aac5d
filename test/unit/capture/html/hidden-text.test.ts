/**
 * Text a page hides with CSS is never captured (CLI path: jsdom, no layout): each hiding
 * mechanism holds a fake fact that must not reach `Article.text`, and rules that are overridden
 * or apply only in print must not hide visible text.
 */
import { describe, expect, it } from 'vitest';
import { contrastRatio, styleRuleVisibility } from '../../../../src/capture/html/visibility';
import { captureString, filler, page, parseHtml } from './html-test-helpers';

const META = '<meta name="citation_title" content="Nitride films"><meta name="citation_doi" content="10.1234/hidden.1">';

/** A full-text article whose body holds `body` between long visible paragraphs. */
function article(style: string, body: string): string {
  return page(
    `${META}<style>${style}</style>`,
    `<article><h2>Results</h2><p>${filler('visible-start')}</p>${body}<p>${filler('visible-end')}</p></article>`,
  );
}

const HIDING_CASES: [string, string, string][] = [
  ['inline display:none', '', '<p style="color: red; display: none">GaN band gap 9.9 eV inline.</p>'],
  ['a <style> class rule with display:none', '.gone { display: none }', '<p class="gone">GaN band gap 9.9 eV by class.</p>'],
  ['visibility:hidden', '.ghost { visibility: hidden }', '<div class="ghost"><p>GaN band gap 9.9 eV ghost.</p></div>'],
  ['visibility:collapse', '#c { visibility: collapse }', '<p id="c">GaN band gap 9.9 eV collapsed.</p>'],
  ['font-size:0', '.tiny { font-size: 0 }', '<p class="tiny">GaN band gap 9.9 eV tiny.</p>'],
  ['font-size:0px inline', '', '<p style="font-size:0px">GaN band gap 9.9 eV zero px.</p>'],
  ['font-size:0em', 'p.z { font-size: 0em }', '<p class="z">GaN band gap 9.9 eV zero em.</p>'],
  ['font-size:0%', 'div p.z { font-size: 0% }', '<div><p class="z">GaN band gap 9.9 eV zero percent.</p></div>'],
  ['font shorthand 0/0', '.ir { font: 0/0 a }', '<p class="ir">GaN band gap 9.9 eV shorthand.</p>'],
  ['opacity:0', '.clear { opacity: 0 }', '<p class="clear">GaN band gap 9.9 eV transparent.</p>'],
  ['zero height, overflow hidden', '.shut { height: 0; overflow: hidden }', '<div class="shut"><p>GaN band gap 9.9 eV shut.</p></div>'],
  ['zero width, overflow hidden inline', '', '<div style="width:0;overflow:hidden"><p>GaN band gap 9.9 eV narrow.</p></div>'],
  [
    'clip: rect(0 0 0 0) (screen-reader-only)',
    '.a11y { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0) }',
    '<span class="a11y">GaN band gap 9.9 eV clipped.</span>',
  ],
  [
    'clip: rect(1px,1px,1px,1px)',
    '.c2 { position: absolute; clip: rect(1px, 1px, 1px, 1px) }',
    '<p class="c2">GaN band gap 9.9 eV rect1.</p>',
  ],
  ['clip-path: inset(50%)', '.cp { clip-path: inset(50%) }', '<p class="cp">GaN band gap 9.9 eV clip path.</p>'],
  ['off-screen left', '.away { position: absolute; left: -9999px }', '<p class="away">GaN band gap 9.9 eV far left.</p>'],
  ['off-screen top (fixed)', '', '<p style="position:fixed;top:-10000px">GaN band gap 9.9 eV far up.</p>'],
  ['text-indent', '.ir2 { text-indent: -9999px; overflow: hidden }', '<h3 class="ir2">GaN band gap 9.9 eV indented.</h3>'],
  ['aria-hidden', '', '<p aria-hidden="true">GaN band gap 9.9 eV aria.</p>'],
  ['hidden attribute', '', '<p hidden>GaN band gap 9.9 eV attribute.</p>'],
  ['font-size:1px', '.small { font-size: 1px }', '<p class="small">GaN band gap 9.9 eV one pixel.</p>'],
  ['font-size:0.1px inline', '', '<p style="font-size:0.1px">GaN band gap 9.9 eV tenth of a pixel.</p>'],
  ['font-size:2pt', '.pt { font-size: 2pt }', '<p class="pt">GaN band gap 9.9 eV two points.</p>'],
  ['opacity:0.01', '.faint { opacity: 0.01 }', '<p class="faint">GaN band gap 9.9 eV faint.</p>'],
  ['opacity:5%', '', '<p style="opacity:5%">GaN band gap 9.9 eV five percent.</p>'],
  ['transform:translateX(-9999px)', '.tx { transform: translateX(-9999px) }', '<p class="tx">GaN band gap 9.9 eV translated.</p>'],
  ['transform:translate(0, -2000px)', '', '<div style="transform: translate(0, -2000px)">GaN band gap 9.9 eV translated up.</div>'],
  ['transform:scale(0)', '.sc { transform: scale(0) }', '<p class="sc">GaN band gap 9.9 eV scaled.</p>'],
  ['transform:scaleY(0) on a positioned span', '', '<span style="position:absolute;transform:scaleY(0)">GaN band gap 9.9 eV flat.</span>'],
  ['clip-path:polygon(0 0,0 0,0 0)', '.poly { clip-path: polygon(0 0,0 0,0 0) }', '<p class="poly">GaN band gap 9.9 eV polygon.</p>'],
  [
    'max-height:0;overflow:hidden',
    '.mh { max-height: 0; overflow: hidden }',
    '<div class="mh"><p>GaN band gap 9.9 eV max height.</p></div>',
  ],
  ['content-visibility:hidden', '.cv { content-visibility: hidden }', '<p class="cv">GaN band gap 9.9 eV content visibility.</p>'],
  [
    'display:var(--h) from :root',
    ':root { --h: none } .vh { display: var(--h) }',
    '<p class="vh">GaN band gap 9.9 eV custom property.</p>',
  ],
  ['display:var(--missing, none) fallback', '.vf { display: var(--missing, none) }', '<p class="vf">GaN band gap 9.9 eV fallback.</p>'],
  [
    'a custom property set on an ancestor, nested',
    '.outer-h { --inner: none; --h: var(--inner) } .vn { display: var(--h) }',
    '<div class="outer-h"><p class="vn">GaN band gap 9.9 eV nested custom property.</p></div>',
  ],
  ['escaped property name (hex)', '.esc { \\64 isplay: none }', '<p class="esc">GaN band gap 9.9 eV hex escape.</p>'],
  ['escaped property name (character)', '.esc2 { dis\\play: none }', '<p class="esc2">GaN band gap 9.9 eV character escape.</p>'],
  ['@layer { display:none }', '@layer base { .layered { display: none } }', '<p class="layered">GaN band gap 9.9 eV layered.</p>'],
  ['aria-hidden="TRUE" (any case)', '', '<p aria-hidden="TRUE">GaN band gap 9.9 eV aria upper case.</p>'],
  ['closed <details>', '', '<details><summary>More</summary><p>GaN band gap 9.9 eV closed details.</p></details>'],
  ['closed <details>, bare text', '', '<details><summary>More</summary>GaN band gap 9.9 eV bare details text.</details>'],
  [
    '!important beats a later rule',
    '.x { display: none !important } .x { display: block }',
    '<p class="x">GaN band gap 9.9 eV important.</p>',
  ],
];

describe('text hidden by CSS is not captured (style rules, no layout)', () => {
  it.each(HIDING_CASES)('%s', (_name, style, body) => {
    const captured = captureString(article(style, body));
    expect(captured.text).not.toContain('9.9 eV');
    expect(captured.text).toContain('visible-start');
    expect(captured.text).toContain('visible-end');
  });

  it('leaves every mechanism out of one page while the visible text stays', () => {
    const style = HIDING_CASES.map(([, css]) => css).join('\n');
    const body = HIDING_CASES.map(([, , markup]) => markup).join('');
    const captured = captureString(article(style, `${body}<p>Visible: AlN band gap 6.2 eV.</p>`));
    expect(captured.text).not.toContain('GaN band gap');
    expect(captured.text).toContain('AlN band gap 6.2 eV');
  });

  it('leaves hidden text out of the abstract and ignores a hidden title heading', () => {
    const html = page(
      `<meta name="citation_doi" content="10.1234/hidden.2"><style>.off{display:none}</style>`,
      `<h1 class="off">GaN band gap 9.9 eV title</h1><h1>Nitride films grown by MOCVD</h1>` +
        `<div class="abstract"><h2>Abstract</h2><p>We grew AlN films. <span class="off">GaN band gap 9.9 eV abstract.</span></p></div>` +
        `<article><p>${filler('body')}</p></article>`,
    );
    const captured = captureString(html);
    expect(captured.title).toBe('Nitride films grown by MOCVD');
    expect(captured.text).toContain('We grew AlN films.');
    expect(captured.text).not.toContain('9.9 eV');
  });
});

describe('only hides when sure', () => {
  const VISIBLE_CASES: [string, string, string][] = [
    [
      'a more specific rule shows it again',
      '.x { display: none } .x.shown { display: block }',
      '<p class="x shown">Shown fact 7.7 eV.</p>',
    ],
    ['a later rule shows it again', '.x { display: none } .x { display: block }', '<p class="x">Shown fact 7.7 eV.</p>'],
    ['inline style shows it again', '.x { display: none }', '<p class="x" style="display:block">Shown fact 7.7 eV.</p>'],
    ['a print-only rule', '@media print { .x { display: none } }', '<p class="x">Shown fact 7.7 eV.</p>'],
    ['a print-only style sheet', '', '<p class="np">Shown fact 7.7 eV.</p>'],
    ['a rule under a screen-size query', '@media (max-width: 600px) { .x { display: none } }', '<p class="x">Shown fact 7.7 eV.</p>'],
    [
      'a hiding rule undone under a query',
      '.x { display: none } @media (min-width: 1px) { .x { display: block } }',
      '<p class="x">Shown fact 7.7 eV.</p>',
    ],
    ['a hover-only rule', '.x:hover { display: none }', '<p class="x">Shown fact 7.7 eV.</p>'],
    ['a pseudo-element rule', '.x::before { display: none; font-size: 0 }', '<p class="x">Shown fact 7.7 eV.</p>'],
    [
      'font-size:0 set back on the children (inline-block layout trick)',
      '.row { font-size: 0 } .cell { font-size: 14px; display: inline-block }',
      '<div class="row"><p class="cell">Shown fact 7.7 eV.</p></div>',
    ],
    [
      'visibility:hidden set back on a child',
      '.outer { visibility: hidden } .inner { visibility: visible }',
      '<div class="outer"><p class="inner">Shown fact 7.7 eV.</p></div>',
    ],
    [
      'zero height opened by padding (responsive embed)',
      '.ratio { height: 0; padding-bottom: 56%; overflow: hidden; position: relative }',
      '<div class="ratio"><p>Shown fact 7.7 eV.</p></div>',
    ],
    ['zero width on an inline element', '.w { width: 0; overflow: hidden }', '<p>Text with <span class="w">Shown fact 7.7 eV.</span></p>'],
    ['a small negative offset', '.nudge { position: relative; left: -20px }', '<p class="nudge">Shown fact 7.7 eV.</p>'],
    ['off-screen offset without positioning', '.left { left: -9999px }', '<p class="left">Shown fact 7.7 eV.</p>'],
    [
      'an escaped class name shown again',
      '.hide { display: none } .md\\:block { display: block }',
      '<p class="hide md:block">Shown fact 7.7 eV.</p>',
    ],
    ['an invalid selector', ':-moz-any(p) { display: none } p:unknown-thing { display: none }', '<p>Shown fact 7.7 eV.</p>'],
    ['broken CSS', '.x { display: none', '<p>Shown fact 7.7 eV.</p>'],
    ['a 10px font', '.note { font-size: 10px }', '<p class="note">Shown fact 7.7 eV.</p>'],
    [
      'a 1px font set back on the children',
      '.r1 { font-size: 1px } .r1 p { font-size: 14px }',
      '<div class="r1"><p>Shown fact 7.7 eV.</p></div>',
    ],
    ['a 1px font set back by 14em', '.r2 { font-size: 1px } .r2 p { font-size: 14em }', '<div class="r2"><p>Shown fact 7.7 eV.</p></div>'],
    ['opacity:0.5', '.half { opacity: 0.5 }', '<p class="half">Shown fact 7.7 eV.</p>'],
    ['a small translation', '.tx { transform: translateX(-20px) scale(0.9) }', '<p class="tx">Shown fact 7.7 eV.</p>'],
    [
      'scale(0) on an inline span (transforms do not apply)',
      '.sc { transform: scale(0) }',
      '<p>Text <span class="sc">Shown fact 7.7 eV.</span></p>',
    ],
    ['a clip-path polygon with area', '.pg { clip-path: polygon(0 0, 100% 0, 100% 100%) }', '<p class="pg">Shown fact 7.7 eV.</p>'],
    ['max-height:0 without overflow hidden', '.mh { max-height: 0 }', '<div class="mh"><p>Shown fact 7.7 eV.</p></div>'],
    ['content-visibility:auto', '.cv { content-visibility: auto }', '<p class="cv">Shown fact 7.7 eV.</p>'],
    ['display:var(--d) that is block', ':root { --d: block } .vd { display: var(--d) }', '<p class="vd">Shown fact 7.7 eV.</p>'],
    ['display:var(--undefined) without fallback', '.vu { display: var(--undefined) }', '<p class="vu">Shown fact 7.7 eV.</p>'],
    [
      'a custom property overridden on the element',
      ':root { --h: none } .vo { --h: block; display: var(--h) }',
      '<p class="vo">Shown fact 7.7 eV.</p>',
    ],
    [
      '@layer display:none overridden by an unlayered rule of lower specificity',
      '@layer base { p.lay.lay { display: none } } p { display: block }',
      '<p class="lay">Shown fact 7.7 eV.</p>',
    ],
    ['an open <details>', '', '<details open><summary>More</summary><p>Shown fact 7.7 eV.</p></details>'],
    ['the summary of a closed <details>', '', '<details><summary>Shown fact 7.7 eV.</summary><p>More.</p></details>'],
  ];

  it.each(VISIBLE_CASES)('%s', (_name, style, body) => {
    const html = article(style, body).replace('</head>', '<style media="print">.np { display: none }</style></head>');
    expect(captureString(html).text).toContain('Shown fact 7.7 eV.');
  });

  it('never hides <html> or <body> (pages hide them until their scripts run)', () => {
    const html = article('body { visibility: hidden } html { opacity: 0 }', '<p>Shown fact 7.7 eV.</p>');
    expect(captureString(html).text).toContain('Shown fact 7.7 eV.');
  });
});

describe('styleRuleVisibility', () => {
  it('judges elements once per document, linear in the page size', () => {
    const rows = Array.from({ length: 4000 }, (_, index) => `<p class="r${index % 50}">Row ${index}</p>`).join('');
    const rules = Array.from({ length: 300 }, (_, index) => `.r${index} .x${index} { display: none } .q${index} { color: red }`).join('\n');
    const document = parseHtml(page(`<style>${rules} .r7 { display: none }</style>`, rows));
    const start = performance.now();
    const judge = styleRuleVisibility(document);
    const hidden = [...document.querySelectorAll('p')].filter((element) => judge(element));
    expect(hidden).toHaveLength(80);
    expect(performance.now() - start).toBeLessThan(2000);
  });
});

describe('contrastRatio (WCAG 2.x, what the live judge compares with MIN_TEXT_CONTRAST)', () => {
  it('runs from 1 (same colour) to 21 (black on white), as WCAG states', () => {
    expect(contrastRatio([255, 255, 255, 1], [0, 0, 0, 1])).toBeCloseTo(21, 5);
    expect(contrastRatio([250, 250, 250, 1], [250, 250, 250, 1])).toBe(1);
    // #767676 on white is the lightest grey WCAG AA allows for body text (4.54:1).
    expect(contrastRatio([0x76, 0x76, 0x76, 1], [255, 255, 255, 1])).toBeCloseTo(4.54, 2);
  });
});
