/**
 * The names under which a claimed material may appear in the evidence (`materialNames`,
 * `namesMaterial`): here, a descriptor of one element written with the element's name or its
 * symbol (`elementSpellings`). The sentence is copied from the bandgap-200 dev text of paper 32
 * (10.1103/PhysRevMaterials.1.024802, arXiv version), whose truth is "white phosphorus; white-P".
 */
import { describe, expect, it } from 'vitest';
import { elementSpellings, materialNames, nameParts, namesMaterial } from '../../../src/verify/material-named';
import { articleFromBlocks, paragraph } from '../text/article-from-blocks';

const WHITE_P =
  'While black-P and red-P achieve metalization within a few GPa (estimating the exact value would require calculating corrections to the band-gap beyond DFT), white-P is still insulating at 7 GPa with a band gap of about 1.4 eV.';

describe('element names and symbols in a descriptor', () => {
  it('name an allotrope either way: "white phosphorus" is named by white-P, another allotrope is not', () => {
    const article = articleFromBlocks([paragraph(WHITE_P)]);
    expect(namesMaterial(WHITE_P, materialNames('white phosphorus', article))).toBe(true);
    expect(namesMaterial(WHITE_P, materialNames('black phosphorus', article))).toBe(true);
    expect(namesMaterial(WHITE_P, materialNames('violet phosphorus', article))).toBe(false);
    expect(namesMaterial('White phosphorus is an insulator with a band gap of 1.4 eV.', materialNames('white-P', article))).toBe(true);
  });

  it('are swapped only in a descriptor of one element beside words', () => {
    expect(elementSpellings('white phosphorus')).toEqual(['white P', 'white-P']);
    expect(elementSpellings('α-Sn')).toEqual(['α tin', 'α-tin']);
    expect(elementSpellings('amorphous silicon')).toEqual(['amorphous Si', 'amorphous-Si']);
    expect(elementSpellings('Black phosphorus')).toEqual(['Black P', 'Black-P']);
    for (const other of ['H-MoSe2', 'P-doped Si', 'Eu-doped ZnS', 'phosphorus', 'GaN nanowires'])
      expect(elementSpellings(other)).toEqual([]);
  });
});

describe('nameParts', () => {
  it('cuts a name into its bare name and its trailing groups, each with its offset in the name', () => {
    const name = 'VCClBr (GGA + SOC, increased)';
    const { bare, groups } = nameParts(name);
    expect(bare).toEqual({ text: 'VCClBr', start: 0 });
    expect(groups).toEqual([{ text: 'GGA + SOC, increased', start: 8 }]);
    expect(nameParts('Ca(OH)2')).toEqual({ bare: { text: 'Ca(OH)2', start: 0 }, groups: [] });
  });
});
