/**
 * Inputs that are not documents, control characters in documents, size and length bounds
 * (issue 14, items 7, 8 and 9).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ArticleBuilder } from '../../../src/capture/article-builder';
import { captureDocument } from '../../../src/capture/capture-document';
import { CaptureError } from '../../../src/capture/errors';
import { nodeDomParser } from '../../../src/capture/node/node-dom';
import { ArticleSchema, type Article } from '../../../src/contracts/article';

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);
const capture = (bytes: Uint8Array): Promise<Article> => captureDocument(bytes, { domParser: nodeDomParser() });

async function failure(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
    return { code: 'captured', message: '' };
  } catch (error) {
    return error instanceof CaptureError ? { code: error.code, message: error.message } : { code: 'other', message: String(error) };
  }
}

/** Uniform pseudo-random bytes from a seed (mulberry32), as a file of random data is. */
function randomBytes(seed: number, length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  let state = seed >>> 0;
  for (let index = 0; index < length; index += 1) {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed);
    bytes[index] = ((mixed ^ (mixed >>> 14)) >>> 0) & 0xff;
  }
  return bytes;
}

/** Every C0 control but tab and line feed, DEL and every C1 control. */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

/** Every string in an article, with where it is. */
function strings(article: Article): [string, string][] {
  const found: [string, string][] = [];
  const visit = (value: unknown, path: string): void => {
    if (typeof value === 'string') found.push([path, value]);
    else if (Array.isArray(value)) value.forEach((item, index) => visit(item, `${path}[${index}]`));
    else if (value && typeof value === 'object') for (const [key, item] of Object.entries(value)) visit(item, `${path}.${key}`);
  };
  visit(article, 'article');
  return found;
}

const PARAGRAPH = 'Zinc oxide films grown by sputtering show a direct optical band gap of 3.3 eV at room temperature. ';

describe('inputs that are not documents', () => {
  it('refuses random bytes, bare or behind an HTML or XML start, as binary (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer(),
        fc.integer({ min: 256, max: 40_000 }),
        fc.constantFrom('', '<!DOCTYPE html><html><body>', '<?xml version="1.0"?><article>', 'Title line\n\n'),
        async (seed, length, start) => {
          const bytes = new Uint8Array([...encode(start), ...randomBytes(seed, length)]);
          const { code, message } = await failure(capture(bytes));
          expect(code).toBe('binary');
          expect(message).toMatch(/not a document: \d+ % of its characters/);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('reads UTF-16 text without a byte-order mark by its NUL bytes instead of refusing it as binary (issue 27, item 11)', async () => {
    const text = `A title\n\n${PARAGRAPH.repeat(20)}`;
    const utf16 = new Uint8Array(text.length * 2);
    for (let index = 0; index < text.length; index += 1) utf16[index * 2] = text.charCodeAt(index);
    const article = await capture(utf16);
    expect(article.text).toContain('band gap of 3.3 eV');
    expect(article.warnings[0]).toBe('The file has no byte-order mark, but its bytes are UTF-16LE; read as UTF-16LE.');
  });

  it('still captures a text with a few stray control characters and undecodable bytes', async () => {
    const bytes = new Uint8Array([...encode(`A title\n\n${PARAGRAPH.repeat(5)}`), 0x00, 0xff, 0x1b, ...encode(PARAGRAPH)]);
    const article = await capture(bytes);
    expect(article.text).toContain('band gap of 3.3 eV');
  });

  it('refuses markup over the size limit with a message that gives the size and the limit', async () => {
    const page = encode(`<html><body><p>${'x'.repeat(16 * 1024 * 1024)}</p></body></html>`);
    const { code, message } = await failure(capture(page));
    expect(code).toBe('too-large');
    expect(message).toMatch(/^The file is 16\.0 MB, over the 16\.0 MB limit for an HTML, XML or text file/);
  });
});

describe('control characters in captured strings', () => {
  const hostile = fc.constantFrom(
    '\u001b[31m',
    '\u001b]0;owned\u0007',
    '\u001b]8;;https://evil.example\u001b\\',
    '\u009b2J',
    '\u0000',
    '\u0007',
    '\u0008',
    '\u007f',
    '\u0085',
    '\u001bc',
    '\r',
  );
  /** `words` with a control sequence after every `every`-th word (a page that is mostly control characters is refused as binary). */
  const sprinkled = (words: string[], controls: string[], every = 1): string =>
    words.map((word, index) => word + (index % every === 0 ? (controls[(index / every) % controls.length] ?? '') : '')).join(' ');

  it('strips them from title, authors, journal, DOI and every block of an HTML page (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(hostile, { minLength: 1, maxLength: 6 }), async (controls) => {
        const html =
          `<!DOCTYPE html><html><head><title>${sprinkled(['Page', 'title'], controls)}</title>` +
          `<meta name="citation_title" content="${sprinkled(['Band', 'gaps', 'of', 'ZnO'], controls)}">` +
          `<meta name="citation_author" content="${sprinkled(['Doe,', 'Jane'], controls)}">` +
          `<meta name="citation_journal_title" content="${sprinkled(['J.', 'Oxides'], controls)}">` +
          // (CR and NEL separate words, and the parser turns NUL into U+FFFD: inside a DOI they end it.)
          `<meta name="citation_doi" content="10.1234/zno.${controls.filter((control) => !/^[\r\u0085\u0000]$/.test(control)).join('')}7"></head><body><article>` +
          `<h2>${sprinkled(['Results', 'and', 'discussion'], controls)}</h2>` +
          `<p>${sprinkled(PARAGRAPH.repeat(30).split(' '), controls, 10)}</p>` +
          `<table><tr><th>${controls[0]}Film</th><th>Eg</th></tr><tr><td>ZnO${controls[0]}</td><td>3.3</td></tr></table></article></body></html>`;
        const article = await capture(encode(html));
        for (const [path, value] of strings(article)) expect({ path, clean: !CONTROL.test(value) }).toEqual({ path, clean: true });
        // (The HTML parser itself turns NUL into U+FFFD, a visible replacement character.)
        const visible = (text: string): string =>
          text
            .replace(/\ufffd/g, '')
            .replace(/\s+/g, ' ')
            .trim();
        expect(visible(article.title)).toBe('Band gaps of ZnO');
        expect(article.doi).toBe('10.1234/zno.7');
        expect(article.authors.map(visible)).toEqual(['Jane Doe']);
        expect(article.text).toContain('band gap of 3.3 eV');
        expect(article.text).not.toMatch(/\[31m|owned|evil\.example/);
      }),
      { numRuns: 30 },
    );
  });

  it('strips them from plain text and publisher XML', async () => {
    const text = await capture(encode(`Title \u001b[1mbold\u001b[0m line\n\n${PARAGRAPH.repeat(4)}\u0007\u001b]0;x\u0007end`));
    expect(text.title).toBe('Title bold line');
    expect(CONTROL.test(text.text)).toBe(false);
    const xml = await capture(
      encode(
        '<?xml version="1.0"?><article><front><article-meta><title-group><article-title>Nitride &#x1b;[31mgaps</article-title></title-group>' +
          `</article-meta></front><body><sec><title>Results</title><p>${PARAGRAPH}&#x9b;2J done</p></sec></body></article>`,
      ),
    ).catch((error: unknown) => error);
    // XML 1.0 forbids most control characters even as references: the parser refuses the file.
    expect(xml).toBeInstanceOf(CaptureError);
  });
});

