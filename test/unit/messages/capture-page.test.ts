import { describe, expect, it } from 'vitest';
import { nodeDomParser } from '../../../src/capture/node/node-dom';
import { capturePage } from '../../../src/extension/capture-page';

const parse = (html: string) => nodeDomParser().parseFromString(html, 'text/html');

describe('capturePage', () => {
  it('says a PDF viewer tab is a PDF, not a page without article text', () => {
    const viewer = parse('<html><body style="margin:0"><embed type="application/pdf" src="about:blank"></body></html>');
    const result = capturePage(viewer, 'https://example.org/paper.pdf');
    expect(result).toMatchObject({ ok: false, failure: { code: 'unsupported-type' } });
    expect(result.ok ? '' : result.failure.message).toMatch(/PDF/);
  });

  it('turns a capture error into a failure value instead of throwing', () => {
    const blocked = parse('<html><head><title>Just a moment...</title></head><body><div id="cf-challenge-running"></div></body></html>');
    expect(capturePage(blocked, 'https://example.org/')).toMatchObject({ ok: false, failure: { code: 'bot-check' } });
  });
});
