// @vitest-environment jsdom
import { afterEach, describe, expect, test } from 'vitest';
import { readPageText } from '../../../src/highlight/page-text';
import { ARTICLE_BODY, BANDGAP_SENTENCE, loadBody } from './highlight-fixtures';
import { captureHtml } from '../../../src/capture/html/capture-html';

afterEach(() => {
  document.body.innerHTML = '';
});

describe('readPageText', () => {
  test('collapses whitespace runs, trims blocks and separates blocks with a blank line', () => {
    loadBody(document, '<div>\n  <p>  The  combined\n   UPS <b>and</b> IPES </p>\n  <p>Second<br>line</p></div>');
    const pageText = readPageText({ document, window });
    expect(pageText.text).toBe('The combined UPS and IPES\n\nSecond line');
  });

  test('leaves out scripts, styles, hidden elements and Assay’s own host', () => {
    loadBody(
      document,
      '<p>Kept one.</p><script>var x = "script text";</script><style>p{}</style><p hidden>hidden</p>' +
        '<p aria-hidden="true">aria</p><p style="display: none">inline none</p><span class="sr-only">sr</span>' +
        '<div data-assay-highlighter>Assay card</div><template><p>template</p></template><p>Kept two.</p>',
    );
    expect(readPageText({ document, window }).text).toBe('Kept one.\n\nKept two.');
  });

  test('drops soft hyphens and zero-width spaces as the capture does', () => {
    loadBody(document, '<p>perov\u00ADskite band\u200Bgap</p>');
    const pageText = readPageText({ document, window });
    expect(pageText.text).toBe('perovskite bandgap');
    // "skite" starts after the soft hyphen: offset 5 in the text is offset 6 in the node.
    const range = pageText.rangeOf(5, 10)!;
    expect(range.toString()).toBe('skite');
    expect(range.startOffset).toBe(6);
  });

  test('maps a span of the text back to a DOM range across inline elements', () => {
    loadBody(document, ARTICLE_BODY);
    const pageText = readPageText({ document, window });
    const start = pageText.text.indexOf(BANDGAP_SENTENCE);
    expect(start).toBeGreaterThan(0);
    const range = pageText.rangeOf(start, start + BANDGAP_SENTENCE.length)!;
    // The page's own source has a line break and indentation after "IPES".
    expect(range.toString().replace(/\s+/g, ' ')).toBe(BANDGAP_SENTENCE);
    expect(range.startContainer.parentElement?.tagName).toBe('P');
    expect(range.endContainer.parentElement?.tagName).toBe('B');
  });

  test('is close to the captured Article.text: every captured paragraph occurs in it verbatim', () => {
    loadBody(document, ARTICLE_BODY);
    const article = captureHtml(document, { url: null });
    const pageText = readPageText({ document, window }).text;
    const paragraphs = article.blocks.filter((block) => block.kind === 'paragraph');
    expect(paragraphs.length).toBe(6);
    for (const block of paragraphs) expect(pageText).toContain(block.text);
    expect(pageText).not.toContain('9.9 eV');
    expect(pageText).not.toContain('2.2 eV');
  });

  test('a range ending on a block separator stops at the last character before it', () => {
    loadBody(document, '<p>alpha</p><p>beta</p>');
    const pageText = readPageText({ document, window });
    expect(pageText.text).toBe('alpha\n\nbeta');
    expect(pageText.rangeOf(2, 7)?.toString()).toBe('pha');
    expect(pageText.rangeOf(5, 7)).toBeNull();
    expect(pageText.rangeOf(3, 3)).toBeNull();
  });

  test('a glyph image adds its character, which no range can start in', () => {
    loadBody(document, '<p>4.49 <img src="/__chars/plusmn/glyph.gif" alt="plusminus"> 0.75 nm</p>');
    const pageText = readPageText({ document, window });
    expect(pageText.text).toBe('4.49 ± 0.75 nm');
    expect(pageText.rangeOf(5, 6)).toBeNull();
    expect(pageText.rangeOf(0, 11)?.toString()).toBe('4.49  0.75');
  });

  test('an empty body gives an empty text', () => {
    loadBody(document, '<script>1</script>');
    const pageText = readPageText({ document, window });
    expect(pageText.text).toBe('');
    expect(pageText.rangeOf(0, 1)).toBeNull();
  });
});
