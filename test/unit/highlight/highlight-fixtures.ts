/**
 * A small article page as a publisher serves it (navigation, formatted source with line breaks
 * and indentation inside paragraphs, inline markup, a table), and helpers to make highlight
 * items whose selectors come from the capture of that same page — the real round trip.
 */
import { captureHtml } from '../../../src/capture/html/capture-html';
import type { HighlightItem } from '../../../src/contracts/messages';
import { describeQuote } from '../../../src/text/anchoring';

export const BANDGAP_SENTENCE = 'The combined UPS and IPES measurements yield for both cases a perovskite bandgap of 1.7 eV';

export const ARTICLE_HEAD = `
  <title>Energy levels of mixed-halide perovskite films</title>
  <meta name="citation_title" content="Energy levels of mixed-halide perovskite films">
  <meta name="citation_doi" content="10.1021/acsenergylett.7b00001">`;

export const ARTICLE_BODY = `
  <header><nav><a href="/">Journal home</a> · <a href="/login">Sign in</a></nav></header>
  <main>
    <article>
      <h1>Energy levels of mixed-halide perovskite films</h1>
      <section>
        <h2>Methods</h2>
        <p>Films were spin-coated from a 1.2 M precursor solution in DMF/DMSO (4:1) onto ITO substrates,
           annealed on a hot plate in a nitrogen glovebox and transferred to the ultrahigh-vacuum
           chamber without air exposure. Ultraviolet photoemission spectra were taken with He I
           radiation (21.22 eV); inverse photoemission spectra were recorded in the isochromat mode
           with a photon detection energy of 9.5 eV and an overall resolution of 0.45 eV.</p>
      </section>
      <section>
        <h2>Results</h2>
        <p>The combined UPS and IPES
           measurements yield for both cases a perovskite bandgap of <b>1.7 eV</b>, in agreement
           with the optical absorption onset of the films.</p>
        <p>After annealing at 100 °C the MAPbI<sub>3</sub> reference film shows a band gap of 1.6 eV,
           while its valence band maximum lies 5.4 eV below the vacuum level.</p>
        <script>window.tracking = "a perovskite bandgap of 9.9 eV";</script>
        <p hidden>A hidden note: a perovskite bandgap of 2.2 eV.</p>
      </section>
      <section>
        <h2>Discussion</h2>
        <p>Mixed-halide perovskites are attractive top cells for tandem devices because their band gap
           can be tuned by the bromide fraction. Photoemission measures the occupied states and inverse
           photoemission the unoccupied states, so that together they give the transport gap, which
           exceeds the optical gap by the exciton binding energy. For lead halide perovskites that
           binding energy is only a few tens of meV at room temperature, and the two gaps agree within
           the resolution of the inverse photoemission experiment.</p>
        <p>The position of the valence band maximum is, however, sensitive to the surface termination.
           A lead-rich surface pins the Fermi level close to the conduction band and makes the film
           appear strongly n-type, whereas a halide-rich surface shifts the Fermi level towards midgap.
           We therefore determined the leading edges on a logarithmic intensity scale, which accounts
           for the low density of states at the band edges, and we compared films from three batches.
           The spread between batches was 0.1 eV for the valence band maximum and 0.15 eV for the
           conduction band minimum, smaller than the resolution of the combined measurement.</p>
        <p>Under illumination the halides segregate into iodide-rich and bromide-rich domains, and the
           photoluminescence shifts to lower energy within minutes. The electronic gap measured in the
           dark is therefore an upper bound for the gap that governs the open-circuit voltage of an
           operating device. Passivation with large organic cations slowed this segregation by a factor
           of about five in our films, in line with earlier reports on two-dimensional capping layers.
           These results indicate that the energy-level alignment at the hole-transport interface
           should be designed for the segregated, not the pristine, composition.</p>
      </section>
    </article>
  </main>`;

/** Replace the jsdom document's head and body (the article page by default) and return the document. */
export function loadBody(document: Document, html: string = ARTICLE_BODY, head: string = ARTICLE_HEAD): Document {
  document.head.innerHTML = head;
  document.body.innerHTML = html;
  return document;
}

/** An item whose selectors are the capture's `describeQuote` of `exact` in the captured article of `document`. */
export function itemFromCapture(
  document: Document,
  id: string,
  exact: string,
  overrides: Partial<Omit<HighlightItem, 'quote' | 'position' | 'id'>> = {},
): HighlightItem {
  const article = captureHtml(document, { url: 'https://example.org/article' });
  const start = article.text.indexOf(exact);
  if (start < 0) throw new Error(`fixture: "${exact}" is not in the captured text:\n${article.text}`);
  const evidence = describeQuote(article.text, start, start + exact.length);
  return {
    id,
    status: 'verified',
    quote: evidence.quote,
    position: evidence.position,
    card: { material: 'perovskite', property: 'band gap', value: '1.7', unit: 'eV' },
    ...overrides,
  };
}

/** An item from a bare quote (no context), as a model without selectors gives it. */
export function itemFromQuote(id: string, exact: string, overrides: Partial<Omit<HighlightItem, 'id'>> = {}): HighlightItem {
  return {
    id,
    status: 'candidate',
    quote: { type: 'TextQuoteSelector', exact, prefix: '', suffix: '' },
    card: { material: 'MAPbI3', property: 'band gap', value: '1.6', unit: 'eV' },
    ...overrides,
  };
}

/** A fake client rect (jsdom has no layout). */
export function fakeRect(left: number, top: number, width: number, height: number): DOMRect {
  return { left, top, width, height, right: left + width, bottom: top + height, x: left, y: top, toJSON: () => ({}) } as DOMRect;
}

/**
 * Give every jsdom `Range` one client rect per text line, made up from its text: 8 px per
 * character, 20 px lines, placed by the range's start offset. Returns the restore function.
 */
export function installFakeRangeRects(window: Window): () => void {
  const prototype = (window as Window & typeof globalThis).Range.prototype as Range & { getClientRects?: () => DOMRectList };
  const had = Object.prototype.hasOwnProperty.call(prototype, 'getClientRects');
  const original = prototype.getClientRects;
  prototype.getClientRects = function (this: Range) {
    const length = this.toString().length;
    const rects = length === 0 ? [] : [fakeRect(10 + this.startOffset * 8, 100, length * 8, 20)];
    return rects as unknown as DOMRectList;
  };
  return () => {
    if (had) prototype.getClientRects = original;
    else Reflect.deleteProperty(prototype, 'getClientRects');
  };
}
