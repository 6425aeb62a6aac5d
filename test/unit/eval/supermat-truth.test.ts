import { describe, expect, it } from 'vitest';
import { parseSupermatTruth, supermatAliases } from '../../../src/eval/supermat/supermat-truth';

// Rows from supermat/SuperMat-2.0.csv lines 1, 2, 258, 278, 564 and 914.
const SUPERMAT_CSV = `id,material,tcValue,pressure,me_method,filename
,x = 0.10,30,,,PR06014617-CC.superconductors.tei.xml
,Pr 2 CuO 4 ,23.7 ± 0.5 K ,,resistivities,L088207003-CC.superconductors.tei.xml
,PdTe 2 ,below 1.7 K ,,,1903.04321-CC.superconductors.tei.xml
,Ru-1212,up to 72 K ,,,hott2013review-CC.superconductors.tei.xml
,OD Tl 2 Ba 2 CuO 6+δ (Tl2201) ,15K,,,P068100502-CC.superconductors.tei.xml
,MgB 2 ,a few kelvin,,,P068100502-CC.superconductors.tei.xml
`;

describe('parseSupermatTruth', () => {
  it('groups material–Tc records by paper, in kelvin, with ± and bounds understood', () => {
    const papers = parseSupermatTruth(SUPERMAT_CSV);
    expect(papers.map((paper) => [paper.stem, paper.truths.length, paper.unreadable])).toEqual([
      ['PR06014617-CC', 1, 0],
      ['L088207003-CC', 1, 0],
      ['1903.04321-CC', 1, 0],
      ['hott2013review-CC', 1, 0],
      ['P068100502-CC', 1, 1],
    ]);
    expect(papers[0]!.truths[0]).toEqual({ aliases: ['x = 0.10'], property: 'tc', value: { kind: 'number', value: 30 }, unit: 'K' });
    expect(papers[1]!.truths[0]).toEqual({
      aliases: ['Pr 2 CuO 4', 'Pr2CuO4'],
      property: 'tc',
      value: { kind: 'number', value: 23.7, uncertainty: 0.5 },
      unit: 'K',
    });
    expect(papers[2]!.truths[0]!.value).toEqual({ kind: 'number', value: 1.7, approximate: true });
    expect(papers[3]!.truths[0]!.value).toEqual({ kind: 'number', value: 72, approximate: true });
    expect(papers[4]!.truths[0]).toMatchObject({ value: { kind: 'number', value: 15 }, unit: 'K' });
  });

  it('rejects a CSV without the expected columns', () => {
    expect(() => parseSupermatTruth('a,b\n1,2\n')).toThrow(/columns/);
  });
});

describe('supermatAliases', () => {
  // Material cells of supermat/SuperMat-2.0.csv (lines 258, 914, 864 and 92).
  it.each([
    ['Pr 2 CuO 4 ', ['Pr 2 CuO 4', 'Pr2CuO4']],
    ['OD Tl 2 Ba 2 CuO 6+δ (Tl2201) ', ['OD Tl 2 Ba 2 CuO 6+δ (Tl2201)', 'OD Tl2Ba2CuO6+δ (Tl2201)']],
    ['La 2−x Ba x CuO 4 with x = 0.11 ', ['La 2−x Ba x CuO 4 with x = 0.11', 'La2−xBaxCuO4 with x = 0.11']],
    ['Single-crystalline Sr 2 RuO 4 ', ['Single-crystalline Sr 2 RuO 4', 'Single-crystalline Sr2RuO4']],
    ['MgB2', ['MgB2']],
    ['Ru-1212', ['Ru-1212']],
  ])('%s', (material, aliases) => {
    expect(supermatAliases(material)).toEqual(aliases);
  });
});
