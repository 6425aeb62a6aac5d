import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { limitMarkupDepth, MAX_MARKUP_DEPTH } from '../../../src/capture/node/markup-depth';

/** Element depth of the deepest element of a parsed document. */
function maxDepth(document: Document): number {
  let deepest = 0;
  const stack: [Element, number][] = [[document.documentElement, 1]];
  while (stack.length > 0) {
    const [element, depth] = stack.pop()!;
    deepest = Math.max(deepest, depth);
    for (let child = element.firstElementChild; child; child = child.nextElementSibling) stack.push([child, depth + 1]);
  }
  return deepest;
}

describe('limitMarkupDepth', () => {
  it('returns markup within the limit unchanged, whatever its tags (property)', () => {
    const tag = fc.constantFrom('div', 'span', 'p', 'li', 'td', 'br', 'img', 'b', 'svg');
    fc.assert(
      fc.property(fc.array(fc.tuple(tag, fc.boolean(), fc.string({ maxLength: 8 })), { maxLength: 200 }), (parts) => {
        const markup = parts.map(([name, close, text]) => `<${name} class="a>b">${text}${close ? `</${name}>` : ''}`).join('');
        expect(limitMarkupDepth(markup, 'text/html')).toBe(markup);
      }),
    );
  });

  it('unwraps what nests deeper than the limit, keeping the text in order', async () => {
    const { JSDOM } = await import('jsdom');
    const levels = 3000;
    const markup = `<body>${Array.from({ length: levels }, (_, index) => `<div>w${index} `).join('')}${'</div>'.repeat(levels)}</body>`;
    const limited = limitMarkupDepth(markup, 'text/html', 100);
    const document = new JSDOM(limited).window.document;
    expect(maxDepth(document)).toBeLessThanOrEqual(100 + 3);
    expect(document.body.textContent!.match(/w\d+/g)).toEqual(Array.from({ length: levels }, (_, index) => `w${index}`));
    const xml = limitMarkupDepth(`<a>${'<b>x'.repeat(levels)}${'</b>'.repeat(levels)}</a>`, 'application/xml', 50);
    expect(xml.match(/<b>/g)).toHaveLength(49);
    expect(xml.match(/<\/b>/g)).toHaveLength(49);
  });

  it('scans hostile markup (unclosed quotes, stray brackets) in linear time', () => {
    const started = performance.now();
    for (const unit of ['<a b="', '<a"', '<<<', '<!--', '<script>', "<div x='>"]) limitMarkupDepth(unit.repeat(200_000), 'text/html');
    expect(performance.now() - started).toBeLessThan(3000);
    expect(MAX_MARKUP_DEPTH).toBe(512);
  });
});
