/**
 * The attribution check on small self-written articles (one rule per case) and on real
 * sentences of bandgap-200 (read from ../shared at test time; skipped when it is absent).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ArticleBuilder } from '../../../src/capture/article-builder';
import { captureText } from '../../../src/capture/text/capture-text';
import type { Article, BlockKind } from '../../../src/contracts/article';
import type { Triplet } from '../../../src/contracts/triplet';
import { anchorQuoteInArticle } from '../../../src/text/anchoring';
import { checkAttribution } from '../../../src/verify/attribution';
import { sharedDataSkipReason, sharedPath } from '../../support/shared-data';

function article(...blocks: Array<[BlockKind, string]>): Article {
  const builder = new ArticleBuilder();
  for (const [kind, text] of blocks) builder.add(kind, text);
  const { text, blocks: built } = builder.build();
  return {
    doi: null,
    doiOrigin: null,
    title: 'A test paper',
    authors: [],
    journal: null,
    year: null,
    url: null,
    source: 'text',
    adapter: 'test',
    blocks: built,
    text,
    abstractOnly: false,
    warnings: [],
  };
}

function triplet(material: string, property: string, value: number, unit: string, quote: string): Triplet {
  return {
    material,
    property,
    value: { kind: 'number', value },
    unit,
    evidence: { quote: { type: 'TextQuoteSelector', exact: quote, prefix: '', suffix: '' } },
    engine: 'test',
  };
}

function check(paper: Article, claim: Triplet) {
  return checkAttribution(claim, paper, anchorQuoteInArticle(paper, claim.evidence!.quote.exact));
}

describe('checkAttribution: material', () => {
  const prose = article(['paragraph', 'GaN has a direct band gap of 3.4 eV at room temperature.']);

  it('accepts the material named in the span', () => {
    const result = check(prose, triplet('GaN', 'band_gap', 3.4, 'eV', 'GaN has a direct band gap of 3.4 eV'));
    expect(result).toEqual({ attributed: true, materialShown: true, propertyShown: true, reasons: [] });
  });

  it('rejects "Silicon 3.4 eV" claimed on a sentence about GaN', () => {
    const result = check(prose, triplet('Silicon', 'band_gap', 3.4, 'eV', 'GaN has a direct band gap of 3.4 eV'));
    expect(result.attributed).toBe(false);
    expect(result.materialShown).toBe(false);
    expect(result.reasons).toEqual(['material not in the evidence']);
  });

  it('accepts an abbreviation the paper defines for the material', () => {
    const paper = article(
      ['paragraph', 'Thin films of bismuth ferrite (BFO) were grown by pulsed laser deposition.'],
      ['paragraph', 'The optical band gap of BFO is 2.7 eV.'],
    );
    expect(check(paper, triplet('bismuth ferrite', 'band_gap', 2.7, 'eV', 'The optical band gap of BFO is 2.7 eV')).attributed).toBe(true);
    expect(check(paper, triplet('lead titanate', 'band_gap', 2.7, 'eV', 'The optical band gap of BFO is 2.7 eV')).attributed).toBe(false);
  });

  it('accepts an equal composition (Ga1N1 is GaN)', () => {
    const paper = article(['paragraph', 'The band gap of Ga1N1 is 3.4 eV.']);
    expect(check(paper, triplet('GaN', 'band_gap', 3.4, 'eV', 'The band gap of Ga1N1 is 3.4 eV')).attributed).toBe(true);
    expect(check(paper, triplet('AlN', 'band_gap', 3.4, 'eV', 'The band gap of Ga1N1 is 3.4 eV')).attributed).toBe(false);
  });

  it('accepts the material in the sentence before a span that refers back to it', () => {
    const paper = article(['paragraph', 'We grew ZnO nanowires on sapphire. Its band gap is 3.3 eV at 300 K.']);
    expect(check(paper, triplet('ZnO', 'band_gap', 3.3, 'eV', 'Its band gap is 3.3 eV')).attributed).toBe(true);
    // Without a word that refers back, the sentence before does not count.
    const plain = article(['paragraph', 'We grew ZnO nanowires on sapphire. A band gap of 3.3 eV was measured.']);
    expect(check(plain, triplet('ZnO', 'band_gap', 3.3, 'eV', 'A band gap of 3.3 eV was measured')).materialShown).toBe(false);
  });

  it('does not look for the sentence before in another block', () => {
    const paper = article(['paragraph', 'We grew ZnO nanowires on sapphire.'], ['paragraph', 'Its band gap is 3.3 eV at 300 K.']);
    expect(check(paper, triplet('ZnO', 'band_gap', 3.3, 'eV', 'Its band gap is 3.3 eV')).materialShown).toBe(false);
  });
});

describe('checkAttribution: tables', () => {
  const table = article(
    ['caption', 'Table 1. Band gaps and electron affinities of the nitrides.'],
    ['table', 'Material\tEg (eV)\tχ (eV)\nGaN\t3.4\t4.1\nAlN\t6.2\t1.9'],
  );

  it('takes the material from the row label cell and the property from the column header', () => {
    expect(check(table, triplet('AlN', 'band_gap', 6.2, 'eV', '6.2'))).toMatchObject({ attributed: true });
    expect(check(table, triplet('GaN', 'band_gap', 6.2, 'eV', '6.2')).materialShown).toBe(false);
  });

  it('rejects a value of the electron-affinity column claimed as band gap', () => {
    const result = check(table, triplet('GaN', 'band_gap', 4.1, 'eV', '4.1'));
    expect(result.materialShown).toBe(true);
    expect(result.propertyShown).toBe(false);
    expect(result.reasons).toEqual(['property not in the evidence']);
  });

  it('uses the caption when no column header names the property', () => {
    const paper = article(['caption', 'Table 2. Calculated band gaps.'], ['table', 'Compound\tPBE (eV)\tHSE06 (eV)\nGaN\t1.7\t3.1']);
    expect(check(paper, triplet('GaN', 'band_gap', 3.1, 'eV', '3.1')).attributed).toBe(true);
  });
});

describe('checkAttribution: spans', () => {
  it('rejects a quote crossing two blocks', () => {
    const paper = article(['paragraph', 'The band gap of GaN is 3.4 eV.'], ['paragraph', 'It was measured at 300 K.']);
    const start = paper.text.indexOf('GaN');
    const end = paper.text.indexOf('measured');
    const result = checkAttribution(triplet('GaN', 'band_gap', 3.4, 'eV', 'x'), paper, { start, end, score: 1, method: 'position' });
    expect(result).toMatchObject({ attributed: false, reasons: ['quote crosses two blocks'] });
  });

  it('rejects a property other than the one the sentence names (Tc vs Curie temperature)', () => {
    const paper = article(['paragraph', 'MgB2 becomes superconducting with Tc = 39 K.']);
    expect(check(paper, triplet('MgB2', 'tc', 39, 'K', 'MgB2 becomes superconducting with Tc = 39 K')).attributed).toBe(true);
    expect(check(paper, triplet('MgB2', 'curie_temperature', 39, 'K', 'MgB2 becomes superconducting with Tc = 39 K')).reasons).toEqual([
      'property not in the evidence',
    ]);
  });
});

const skip = sharedDataSkipReason();
describe.skipIf(skip !== undefined)(`checkAttribution on bandgap-200 sentences${skip ? ` (${skip})` : ''}`, () => {
  const folder = sharedPath('datasets', 'bandgap-200', 'text-pub');
  const file = existsSync(folder) ? readdirSync(folder).find((name) => name.startsWith('7_')) : undefined;
  const paper = () => captureText(readFileSync(`${folder}/${file}`, 'utf8'), {});

  it('accepts the truth sentences of paper 7 and rejects them for the other material', () => {
    const sentence = 'SrFBiS2 is a semiconductor with a direct band gap of 0.8 eV';
    const energyGap = 'the energy gap was found to be 0.82 eV';
    const text = paper();
    expect(check(text, triplet('SrFBiS2', 'band_gap', 0.8, 'eV', sentence)).attributed).toBe(true);
    expect(check(text, triplet('LaOBiS2', 'band_gap', 0.8, 'eV', sentence)).reasons).toEqual(['material not in the evidence']);
    // "This is similar to LaOBiS2 where the energy gap was found to be 0.82 eV."
    expect(check(text, triplet('LaOBiS2', 'band_gap', 0.82, 'eV', `LaOBiS2 where ${energyGap}`)).attributed).toBe(true);
    expect(check(text, triplet('SrFBiS2', 'band_gap', 0.82, 'eV', `LaOBiS2 where ${energyGap}`)).materialShown).toBe(false);
  });
});
