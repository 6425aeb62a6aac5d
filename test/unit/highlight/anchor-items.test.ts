// @vitest-environment jsdom
import { afterEach, describe, expect, test } from 'vitest';
import { anchorItems, failureReason } from '../../../src/highlight/anchor-items';
import { readPageText } from '../../../src/highlight/page-text';
import { BANDGAP_SENTENCE, itemFromCapture, itemFromQuote, loadBody } from './highlight-fixtures';

afterEach(() => {
  document.body.innerHTML = '';
});

function squash(text: string): string {
  return text.replace(/\s+/g, ' ');
}

describe('anchorItems', () => {
  test('anchors a quote described from the capture of the same page', () => {
    loadBody(document);
    const item = itemFromCapture(document, 'f1', BANDGAP_SENTENCE);
    const { anchored, failed } = anchorItems([item], readPageText({ document, window }));
    expect(failed).toEqual([]);
    expect(anchored.map((entry) => entry.item.id)).toEqual(['f1']);
    expect(squash(anchored[0]!.range.toString())).toBe(BANDGAP_SENTENCE);
  });

  test('narrows the range to the mark (the value as printed) inside the quote', () => {
    loadBody(document);
    const item = itemFromCapture(document, 'f1', BANDGAP_SENTENCE, { mark: '1.7 eV' });
    const [entry] = anchorItems([item], readPageText({ document, window })).anchored;
    expect(entry!.range.toString()).toBe('1.7 eV');
    // The mark is the <b> element's whole text.
    expect(entry!.range.startContainer.parentElement?.tagName).toBe('B');
  });

  test('finds a mark written with other spacing ("1.7eV") through the folded view', () => {
    loadBody(document);
    const item = itemFromCapture(document, 'f1', BANDGAP_SENTENCE, { mark: '1.7eV' });
    const [entry] = anchorItems([item], readPageText({ document, window })).anchored;
    expect(entry!.range.toString()).toBe('1.7 eV');
  });

  test('keeps the whole quote when the mark is not inside it', () => {
    loadBody(document);
    // "1.6 eV" is in the page, but in another paragraph: it must not be marked for this quote.
    const item = itemFromCapture(document, 'f1', BANDGAP_SENTENCE, { mark: '1.6 eV' });
    const [entry] = anchorItems([item], readPageText({ document, window })).anchored;
    expect(squash(entry!.range.toString())).toBe(BANDGAP_SENTENCE);
  });

  test('paints a rejected fact on its value only, and not at all over its whole sentence or over another fact’s mark', () => {
    loadBody(document);
    const page = readPageText({ document, window });
    const onValue = itemFromCapture(document, 'on-value', BANDGAP_SENTENCE, { status: 'rejected', mark: '1.7 eV' });
    const noValue = itemFromCapture(document, 'no-value', BANDGAP_SENTENCE, { status: 'rejected', mark: '9.9 eV' });
    expect(anchorItems([onValue], page).anchored[0]!.range.toString()).toBe('1.7 eV');
    expect(anchorItems([noValue], page)).toEqual({
      anchored: [],
      failed: [{ id: 'no-value', reason: 'rejected, and its value is not printed in its quote, so there is nothing of it to mark' }],
    });
    // The same value verified for the sentence's material and rejected for another: only the verified mark is painted.
    const verified = itemFromCapture(document, 'verified', BANDGAP_SENTENCE, { status: 'verified', mark: '1.7 eV' });
    const { anchored, failed } = anchorItems([onValue, verified], page);
    expect(anchored.map((entry) => [entry.item.id, entry.range.toString()])).toEqual([['verified', '1.7 eV']]);
    expect(failed).toEqual([{ id: 'on-value', reason: 'rejected, and its value is the mark of another fact here, which it would cover' }]);
    // A fact that is not rejected keeps its whole quote when its mark is not in it, as before.
    const review = itemFromCapture(document, 'review', BANDGAP_SENTENCE, { status: 'needs_review', mark: '9.9 eV' });
    expect(squash(anchorItems([review], page).anchored[0]!.range.toString())).toBe(BANDGAP_SENTENCE);
  });

  test('anchors a quote whose spacing differs from the page (a model’s copy)', () => {
    loadBody(document);
    const item = itemFromQuote('f2', 'the MAPbI3 reference film shows a band gap of 1.6eV');
    const { anchored } = anchorItems([item], readPageText({ document, window }));
    // MAPbI<sub>3</sub> is three text nodes; the range spans them.
    expect(squash(anchored[0]!.range.toString())).toBe('the MAPbI3 reference film shows a band gap of 1.6 eV');
  });

  test('picks the occurrence whose context matches when the quote occurs twice', () => {
    loadBody(document, '<p>Sample A: a band gap of 1.7 eV was measured.</p><p>Sample B: a band gap of 1.7 eV was measured.</p>');
    const item = itemFromQuote('f3', 'a band gap of 1.7 eV', {
      quote: { type: 'TextQuoteSelector', exact: 'a band gap of 1.7 eV', prefix: 'Sample B: ', suffix: ' was' },
    });
    const [entry] = anchorItems([item], readPageText({ document, window })).anchored;
    expect(entry!.range.startContainer.textContent).toBe('Sample B: a band gap of 1.7 eV was measured.');
    expect(entry!.range.startOffset).toBe(10);
  });

  test('gives the reason in words for each quote it cannot place, in item order', () => {
    loadBody(document);
    const items = [
      itemFromQuote('absent', 'The dielectric constant of the film was found to be 25 at 1 kHz'),
      itemFromQuote('short', '2.9 eV'),
      itemFromQuote('f1', BANDGAP_SENTENCE),
      // Only the hidden paragraph and the script hold this: neither is page text.
      itemFromQuote('hidden', 'A hidden note: a perovskite bandgap of 2.2 eV.'),
    ];
    const { anchored, failed } = anchorItems(items, readPageText({ document, window }));
    expect(anchored.map((entry) => entry.item.id)).toEqual(['f1']);
    expect(failed).toEqual([
      { id: 'absent', reason: 'the quote was not found in the page' },
      { id: 'short', reason: 'the quote was not found in the page, and it is too short (under 16 characters) to be matched approximately' },
      { id: 'hidden', reason: expect.stringMatching(/^the page changed and the quote matched only approximately below the threshold/) },
    ]);
  });
});

