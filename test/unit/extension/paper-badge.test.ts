import { describe, expect, it } from 'vitest';
import {
  candidateBadgeText,
  DEFAULT_ACTION_TITLE,
  isRecognizedPaper,
  NO_BADGE,
  PAPER_BADGE_COLOR,
  PAPER_BADGE_TEXT_COLOR,
  paperActionTitle,
  paperBadge,
} from '../../../src/extension/paper-badge';

/** WCAG 2.x relative luminance of "#rrggbb". */
function luminance(hex: string): number {
  const channels = [1, 3, 5].map((index) => parseInt(hex.slice(index, index + 2), 16) / 255);
  const [r, g, b] = channels.map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

describe('isRecognizedPaper', () => {
  it('recognizes an article whose DOI the page itself names', () => {
    for (const doiOrigin of ['meta', 'json-ld', 'xml', 'url'] as const)
      expect(isRecognizedPaper({ doi: '10.1021/x', doiOrigin, adapter: 'generic' })).toBe(true);
  });

  it('does not take a DOI merely linked in the body of a generic page as a paper', () => {
    expect(isRecognizedPaper({ doi: '10.1021/x', doiOrigin: 'body', adapter: 'generic' })).toBe(false);
    expect(isRecognizedPaper({ doi: null, doiOrigin: null, adapter: 'generic' })).toBe(false);
  });

  it('recognizes what a publisher adapter read, DOI or not', () => {
    expect(isRecognizedPaper({ doi: null, doiOrigin: null, adapter: 'acs' })).toBe(true);
    expect(isRecognizedPaper({ doi: '10.1039/x', doiOrigin: 'body', adapter: 'rsc' })).toBe(true);
  });
});

describe('the badge', () => {
  it('shows the count, up to 999, then 999+', () => {
    expect(candidateBadgeText(0)).toBe('0');
    expect(candidateBadgeText(7)).toBe('7');
    expect(candidateBadgeText(999)).toBe('999');
    expect(candidateBadgeText(1000)).toBe('999+');
    expect(() => candidateBadgeText(-1)).toThrow(RangeError);
    expect(() => candidateBadgeText(1.5)).toThrow(RangeError);
  });

  it('says in the tooltip that the page is a paper and how many candidate facts it holds', () => {
    expect(paperActionTitle(12)).toBe('Assay: a paper — 12 candidate facts');
    expect(paperActionTitle(1)).toBe('Assay: a paper — 1 candidate fact');
    expect(paperActionTitle(0)).toBe('Assay: a paper — 0 candidate facts');
    expect(paperActionTitle(null, 'the offscreen document did not answer')).toBe(
      'Assay: a paper — candidate facts not counted (the offscreen document did not answer)',
    );
  });

  it('shows "?" when the count failed, and nothing with the default title otherwise', () => {
    expect(paperBadge(1234)).toEqual({ text: '999+', title: 'Assay: a paper — 1234 candidate facts' });
    expect(paperBadge(null, 'no answer').text).toBe('?');
    expect(NO_BADGE).toEqual({ text: '', title: DEFAULT_ACTION_TITLE });
  });

  it('draws the badge with AA contrast (4.5:1)', () => {
    const [light, dark] = [luminance(PAPER_BADGE_TEXT_COLOR), luminance(PAPER_BADGE_COLOR)].sort((a, b) => b - a) as [number, number];
    expect((light + 0.05) / (dark + 0.05)).toBeGreaterThanOrEqual(4.5);
  });
});
