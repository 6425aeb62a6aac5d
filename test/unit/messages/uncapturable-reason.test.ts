import { describe, expect, it } from 'vitest';
import { describeInjectionError, uncapturableReason } from '../../../src/extension/uncapturable-reason';
import { tabIdFromSearch } from '../../../src/extension/target-tab';

describe('uncapturable pages', () => {
  it('names browser pages and the extension store before trying', () => {
    expect(uncapturableReason('chrome://settings/')).toBe(
      'No capturable tab: chrome:// pages cannot be read. Open a paper in this tab and try again.',
    );
    expect(uncapturableReason('about:blank')).toMatch(/^No capturable tab/);
    expect(uncapturableReason('https://chromewebstore.google.com/detail/x/abc')).toMatch(/extension store/);
    expect(uncapturableReason('https://pubs.acs.org/doi/10.1021/x')).toBeUndefined();
    expect(uncapturableReason(undefined)).toBeUndefined();
  });

  it('turns injection errors into words', () => {
    expect(
      describeInjectionError(
        new Error('Cannot access contents of the page. Extension manifest must request permission to access the respective host.'),
      ),
    ).toMatch(/click its toolbar button/);
    expect(describeInjectionError(new Error('No tab with id: 5.'))).toBe('No capturable tab: the tab was closed.');
    expect(describeInjectionError(new Error('Frame with ID 0 is showing error page'))).toMatch(/error page/);
  });
});

describe('target tab', () => {
  it('reads a whole-number ?tabId and ignores anything else', () => {
    expect(tabIdFromSearch('?tabId=42')).toBe(42);
    expect(tabIdFromSearch('')).toBeUndefined();
    expect(tabIdFromSearch('?tabId=-1')).toBeUndefined();
    expect(tabIdFromSearch('?tabId=4x')).toBeUndefined();
  });
});
