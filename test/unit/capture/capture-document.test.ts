import { describe, expect, it } from 'vitest';
import { captureDocument } from '../../../src/capture/capture-document';
import { CaptureError } from '../../../src/capture/errors';
import { nodeDomParser } from '../../../src/capture/node/node-dom';

const encode = (text: string) => new TextEncoder().encode(text);
const capture = (text: string | Uint8Array) =>
  captureDocument(typeof text === 'string' ? encode(text) : text, { domParser: nodeDomParser() });

async function failureCode(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'captured';
  } catch (error) {
    return error instanceof CaptureError ? error.code : `other: ${String(error)}`;
  }
}

describe('captureDocument', () => {
  it('rejects empty and whitespace-only input', async () => {
    expect(await failureCode(capture(new Uint8Array()))).toBe('empty');
    expect(await failureCode(capture('  \n\t '))).toBe('empty');
  });

  it('reports an XML file that stops mid-element as truncated', async () => {
    const xml = '<?xml version="1.0"?><article><front><article-meta><title-group><article-title>Band gaps of nitr';
    expect(await failureCode(capture(xml))).toBe('truncated');
  });

  it('captures plain text into paragraphs with a DOI and title', async () => {
    const paragraph = 'Gallium nitride has a direct band gap of 3.4 eV at room temperature, which we confirm by absorption. ';
    const article = await capture(`Band gap of GaN films\n\ndoi:10.1234/example.5678\n\n${paragraph.repeat(3)}`);
    expect(article).toMatchObject({ source: 'text', title: 'Band gap of GaN films', doi: '10.1234/example.5678', doiOrigin: 'body' });
    expect(article.blocks).toHaveLength(3);
  });

  it('rejects a text too short to be an article', async () => {
    expect(await failureCode(capture('hello world'))).toBe('not-article');
  });
});