describe('failureReason', () => {
  test('names the similarity reached and the threshold when the page changed too much', () => {
    // The quote folds to "thetinleadalloysamplegavebandgapsof1.3eV" (40 characters); its best
    // place in the page ("thetin-leadalloyfilmgaveabandgapof1.25eV") needs 10 edits by approx-string-match's
    // count (the hyphen, "sample" against "film", the "a" before "bandgap", "1.3" against "1.25"), so the quote
    // similarity is 1 − 10/40 = 75 %, under the 80 % (MIN_FUZZY_QUOTE_SIMILARITY) needed.
    const text = 'In the revised version the tin-lead alloy film gave a band gap of 1.25 eV only.';
    const item = itemFromQuote('x', 'the tin lead alloy sample gave bandgaps of 1.3 eV');
    expect(failureReason(text, item)).toBe(
      'the page changed and the quote matched only approximately below the threshold (75% of it alike, 80% needed)',
    );
  });

  test('says so when the page has no text', () => {
    expect(failureReason('  \n ', itemFromQuote('x', 'anything at all that is long'))).toBe('the page has no visible text');
  });

  test('explains an elided quote whose pieces are not all there', () => {
    const reason = failureReason(
      'The films were annealed at 100 °C for ten minutes.',
      itemFromQuote('x', 'The films were annealed … band gap of 1.6 eV'),
    );
    expect(reason).toMatch(/pieces of the shortened quote/);
  });
});
