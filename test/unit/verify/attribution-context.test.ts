/**
 * The attribution check's contextual property names ("gap" for the band gap, "superconductivity"
 * for Tc) and the material names read out of descriptive claims: one self-written case per rule,
 * then real sentences picked from ../shared by general patterns at test time (skipped when it
 * is absent). Expected verdicts come from the rule, never from a particular paper.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ArticleBuilder } from '../../../src/capture/article-builder';
import type { Article, BlockKind } from '../../../src/contracts/article';
import type { Triplet } from '../../../src/contracts/triplet';
import { parseBandgapTruth } from '../../../src/eval/bandgap/bandgap-truth';
import { findPropertyMentions, loadPropertySchemas } from '../../../src/properties';
import { anchorQuoteInArticle } from '../../../src/text/anchoring';
import { splitSentences } from '../../../src/text/split-sentences';
import { checkAttribution } from '../../../src/verify/attribution';
import { materialNames, namesMaterial } from '../../../src/verify/material-named';
import { sharedDataSkipReason, sharedPath } from '../../support/shared-data';

const schemas = loadPropertySchemas();
const withoutContext = schemas.map((schema) => ({ ...schema, contextualSynonyms: [] }));

/** An article of one block of `kind` holding `text`. */
function paper(text: string, kind: BlockKind = 'paragraph'): Article {
  const builder = new ArticleBuilder();
  builder.add(kind, text);
  const { text: built, blocks } = builder.build();
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
    blocks,
    text: built,
    abstractOnly: false,
    warnings: [],
  };
}

function claim(material: string, property: string, value: number, unit: string, quote: string): Triplet {
  return {
    material,
    property,
    value: { kind: 'number', value },
    unit,
    evidence: { quote: { type: 'TextQuoteSelector', exact: quote, prefix: '', suffix: '' } },
    engine: 'test',
  };
}

/** The verdict on `quote` as the evidence of `triplet` in an article made of `text` alone (or `quote`). */
function verdict(triplet: Triplet, text = triplet.evidence!.quote.exact, dependencies = { schemas }) {
  const article = paper(text);
  return checkAttribution(triplet, article, anchorQuoteInArticle(article, triplet.evidence!.quote.exact), dependencies);
}

describe('contextual names of the band gap ("gap")', () => {
  it('counts "gap" next to an energy in eV or meV', () => {
    expect(verdict(claim('CrI3', 'band_gap', 0.04, 'eV', 'The gap of CrI3 is 40 meV.')).attributed).toBe(true);
    expect(verdict(claim('InSb', 'band_gap', 0.17, 'eV', 'InSb has a gap of 0.17 eV at 300 K.')).attributed).toBe(true);
  });

  it('does not count "gap" without a value in the property’s units', () => {
    const sentence = 'InSb has a small gap, and the gap closes under pressure at 3 GPa.';
    expect(verdict(claim('InSb', 'band_gap', 3, 'GPa', sentence)).propertyShown).toBe(false);
  });

  it('counts a value of zero written in words before the name', () => {
    expect(verdict(claim('HgTe', 'band_gap', 0, 'eV', 'HgTe is a zero-gap semiconductor.')).attributed).toBe(true);
    expect(verdict(claim('HgTe', 'band_gap', 0, 'eV', 'HgTe has a zero gap.')).attributed).toBe(true);
  });

  it('does not count the gaps of other excitations or of space', () => {
    for (const sentence of [
      'The superconducting gap of Nb is 1.5 meV.',
      'A spin gap of 12 meV opens in CuGeO3.',
      'The spin-gap of CuGeO3 is 2 meV.',
      'The phonon gap of GaN is 20 meV.',
      'The van der Waals gap of MoS2 is about 0.3 eV wide in energy.',
    ]) {
      const material = /of (\S+) is|in (\S+)\./u.exec(sentence);
      const name = material?.[1] ?? material?.[2] ?? 'GaN';
      expect(verdict(claim(name.replace(/\.$/u, ''), 'band_gap', 1, 'meV', sentence)).propertyShown, sentence).toBe(false);
    }
  });

  it('does not count "gap" where the sentence names another property of the same dimension', () => {
    // No built-in schema shares the band gap's dimension, so use a user schema beside it.
    const workFunction = { ...schemas.find((schema) => schema.name === 'band_gap')!, name: 'work_function', synonyms: ['work function'] };
    const sentence = 'The gap of ZnO is 3.3 eV and its work function is 5.2 eV.';
    const rivals = { schemas: [...schemas, { ...workFunction, symbols: [], contextualSynonyms: [] }] };
    expect(verdict(claim('ZnO', 'band_gap', 3.3, 'eV', sentence), sentence, rivals).propertyShown).toBe(false);
    expect(verdict(claim('ZnO', 'band_gap', 3.3, 'eV', sentence)).propertyShown).toBe(true);
  });

  it('counts a table column headed "Gap (eV)"', () => {
    const table = paper('Compound\tGap (eV)\nGaN\t3.4', 'table');
    const start = table.text.indexOf('GaN');
    const result = checkAttribution(claim('GaN', 'band_gap', 3.4, 'eV', 'GaN\t3.4'), table, {
      start,
      end: start + 'GaN\t3.4'.length,
      score: 1,
      method: 'position',
    });
    expect(result.attributed).toBe(true);
  });
});

