/**
 * https everywhere: no string in the extension's or the CLI's code names a plain-http URL, except
 * on this machine (127.0.0.1, localhost, [::1], where a reader runs their own model server) and
 * the identifiers below, which name a vocabulary and are compared, never fetched.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));

/** Plain-http strings that are names, not addresses to fetch: why each may stay. */
const IDENTIFIERS: Record<string, string> = {
  'http://www.w3.org/ns/anno.jsonld': 'the Web Annotation JSON-LD @context, an identifier the W3C spells with http',
  'http://arxiv.org/api/errors': "the Atom id prefix of arXiv's error entries, compared with the feed's ids",
  'http://www.w3.org/1999/xlink': 'an XML namespace name',
  'http://www.w3.org/1998/Math/MathML': 'an XML namespace name',
  'http://www.w3.org/2001/XMLSchema-instance': 'an XML namespace name',
  'http://www.niso.org/schemas/ali/1.0/': 'an XML namespace name',
  'http://www.niso.org/standards/z39-96/ns/oasis-exchange/table': 'an XML namespace name',
  'http://*/*': "the optional host permission a reader's own model server is granted under (asked per origin)",
  'http://publisher.test/*':
    "the test build's host permission standing in for a publisher site's optional one (wxt.config.ts); .test is a reserved name the e2e maps to 127.0.0.1",
};

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|mjs)$/.test(entry.name) ? [path] : [];
  });
}

/** Every string literal starting `http://` in `text` (quotes or backticks), up to its closing quote or a space. */
const plainHttpStrings = (text: string) => [...text.matchAll(/["'`](http:\/\/[^"'`\s]*)/g)].map((match) => match[1]!);

describe('https everywhere', () => {
  it('finds a plain-http address in a probe, and none in src/, entrypoints/, bin/ or wxt.config.ts beyond this machine and the identifiers', () => {
    expect(plainHttpStrings("const ARXIV = 'http://export.arxiv.org/api/query';")).toEqual(['http://export.arxiv.org/api/query']);
    const files = [
      ...sourceFiles(join(root, 'src')),
      ...sourceFiles(join(root, 'entrypoints')),
      ...sourceFiles(join(root, 'bin')),
      join(root, 'wxt.config.ts'),
    ];
    const found = files.flatMap((file) =>
      plainHttpStrings(readFileSync(file, 'utf8'))
        .filter((url) => !/^http:\/\/(127\.0\.0\.1|localhost|\[::1\])([:/]|$)/.test(url) && !(url in IDENTIFIERS))
        .map((url) => `${relative(root, file)}: ${url}`),
    );
    expect(found).toEqual([]);
  });
});
