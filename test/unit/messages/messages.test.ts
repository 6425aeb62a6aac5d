import { describe, expect, it } from 'vitest';
import { PageCaptureResultSchema, RequestSchema, ResponseSchemas } from '../../../src/contracts/messages';
import { makeArticle } from '../store/article-fixture';

describe('message protocol', () => {
  it('accepts valid requests', () => {
    expect(RequestSchema.parse({ type: 'capture-tab', tabId: 42 })).toEqual({ type: 'capture-tab', tabId: 42 });
  });

  it.each([
    ['no type', { tabId: 1 }],
    ['an unknown type', { type: 'delete-everything' }],
    ['a missing tab id', { type: 'capture-tab' }],
    ['a string tab id', { type: 'capture-tab', tabId: '1' }],
    ['a negative tab id', { type: 'capture-tab', tabId: -1 }],
    ['a fractional tab id', { type: 'capture-tab', tabId: 1.5 }],
    ['null', null],
    ['a string', 'capture-tab'],
  ])('rejects a request with %s', (_label, message) => {
    expect(RequestSchema.safeParse(message).success).toBe(false);
  });

  it('accepts a capture result with a valid article or a failure', () => {
    expect(PageCaptureResultSchema.safeParse({ ok: true, article: makeArticle() }).success).toBe(true);
    expect(PageCaptureResultSchema.safeParse({ ok: false, failure: { code: 'bot-check', message: 'Bot check' } }).success).toBe(true);
  });

  it('rejects a capture result whose article breaks the block-offset invariant or whose failure code is unknown', () => {
    const article = makeArticle();
    const broken = { ...article, blocks: [{ ...article.blocks[0]!, end: 3 }] };
    expect(PageCaptureResultSchema.safeParse({ ok: true, article: broken }).success).toBe(false);
    expect(PageCaptureResultSchema.safeParse({ ok: false, failure: { code: 'oops', message: 'x' } }).success).toBe(false);
    expect(PageCaptureResultSchema.safeParse({ ok: true }).success).toBe(false);
  });

  it('parses capture-tab responses and rejects malformed ones', () => {
    const schema = ResponseSchemas['capture-tab'];
    const paper = {
      key: 'doi:10.1000/x',
      doi: '10.1000/x',
      url: null,
      title: 'T',
      authors: [],
      journal: null,
      year: null,
      source: 'html',
      adapter: 'generic',
      blockCount: 0,
      abstractOnly: false,
      capturedAt: '2025-01-01T00:00:00.000Z',
    };
    expect(schema.safeParse({ ok: true, paper, warnings: [] }).success).toBe(true);
    expect(schema.safeParse({ ok: false, failure: { code: 'no-tab', message: 'No tab' } }).success).toBe(true);
    expect(schema.safeParse({ ok: true, paper: { ...paper, doi: 'not a doi' }, warnings: [] }).success).toBe(false);
    expect(schema.safeParse({ ok: false, failure: 'No tab' }).success).toBe(false);
    expect(schema.safeParse(undefined).success).toBe(false);
  });
});
