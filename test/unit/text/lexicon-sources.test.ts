/**
 * Every lexicon entry names the general reference that lists it (IUPAC, a handbook or textbook,
 * a standard, a Wikipedia article, a review), never a paper or record of a dev set: the materials
 * lexicon (`NAMED_MATERIALS`), the framework families, the head nouns and sample nouns of the
 * abbreviation finder, the names of the built-in property schemas and the unit table. A second
 * part, on the real ground truth, lists the lexicon names that equal a dev-set truth alias: each
 * was reviewed as a general name, and a new one fails the test until it is reviewed too.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { loadPropertySchemas } from '../../../src/properties';
import { MATERIAL_HEAD_GROUPS, SAMPLE_LABEL, SAMPLE_NOUNS, findAbbreviationDefinitions } from '../../../src/text/materials/abbreviations';
import { FRAMEWORK_FAMILIES, FRAMEWORK_NAME, NAMED_MATERIALS, lookupMaterialName } from '../../../src/text/materials/material-names';
import unitTable from '../../../src/text/units/unit-table.json';
import { sharedDataSkipReason, sharedPath } from '../../support/shared-data';

/** Words that would mean a source points at the dev data rather than at a general reference. */
const DEV_REFERENCE =
  /bandgap-200|supermat|polyie|text-pub|text-arxiv|manual_(?:pub|arxiv)|dev[ -](?:set|paper|data)|\bpaper \d+|\brecord \d+/i;

function expectGeneralSource(source: string | undefined, entry: string): void {
  expect(source, `${entry}: no source`).toBeTypeOf('string');
  expect(source!.trim().length, `${entry}: empty source`).toBeGreaterThan(10);
  expect(source, `${entry}: source refers to the dev data`).not.toMatch(DEV_REFERENCE);
}

describe('materials lexicon sources', () => {
  it('gives every NAMED_MATERIALS entry a general source', () => {
    expect(NAMED_MATERIALS.length).toBeGreaterThan(30);
    for (const material of NAMED_MATERIALS) expectGeneralSource(material.source, material.names.join(' / '));
  });

  it('gives every framework family a source, and FRAMEWORK_NAME reads exactly those families', () => {
    for (const family of FRAMEWORK_FAMILIES) expectGeneralSource(family.source, family.prefix);
    const framework = (text: string) => {
      FRAMEWORK_NAME.lastIndex = 0;
      return FRAMEWORK_NAME.exec(text)?.[0];
    };
    for (const family of FRAMEWORK_FAMILIES) expect(framework(`the ${family.prefix}-5 crystals`)).toBe(`${family.prefix}-5`);
    expect(framework('bio-MOF-11')).toBe('bio-MOF-11');
    expect(framework('MIL-101(Cr)')).toBe('MIL-101(Cr)');
    // A serial-numbered acronym of no listed family is no framework.
    expect(framework('XYZ-8 and SU-8')).toBeUndefined();
  });

  it('gives every head-noun group and the sample nouns a source', () => {
    for (const group of [...MATERIAL_HEAD_GROUPS, SAMPLE_NOUNS]) {
      expect(group.words.length).toBeGreaterThan(0);
      expectGeneralSource(group.source, group.words.join(', '));
    }
  });

  it('finds definitions whose long form ends in a listed head noun, and only those', () => {
    // Hand-made sentences: the head (`oxynitride`, a mixed-anion name) decides, not the letters.
    const found = findAbbreviationDefinitions(
      'We grew zinc oxynitride (ZON) films and measured the density of states (DOS) of bismuth ferrite (BFO).',
    ).map((definition) => `${definition.abbreviation}=${definition.longForm}`);
    expect(found).toEqual(['ZON=zinc oxynitride', 'BFO=bismuth ferrite']);
    expect('compound 2a and Sample B'.match(SAMPLE_LABEL)).toEqual(['compound 2a', 'Sample B']);
  });

  it('no longer knows the aliases that only a dev paper or its truth wrote', () => {
    // Removed in the audit: paper-specific short forms (`white-P`, `black-P`), a truth-only
    // spelling (`SpiroOMeTAD`) and a truth-only synonym (`black phosphorene`).
    for (const name of ['white-P', 'black-P', 'SpiroOMeTAD', 'black phosphorene']) expect(lookupMaterialName(name), name).toBeUndefined();
  });
});

describe('property lexicon sources', () => {
  it('covers every synonym, symbol and contextual word of every built-in schema with one source group', () => {
    for (const schema of loadPropertySchemas()) {
      const terms = [...schema.synonyms, ...schema.symbols, ...schema.contextualSynonyms, ...schema.contextualExclusions];
      const grouped = (schema.sources ?? []).flatMap((group) => group.terms);
      expect([...grouped].sort(), `${schema.name}: terms without a source, or sources for unknown terms`).toEqual(
        [...new Set(terms)].sort(),
      );
      expect(new Set(grouped).size, `${schema.name}: a term in two groups`).toBe(grouped.length);
      for (const group of schema.sources ?? []) expectGeneralSource(group.source, `${schema.name}: ${group.terms.join(', ')}`);
    }
  });
});

describe('unit table sources', () => {
  it('covers every unit of unit-table.json with one source group', () => {
    const symbols = unitTable.units.map((unit) => unit.symbol);
    const grouped = unitTable.$sources.flatMap((group) => group.symbols);
    expect([...grouped].sort()).toEqual([...symbols].sort());
    for (const group of unitTable.$sources) expectGeneralSource(group.source, group.symbols.join(' '));
  });
});

const skip = sharedDataSkipReason();
describe.skipIf(skip !== undefined)(`lexicon names that equal a dev truth alias${skip ? ` (${skip})` : ''}`, () => {
  /**
   * Lexicon names equal (case-insensitively) to a whole material alias of the bandgap-200 ground
   * truth (either version) or a SuperMat material, found by running this test's loop over the
   * files; each one was checked against its `source` as a general name, not a paper's own.
   */
  const REVIEWED = [
    'graphene',
    'hexagonal boron nitride',
    'hBN',
    'perovskite',
    'spiro-OMeTAD',
    'white phosphorus',
    'diamond',
    'LSCO',
    'YBCO',
  ];

  it('lists exactly the reviewed ones', () => {
    const names = new Map(NAMED_MATERIALS.flatMap((material) => material.names).map((name) => [name.toLowerCase(), name]));
    const aliases: string[] = [];
    for (const version of ['pub', 'arxiv']) {
      const rows = parse(readFileSync(sharedPath('datasets', 'bandgap-200', `manual_${version}__manual.csv`), 'utf8'), {
        columns: true,
        relax_column_count: true,
      }) as Array<{ material?: string }>;
      for (const row of rows) aliases.push(...(row.material ?? '').split(';'));
    }
    const supermat = parse(readFileSync(sharedPath('datasets', 'supermat', 'SuperMat-2.0.csv'), 'utf8'), {
      columns: true,
      relax_column_count: true,
    }) as Array<{ material?: string }>;
    aliases.push(...supermat.map((row) => row.material ?? ''));
    const equal = new Set(aliases.map((alias) => names.get(alias.trim().toLowerCase())).filter((name) => name !== undefined));
    expect([...equal].sort()).toEqual([...REVIEWED].sort());
  });
});
