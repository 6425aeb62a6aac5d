import { describe, expect, it } from 'vitest';
import { selectAll, splitSelectorList, withinSet } from '../../../../src/capture/html/selector-index';
import { parseHtml } from './html-test-helpers';

const MARKUP = `<body>
  <div id="main" class="article body"><p class="Para lead">a</p><p class="para">b</p>
    <section class="references" role="doc-bibliography"><ol><li class="ref" id="r1">c</li></ol></section>
    <a href="#top" class="backtotop">Top</a><div class="fig"><span class="caption x">d</span></div></div>
  <div class="Body"><p>e</p></div></body>`;

describe('selectAll', () => {
  it.each([
    ['standards', `<!DOCTYPE html>${MARKUP}`],
    ['quirks', MARKUP],
  ])('gives the same elements as querySelectorAll (%s mode)', (_mode, markup) => {
    const document = parseHtml(markup);
    const lists = [
      '#main, p.Para, .references',
      '.caption.x, li#r1, div > p',
      'a[href^="#top"], .fig .caption',
      'section',
      '.missing',
      // Subjects keyed by attribute, adjacency, negation, and a subject with no key at all.
      '[role="doc-bibliography"], li[id^="r"], section + a, .caption:not(.y), [class~="lead"]',
      '*:first-child',
    ];
    const all = [...document.getElementsByTagName('*')];
    // Compare positions in the tree: deep equality on DOM elements would walk their properties.
    const positions = (elements: Iterable<Element>) => [...elements].map((element) => all.indexOf(element)).sort((a, b) => a - b);
    const results = selectAll(document, lists);
    lists.forEach((list, index) => {
      expect(positions(results[index]!)).toEqual(positions(document.querySelectorAll(list)));
    });
    expect(positions(results[0]!).length).toBeGreaterThanOrEqual(3);
  });

  it('matches class names case-sensitively in standards mode and ignoring case in quirks mode, as browsers do', () => {
    const standards = parseHtml(`<!DOCTYPE html>${MARKUP}`);
    expect([...selectAll(standards, ['.Body'])[0]!].map((element) => element.className)).toEqual(['Body']);
    const quirks = parseHtml(MARKUP);
    expect([...selectAll(quirks, ['.Body'])[0]!].map((element) => element.className)).toEqual(['article body', 'Body']);
  });

  it('splits selector lists only at top-level commas', () => {
    expect(splitSelectorList('.a, a[title="x,y"], :not(.b, .c)')).toEqual(['.a', 'a[title="x,y"]', ':not(.b, .c)']);
  });

  it('tells whether an element or an ancestor is in a set', () => {
    const document = parseHtml(MARKUP);
    const [references] = selectAll(document, ['.references']);
    expect(withinSet(document.getElementById('r1')!, references!)).toBe(true);
    expect(withinSet(document.querySelector('.fig')!, references!)).toBe(false);
  });
});
