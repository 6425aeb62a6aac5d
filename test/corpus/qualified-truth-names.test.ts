/**
 * Every bandgap-200 truth name (both versions, every alias) split by strict scoring's rule
 * (src/eval/qualified-name.ts) with the real condition reader (src/text/conditions): the splits
 * must be sensible —
 * - a base is never empty, starts with the name's first word (prefixes are never split off), and
 *   splitting it again changes nothing;
 * - a qualifier is a condition the name writes (its words occur in the name), never a
 *   composition variable;
 * - where a truth row lists a plain alias (one word) beside qualified ones (`SrTiO3; SrTiO3
 *   (bulk)`), each qualified alias's base is that plain material under `sameMaterialStrict`;
 * - hand-checked names split as read (`BPN-GaN (HSE06)`, the electric-field name of paper 98,
 *   `SmN (FM phase, LSDA+U+SO)`), and qualifiers that are not conditions stay in the name.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { loadBandgapTruth } from '../../src/eval/bandgap/bandgap-dataset';
import type { BandgapPaper } from '../../src/eval/bandgap/bandgap-truth';
import { splitQualifiedName, type ConditionReader } from '../../src/eval/qualified-name';
import { findConditionMentions, methodsCompatible } from '../../src/text/conditions/index';
import { sameMaterialStrict } from '../../src/text/materials';
import { sharedDataSkipReason, sharedRoot } from '../support/shared-data';

const skip = sharedDataSkipReason();
const reader: ConditionReader = { findConditionMentions, methodsCompatible };

describe.skipIf(skip !== undefined)(`bandgap-200 truth names split into base and condition qualifiers${skip ? ` (${skip})` : ''}`, () => {
  let rows: Array<{ paper: string; aliases: string[] }>;
  let names: string[];
  beforeAll(async () => {
    const papers: BandgapPaper[] = [...(await loadBandgapTruth(sharedRoot, 'pub')), ...(await loadBandgapTruth(sharedRoot, 'arxiv'))];
    rows = papers.flatMap((paper) => paper.truths.map((truth) => ({ paper: String(paper.index), aliases: truth.aliases })));
    names = [...new Set(rows.flatMap((row) => row.aliases))];
  });

  it('reads the truth names (both versions)', () => {
    expect(rows.length).toBeGreaterThanOrEqual(175);
    expect(names.length).toBeGreaterThan(100);
  });

  it('bases are not empty, keep the first word and are stable', () => {
    for (const name of names) {
      const { base } = splitQualifiedName(name, reader);
      const firstWord = name
        .replace(/^\uFEFF/, '')
        .trim()
        .split(/[\s(]/)[0]!;
      expect(base.length, name).toBeGreaterThan(0);
      expect(base.startsWith(firstWord), `${name} → ${base}`).toBe(true);
      expect(splitQualifiedName(base, reader), `${name} → ${base}`).toEqual({ base, qualifiers: [] });
    }
  });

  it('qualifiers are conditions the name writes, never a composition variable', () => {
    for (const name of names) {
      for (const qualifier of splitQualifiedName(name, reader).qualifiers) {
        expect(qualifier.kind, name).not.toBe('composition');
        expect(name.includes(qualifier.text ?? ''), `${name}: ${qualifier.text}`).toBe(true);
      }
    }
  });

  it('a qualified alias has the base of the plain alias of its row', () => {
    let compared = 0;
    for (const { paper, aliases } of rows) {
      // Plain: one word, no qualifier of any kind (`SrTiO3`, `VCClBr`).
      const plain = aliases.filter((alias) => !/[\s()]/.test(alias.replace(/^\uFEFF/, '').trim()));
      if (plain.length === 0) continue;
      for (const alias of aliases) {
        const { base, qualifiers } = splitQualifiedName(alias, reader);
        if (qualifiers.length === 0) continue;
        compared += 1;
        expect(
          plain.some((name) => sameMaterialStrict(base, name)),
          `paper ${paper}: ${alias} → ${base}, plain ${plain.join('; ')}`,
        ).toBe(true);
      }
    }
    // SrTiO3 (bulk) and VCFCl GGA+SOC (measured: 3 aliases over both versions).
    expect(compared).toBeGreaterThanOrEqual(3);
  });

  it.each([
    ['BPN-GaN (HSE06)', 'BPN-GaN', ['method=HSE06']],
    ['BPN-AlN(GGA/PBE)', 'BPN-AlN', ['method=GGA-PBE']],
    ['VCCl2 at 0.04 eV/Å electric field GGA', 'VCCl2', ['field', 'method=GGA']],
    ['SmN (FM phase, LSDA+U+SO)', 'SmN', ['phase', 'method=LSDA+U+SO']],
    ['H-MoSe2 GW', 'H-MoSe2', ['method=GW']],
    ['wz-AlN (Exp)', 'wz-AlN', ['method']],
    ['VCClBr (without SOC)', 'VCClBr', ['method=no SOC']],
    ['SrTiO3 (bulk)', 'SrTiO3', ['phase']],
    ['ZnO (due to oxygen vacancy)', 'ZnO (due to oxygen vacancy)', []],
    ['α-P (black phosphorene)', 'α-P (black phosphorene)', []],
    ['WS2-WSe2 (interlayer exciton emission)', 'WS2-WSe2 (interlayer exciton emission)', []],
  ])('%s → %s + %j', (name, base, expected) => {
    expect(names, `${name} is a bandgap-200 truth name`).toContain(name);
    const split = splitQualifiedName(name, reader);
    expect(split.base).toBe(base);
    // Kinds always; values where the normalized value is the field's usual spelling.
    expect(
      split.qualifiers.map((qualifier) =>
        expected.some((entry) => entry.includes('=') && entry.startsWith(`${qualifier.kind}=`))
          ? `${qualifier.kind}=${qualifier.value}`
          : qualifier.kind,
      ),
    ).toEqual(expected);
  });

  it('one truth in four or more is named with a condition (the conditions figure has a denominator)', () => {
    const withConditions = rows.filter(({ aliases }) => aliases.every((alias) => splitQualifiedName(alias, reader).qualifiers.length > 0));
    expect(withConditions.length / rows.length).toBeGreaterThanOrEqual(0.25);
  });
});
