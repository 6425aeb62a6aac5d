/** Authors, journal and volume from a PDF's XMP packet: a publisher's packet only (`citationFromXmp`). */
import { describe, expect, it } from 'vitest';
import { citationFromXmp } from '../../../../src/capture/pdf/pdf-metadata';

/** A parsed XMP packet as pdf.js gives it: `get` by qualified name, a Seq as an array. */
const xmp = (fields: Record<string, unknown>) => ({ get: (name: string) => fields[name] });

describe('citationFromXmp', () => {
  it('reads dc:creator in order, prism:publicationName and prism:volume', () => {
    expect(
      citationFromXmp(
        xmp({ 'prism:publicationname': ' Odd  Materials ', 'prism:volume': '25', 'dc:creator': ['Anna Berg', ' Piet  Smit '] }),
      ),
    ).toEqual({ authors: ['Anna Berg', 'Piet Smit'], journal: 'Odd Materials', volume: '25' });
  });

  it("takes nothing from a word processor's packet (no publication name): its creator is whoever saved the file", () => {
    expect(citationFromXmp(xmp({ 'dc:creator': ['jsmith'] }))).toEqual({ authors: [], journal: null, volume: null });
    expect(citationFromXmp(null)).toEqual({ authors: [], journal: null, volume: null });
  });

  it('keeps one creator given as a string, drops non-names and a placeholder volume', () => {
    expect(citationFromXmp(xmp({ 'prism:publicationName': 'J', 'dc:creator': 'Anna Berg', 'prism:volume': 'XXX' }))).toEqual({
      authors: ['Anna Berg'],
      journal: 'J',
      volume: null,
    });
    expect(citationFromXmp(xmp({ 'prism:publicationName': 'J', 'dc:creator': [42, '', '—'] })).authors).toEqual([]);
  });
});