describe('contextual names of Tc ("superconductivity at …")', () => {
  it('counts superconductivity stated with a temperature', () => {
    expect(verdict(claim('NbN', 'tc', 16, 'K', 'Superconductivity at 16 K was found in NbN films.')).attributed).toBe(true);
    expect(verdict(claim('MgB2', 'tc', 39, 'K', 'MgB2 becomes superconducting below 39 K.')).attributed).toBe(true);
  });

  it('does not count negated superconductivity', () => {
    for (const sentence of [
      'No superconductivity was observed in LaCoO3 down to 2 K.',
      'LaCoO3 is non-superconducting down to 2 K.',
      'LaCoO3 is not superconducting above 2 K.',
    ])
      expect(verdict(claim('LaCoO3', 'tc', 2, 'K', sentence)).propertyShown, sentence).toBe(false);
  });

  it('is not a Curie or Néel temperature, and yields to a named magnetic transition', () => {
    const sentence = 'Superconductivity at 16 K was found in NbN films.';
    expect(verdict(claim('NbN', 'curie_temperature', 16, 'K', sentence)).propertyShown).toBe(false);
    const both = 'ErRh4B4 shows superconductivity at 8.7 K and a Curie temperature of 0.9 K.';
    expect(verdict(claim('ErRh4B4', 'tc', 0.9, 'K', both)).propertyShown).toBe(false);
  });

  it('stays out of the deterministic scan', () => {
    expect(findPropertyMentions('Superconductivity at 16 K; a gap of 40 meV.', schemas)).toEqual([]);
  });
});

describe('material names inside a descriptive claim', () => {
  const names = (material: string) => materialNames(material, paper('x'));

  it('joins spaced formulas between descriptive words', () => {
    expect(namesMaterial('Films of YNi2B2C were grown.', names('nonmagnetic YNi 2 B 2 C and LuNi 2 B 2 C'))).toBe(true);
    expect(namesMaterial('LuNi2B2C crystals', names('nonmagnetic YNi 2 B 2 C and LuNi 2 B 2 C'))).toBe(true);
    expect(namesMaterial('AOs2O6 pyrochlores', names('AOs 2 O 6 with A = K, Rb'))).toBe(true);
    expect(namesMaterial('Tl2Ba2CuO6+δ crystals', names('OD Tl 2 Ba 2 CuO 6+δ'))).toBe(true);
  });

  it('never takes a lone constituent of the description for the material', () => {
    expect(namesMaterial('Rb metal', names('AOs 2 O 6 with A = K, Rb'))).toBe(false);
    expect(namesMaterial('NiO films', names('nonmagnetic YNi 2 B 2 C'))).toBe(false);
  });

  it('reads names cut by a suspended hyphen', () => {
    expect(namesMaterial('Both α- and β-Sn are stable here.', names('α-Sn'))).toBe(true);
    expect(namesMaterial('The 2H-, 1T- and 1T′-MoS2 phases differ.', names('1T-MoS2'))).toBe(true);
    expect(namesMaterial('Both α- and β-Sn are stable here.', names('γ-Sn'))).toBe(false);
  });

  it('strips a trailing parenthesis holding a parenthesis of its own', () => {
    expect(names('pure-phase Sr 0.9 La 0.1 CuO 2 (Sr(La)-112)')).toContain('Sr0.9La0.1CuO2');
  });
});

