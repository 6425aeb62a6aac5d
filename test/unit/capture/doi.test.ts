import { describe, expect, it } from 'vitest';
import { doiFromUrl, findDois, normalizeDoi } from '../../../src/capture/doi';

describe('normalizeDoi', () => {
  it.each([
    // Forms seen in ../shared/fixtures/SOURCES.md and the pages it lists.
    ['10.1021/acs.jpca.3c05870', '10.1021/acs.jpca.3c05870'],
    ['doi:10.1038/nmat942', '10.1038/nmat942'], // nature.com citation_doi with a prefix
    ['DOI: 10.1039/C6OB02074G', '10.1039/c6ob02074g'], // RSC upper case
    ['https://doi.org/10.1063/1.4817897', '10.1063/1.4817897'],
    ['http://dx.doi.org/10.1016/j.ympev.2014.10.009', '10.1016/j.ympev.2014.10.009'],
    ['https://doi.org/10.1021%2Facsnano.5b06675', '10.1021/acsnano.5b06675'],
    ['info:doi/10.1103/PhysRevB.90.214101', '10.1103/physrevb.90.214101'],
    ['https://pubs.acs.org/doi/abs/10.1021/jp003647e', '10.1021/jp003647e'],
    ['10.1016/S0009-2614(97)04014-1', '10.1016/s0009-2614(97)04014-1'], // parentheses are part of the DOI
    ['(see 10.1016/S0009-2614(97)04014-1)', '10.1016/s0009-2614(97)04014-1'], // …but not the closing one
    ['10.1088/0953-8984/22/14/146006.', '10.1088/0953-8984/22/14/146006'],
    ['https://doi.org/10.1002/adsc.201400257?download=true', '10.1002/adsc.201400257'],
  ])('%s → %s', (raw, expected) => {
    expect(normalizeDoi(raw)).toBe(expected);
  });

  it.each(['', '   ', 'not a doi', '10.12/short-prefix', 'ISSN 0953-8984', null, undefined])('rejects %j', (raw) => {
    expect(normalizeDoi(raw)).toBeNull();
  });
});

describe('findDois', () => {
  it('finds each DOI once, in order, with sentence punctuation trimmed', () => {
    const text =
      'Published as doi:10.1088/2053-1583/3/1/011003. See also https://doi.org/10.1038/NMAT942, and doi:10.1088/2053-1583/3/1/011003 again.';
    expect(findDois(text)).toEqual(['10.1088/2053-1583/3/1/011003', '10.1038/nmat942']);
  });
});

describe('doiFromUrl', () => {
  it.each([
    ['https://pubs.acs.org/doi/10.1021/acs.jpca.3c05870', '10.1021/acs.jpca.3c05870'],
    ['https://onlinelibrary.wiley.com/doi/full/10.1002/admi.201400532', '10.1002/admi.201400532'],
    ['https://doi.org/10.1103/PhysRevLett.122.145901', '10.1103/physrevlett.122.145901'],
    ['https://www.nature.com/articles/nmat942', null],
    [null, null],
  ])('%s → %s', (url, expected) => {
    expect(doiFromUrl(url)).toBe(expected);
  });
});
