/**
 * The condition reader on real sentences of ../shared, read by path at test time: bandgap-200
 * publisher texts, SOFC-Exp and SuperMat. Each sentence is found by a short anchor in its file
 * (whitespace collapsed, as PDF text breaks lines mid-sentence). The last test measures, on the
 * bandgap-200 truths, how many material names that carry a qualifier have it read.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { conditionsOfTableCell, conditionsOfValue, findConditionMentions } from '../../../../src/text/conditions';
import { sharedDataSkipReason, sharedPath } from '../../../support/shared-data';

const skip = sharedDataSkipReason();

/** The sentence of `file` (under ../shared/datasets) that contains `anchor`. */
function sentenceWith(file: string, anchor: string): string {
  const text = readFileSync(sharedPath('datasets', ...file.split('/')), 'utf8').replace(/\s+/g, ' ');
  const at = text.indexOf(anchor);
  if (at < 0) throw new Error(`"${anchor}" not in ${file}`);
  const starts = [...text.slice(0, at + 1).matchAll(/[.!?] (?=[A-Z(])/g)];
  const start = starts.length > 0 ? starts[starts.length - 1]!.index + 2 : 0;
  const end = text.slice(at + anchor.length).search(/[.!?](?: |$)/);
  return text.slice(start, end < 0 ? undefined : at + anchor.length + end + 1);
}

const read = (text: string) => findConditionMentions(text).map((mention) => `${mention.kind}=${mention.value}`);

/** Conditions of the value written `valueText` in `sentence` (its first occurrence), as "kind=value". */
function of(sentence: string, valueText: string): { conditions: string[]; ambiguous: string[] } {
  const start = sentence.indexOf(valueText);
  expect(start, `${valueText} in: ${sentence}`).toBeGreaterThanOrEqual(0);
  const result = conditionsOfValue(sentence, { start, end: start + valueText.length });
  return { conditions: result.conditions.map((mention) => `${mention.kind}=${mention.value}`), ambiguous: result.ambiguous };
}

const BPN = 'bandgap-200/text-pub/73_10.1016_j.mtcomm.2023.107183.txt';
const VCX = 'bandgap-200/text-pub/98_10.1039_D2CP02724K.txt';
const SMN = 'bandgap-200/text-pub/18_10.1088_0953-8984_27_11_115503.txt';

describe.skipIf(skip !== undefined)(`conditions of real sentences${skip ? ` (${skip})` : ''}`, () => {
  it('pairs "respectively" lists of values and methods', () => {
    const gan = sentenceWith(BPN, 'measures 1.86 and 2.31 eV');
    // The sentence also says the gap is indirect, from X to Γ: both values inherit that.
    expect(of(gan, '1.86').conditions).toEqual(['direction=indirect', 'direction=X–Γ', 'method=GGA-PBE']);
    expect(of(gan, '2.31 eV').conditions).toEqual(['direction=indirect', 'direction=X–Γ', 'method=HSE06']);
    const aln = sentenceWith(BPN, 'according to the GGA/PBE and HSE06 calculations, respectively');
    const [first, second] = [...aln.matchAll(/\d\.\d+ eV/g)].map((match) => match[0]);
    expect(of(aln, first!).conditions).toContain('method=GGA-PBE');
    expect(of(aln, second!).conditions).toContain('method=HSE06');
  });

  it('keeps a condition in its clause, and a fronted adverbial for the whole sentence', () => {
    const contrast = sentenceWith(VCX, 'the gap of VCCl2 is 73 meV without considering SOC');
    // The fronted "For example a 0.04 eV Å\u00021 electric field," (U+0002 is the converter's minus) holds for both values.
    expect(of(contrast, '73 meV').conditions).toEqual(['field=0.04 eV/Å', 'method=no SOC']);
    expect(of(contrast, '67 meV').conditions).toEqual(['field=0.04 eV/Å', 'method=GGA+SOC']);
    const fronted = sentenceWith(VCX, 'In the absence of SOC, the VCClBr is a direct gap');
    expect(of(fronted, '57 meV').conditions).toEqual(expect.arrayContaining(['method=no SOC', 'direction=direct']));
    const level = sentenceWith(BPN, 'respectively, at the HSE06 level');
    expect(of(level, '2.3 eV').conditions).toEqual(['method=HSE06']);
    expect(of(level, '3.2 eV').conditions).toEqual(['method=HSE06']);
  });

  it('reads methods, magnetic order and sample form', () => {
    expect(read(sentenceWith(SMN, 'with the acronym LSDA+U+SO'))).toContain('method=LSDA+U+SO');
    expect(read(sentenceWith(SMN, 'limited to the AFM phase of SmN'))).toContain('phase=antiferromagnetic');
    expect(read(sentenceWith('bandgap-200/text-pub/11_10.1038_s41467-021-21203-6.txt', 'photoexcited monolayer MoS2'))).toContain(
      'phase=monolayer',
    );
    const pl = sentenceWith('bandgap-200/text-pub/12_10.1038_s41563-020-0670-3.txt', 'Although the photoluminescence (PL)');
    expect(read(pl)).toContain('method=photoluminescence');
  });

  it('reads directions, k-points and quantities of condition', () => {
    expect(read(sentenceWith('bandgap-200/text-pub/14_10.1039_C7CP03960C.txt', 'H-MoSe2 is a semicon'))).toContain('direction=direct');
    expect(
      read(sentenceWith('bandgap-200/text-pub/29_10.1103_PhysRevLett.119.067405.txt', 'out-of-plane phonon at the Γ point')),
    ).toContain('direction=Γ');
    const field = sentenceWith('bandgap-200/text-pub/29_10.1103_PhysRevLett.119.067405.txt', 'The samples were kept at 10 K');
    expect(read(field)).toEqual(expect.arrayContaining(['temperature=10 K', 'field=4.2 T']));
    const pl = sentenceWith('bandgap-200/text-pub/12_10.1038_s41563-020-0670-3.txt', 'the PL spectra at 78 K');
    expect(of(pl, '1.45 eV').conditions).toEqual(expect.arrayContaining(['method=photoluminescence', 'temperature=78 K']));
    const strain = sentenceWith('bandgap-200/text-pub/22_10.1103_PhysRevB.88.115309.txt', 'biaxial tensile strain of 0.76%');
    expect(read(strain)).toContain('strain=0.76% tensile');
    expect(read(sentenceWith('bandgap-200/text-pub/12_10.1038_s41563-020-0670-3.txt', '400 kHz'))).toContain('frequency=400 kHz');
  });

  it('reads composition variables and environments', () => {
    expect(read(sentenceWith('bandgap-200/text-pub/53_10.1002_andp.201400219.txt', 'Only x = 0.51 cluster'))).toContain(
      'composition=x = 0.51',
    );
    const annealed = sentenceWith('sofc-exp/sofc-exp-corpus/texts/PMC4735809.txt', '5 h annealing at 850 °C in air');
    expect(read(annealed)).toEqual(expect.arrayContaining(['temperature=850 °C', 'environment=air']));
    expect(read(sentenceWith('bandgap-200/text-pub/20_10.1103_PhysRevApplied.14.064079.txt', '50 rpm in air'))).toContain(
      'environment=air',
    );
  });

  it('gives a table cell the conditions of its header, row label and caption', () => {
    const caption = sentenceWith(BPN, 'Comparison between theoretical band gap');
    const computed = conditionsOfTableCell('E𝑔(HSE06+G0W0) [eV]', 'wz-AlN', caption).map((c) => `${c.from}:${c.kind}=${c.value}`);
    expect(computed).toEqual(expect.arrayContaining(['header:method=HSE06+G0W0', 'row:phase=wurtzite']));
    expect(computed.filter((condition) => condition.startsWith('caption:method'))).toEqual([]);
    const measured = conditionsOfTableCell('E𝑔(Exp) [eV]', 'zb-GaN', caption);
    expect(measured.map((c) => `${c.from}:${c.kind}=${c.value}`)).toEqual(['header:method=experiment', 'row:phase=zinc blende']);
    expect('E𝑔(Exp) [eV]'.slice(measured[0]!.start, measured[0]!.end)).toBe('Exp');
  });
});

describe.skipIf(skip !== undefined)(`qualifiers of bandgap-200 truth names${skip ? ` (${skip})` : ''}`, () => {
  it('measures how many qualified names have a condition read (share printed)', () => {
    // A qualified name: one with a parenthesized part or words after the material, or a
    // structure prefix ("wz-AlN"). Measured, not tuned: the lexicons are not built from these.
    const qualified: string[] = [];
    for (const version of ['pub', 'arxiv']) {
      const rows = parse(readFileSync(sharedPath('datasets', 'bandgap-200', `manual_${version}__manual.csv`), 'utf8'), {
        columns: true,
        relax_column_count: true,
        bom: true,
      }) as Array<{ material?: string }>;
      for (const row of rows) {
        for (const alias of (row.material ?? '').replace(/^\uFEFF/, '').split(';')) {
          const name = alias.trim();
          if (/\(.+\)|\s\S|^[a-zαβγ]{1,2}-/.test(name)) qualified.push(name);
        }
      }
    }
    const unique = [...new Set(qualified)];
    const found = unique.filter((name) => findConditionMentions(name).length > 0);
    const missed = unique.filter((name) => !found.includes(name));
    console.log(
      `qualifier coverage: ${found.length} of ${unique.length} qualified truth names (${((100 * found.length) / unique.length).toFixed(1)} %)`,
    );
    for (const name of missed) console.log(`  no condition read: ${name}`);
    expect(unique.length).toBeGreaterThan(50);
    expect(found.length / unique.length).toBeGreaterThan(0.3);
  });
});