describe('length bounds of captured strings', () => {
  const article = (overrides: Partial<Article>): Article => ({
    doi: null,
    doiOrigin: null,
    title: 'A title',
    authors: [],
    journal: null,
    year: null,
    url: null,
    source: 'text',
    adapter: 'text',
    blocks: [],
    text: '',
    abstractOnly: false,
    warnings: [],
    ...overrides,
  });
  const message = (value: Article): string => {
    const result = ArticleSchema.safeParse(value);
    return result.success ? 'accepted' : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('\n');
  };

  it('refuses strings longer than any real paper needs, naming the field and the bound', () => {
    expect(message(article({ title: 'T'.repeat(2_000) }))).toBe('accepted');
    expect(message(article({ title: 'T'.repeat(2_001) }))).toBe("title: title is longer than 2,000 characters: not a paper's title");
    expect(message(article({ authors: ['A'.repeat(501)] }))).toMatch(/^authors\.0: author name is longer than 500 characters/);
    expect(message(article({ journal: 'J'.repeat(501) }))).toMatch(/^journal: journal name is longer than 500/);
    expect(message(article({ doi: `10.1234/${'x'.repeat(500)}` }))).toMatch(/^doi: DOI is longer than 500/);
    expect(message(article({ url: `https://example.org/${'a'.repeat(8_200)}` }))).toMatch(/^url: URL is longer than 8,192/);
    expect(message(article({ authors: Array.from({ length: 10_001 }, () => 'A B') }))).toMatch(/^authors: more than 10,000 authors/);
    const long = 'w'.repeat(200_001);
    expect(message(article({ text: long, blocks: [{ id: 'b0', kind: 'paragraph', text: long, start: 0, end: long.length }] }))).toMatch(
      /^blocks\.0\.text: block text is longer than 200,000 characters/,
    );
  });

  it('refuses a page whose metadata breaks a bound with a capture error in words', async () => {
    const html = `<html><head><meta name="citation_title" content="${'Long '.repeat(1_000)}"><meta name="citation_doi" content="10.1234/long.1"></head><body><p>${PARAGRAPH.repeat(40)}</p></body></html>`;
    const { code, message: text } = await failure(capture(encode(html)));
    expect(code).toBe('unreadable');
    expect(text).toMatch(/not an article Assay can keep: title: title is longer than 2,000 characters/);
  });

  it('splits a run of text longer than one block may be into several blocks, losing nothing', () => {
    const builder = new ArticleBuilder();
    const words = Array.from({ length: 90_000 }, (_, index) => `w${index}`).join(' ');
    builder.add('paragraph', words);
    const { blocks, text } = builder.build();
    expect(blocks.length).toBeGreaterThan(2);
    for (const block of blocks) expect(block.text.length).toBeLessThanOrEqual(200_000);
    expect(blocks.map((block) => block.text).join(' ')).toBe(words);
    expect(() => ArticleSchema.parse(article({ blocks, text }))).not.toThrow();
  });
});