const skip = sharedDataSkipReason();
describe.skipIf(skip !== undefined)(`contextual names on real sentences${skip ? ` (${skip})` : ''}`, () => {
  const bandgap = sharedPath('datasets', 'bandgap-200');
  const gapHead = /(?<![\p{L}\p{N}])gaps?(?![\p{L}\p{N}])/iu;
  const energy = /\d\s*m?eV(?![\p{L}])/u;

  it('accepts bandgap-200 truth sentences that name the band gap only as "gap" next to an energy', () => {
    const truths = parseBandgapTruth(readFileSync(`${bandgap}/manual_pub__manual.csv`, 'utf8')).flatMap((entry) => entry.truths);
    const picked = truths.filter((truth) => {
      const source = truth.source ?? '';
      const withoutLexicon = findPropertyMentions(source, schemas).length === 0;
      return withoutLexicon && gapHead.test(source) && energy.test(source) && !/\b(?:spin|superconducting)\b/iu.test(source);
    });
    const named = picked.filter((truth) => namesMaterial(truth.source!, [truth.aliases[0]!]));
    expect(named.length).toBeGreaterThan(0);
    for (const truth of named) {
      const triplet = claim(truth.aliases[0]!, 'band_gap', 1, 'eV', truth.source!);
      expect(verdict(triplet).propertyShown, truth.source).toBe(true);
      expect(verdict(triplet, truth.source, { schemas: withoutContext }).propertyShown, truth.source).toBe(false);
    }
  });

  it('rejects band-gap claims on sentences of the bandgap-200 texts about spin or superconducting gaps', () => {
    const folder = `${bandgap}/text-pub`;
    const sentences = readdirSync(folder)
      .flatMap((name) => {
        const text = readFileSync(`${folder}/${name}`, 'utf8').replace(/\s+/gu, ' ');
        return splitSentences(text).map((sentence) => text.slice(sentence.start, sentence.end));
      })
      .filter(
        (sentence) => /(?:spin|superconducting)[\s-]gaps?\b/iu.test(sentence) && findPropertyMentions(sentence, schemas).length === 0,
      );
    expect(sentences.length).toBeGreaterThan(0);
    for (const sentence of sentences) expect(verdict(claim('X', 'band_gap', 0, 'eV', sentence)).propertyShown, sentence).toBe(false);
  });

  it('accepts Tc claims on sentences that state superconductivity at a temperature', () => {
    const file = sharedPath('datasets', 'llm-nerre', 'general_and_mofs', 'general_materials_information_annotations.jsonl');
    if (!existsSync(file)) return;
    const pattern = /[^.]*\bsuperconductivity (?:at|below) (\d+(?:\.\d+)?) K\b[^.]*\./gu;
    const sentences = [...readFileSync(file, 'utf8').matchAll(pattern)].map((match) => [match[0].trim(), Number(match[1])] as const);
    expect(sentences.length).toBeGreaterThan(0);
    for (const [sentence, kelvin] of sentences) {
      expect(verdict(claim('X', 'tc', kelvin, 'K', sentence)).propertyShown, sentence).toBe(true);
      expect(verdict(claim('X', 'curie_temperature', kelvin, 'K', sentence)).propertyShown, sentence).toBe(false);
    }
  });
});
