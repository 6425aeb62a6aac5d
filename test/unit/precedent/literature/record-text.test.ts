import { describe, expect, it } from 'vitest';
import { arxivIdFromDoi, jatsToText, stripArxivVersion, titleKey } from '../../../../src/precedent/literature/record-text';

describe('jatsToText', () => {
  it('keeps inline elements joined and separates blocks', () => {
    expect(jatsToText('<jats:title>Abstract</jats:title><jats:p>T<jats:sub>c</jats:sub> = 39 K</jats:p>')).toBe('Abstract Tc = 39 K');
  });

  it('decodes HTML entities the XML spec does not define', () => {
    expect(jatsToText('<jats:p>a&nbsp;b &lt;c&gt; &#946;</jats:p>')).toBe('a b <c> β');
  });

  it('falls back to dropping tags for markup the parser rejects, still decoding entities', () => {
    // An unclosed <jats:p> and a bare "&" make this invalid XML.
    // A stray '<' swallows the text up to the next '>' (" 2 K & T<jats:sub"): the fallback cannot
    // tell a less-than sign from a tag, so "2 K & T" is lost — a known, documented limitation.
    expect(jatsToText('<jats:p>Tc < 2 K & T<jats:sub>N</jats:sub> &amp; more')).toBe('Tc N & more');
    // Every tag becomes a space in the fallback, so inline subscripts come apart ("MgB 2").
    expect(jatsToText('<jats:p>MgB<jats:sub>2</jats:sub> &amp; AlB<jats:sub>2</jats:sub>')).toBe('MgB 2 & AlB 2');
  });

  it('returns null for markup with no text', () => {
    expect(jatsToText('<jats:p> </jats:p>')).toBeNull();
  });
});

describe('identifiers', () => {
  it('reads arXiv ids from arXiv DataCite DOIs and strips versions', () => {
    expect(arxivIdFromDoi('10.48550/arxiv.2101.00001')).toBe('2101.00001');
    expect(arxivIdFromDoi('10.1038/35065039')).toBeUndefined();
    expect(stripArxivVersion('cond-mat/0102167v3')).toBe('cond-mat/0102167');
  });

  it('builds the title key from letters and digits only', () => {
    expect(titleKey('Tc of MgB₂!')).toBe('tcofmgb2');
    expect(titleKey('  TC  of  mgb2 ')).toBe('tcofmgb2');
  });
});
