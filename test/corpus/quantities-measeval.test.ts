/**
 * MeasEval and MuLMS scores of `parseQuantities`, and agreement of `toSI` with the Cornell SI
 * conversion table. Floors are the figures measured on 2026-11-22, rounded down a little.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { evaluateMeasEval } from '../../src/eval/measeval';
import { evaluateMulms } from '../../src/eval/mulms';
import { toSI } from '../../src/text/units';
import { sharedDataSkipReason, sharedPath } from '../support/shared-data';

const skip = sharedDataSkipReason();

describe.skipIf(skip)('quantities on MeasEval and MuLMS', () => {
  it('MeasEval (train + trial): quantity span F1 and unit F1 stay at their floors', async () => {
    const report = await evaluateMeasEval(sharedPath('datasets', 'measeval', 'data'));
    expect(report.documents).toBe(298);
    expect(report.quantityExact.f1).toBeGreaterThanOrEqual(0.6); // measured 0.617
    expect(report.quantityOverlap.f1).toBeGreaterThanOrEqual(0.69); // measured 0.703
    expect(report.unit.f1).toBeGreaterThanOrEqual(0.81); // measured 0.820
  });
  it('MuLMS: VALUE and UNIT span recall stay at their floors', async () => {
    const report = await evaluateMulms(sharedPath('datasets', 'mulms', 'xmi'));
    expect(report.documents).toBe(43);
    expect(report.value.exactRecall).toBeGreaterThanOrEqual(0.59); // measured 0.601
    expect(report.value.overlapRecall).toBeGreaterThanOrEqual(0.78); // measured 0.792
    expect(report.unit.exactRecall).toBeGreaterThanOrEqual(0.77); // measured 0.781
    expect(report.unit.overlapRecall).toBeGreaterThanOrEqual(0.83); // measured 0.838
  });
});

/** "E+19 /cm3" → factor 1e19 and unit "/cm3" (the table's power-of-ten column prefix). */
function splitPowerOfTen(unit: string): { multiplier: number; unit: string } {
  const match = /^[Ee]([-+]?\d+)\s*(.*)$/.exec(unit.trim()) ?? /^10(-?\d+)\s*(.*)$/.exec(unit.trim());
  return match ? { multiplier: 10 ** Number(match[1]), unit: match[2]! } : { multiplier: 1, unit };
}

// Rows where the table and we disagree, with the reason (we keep our reading).
const knownDisagreements: Record<string, string> = {
  A: 'the table reads A as ångström (old SuperCon data); in text A is ampere',
  'm.ohm.cm': 'table factor 0.01 is an error: mΩ·cm = 1e-5 Ω·m',
  'mW/cm.K': 'table factor 10 is an error: mW/(cm·K) = 0.1 W/(m·K)',
  'E+3 A/m': 'table converts H to μ0H (T); A/m is not T',
  'E-6%': 'table maps a strain percentage to m/Pa',
  'emu mol-1':
    'table target A.m^2/mol with 1e-3 while emu/mol is kept as emu/mol elsewhere: we read both as 1e-3 A m^2/mol; disagreement is the dimension of the target only',
  'emu.K/mol': 'table uses the CGS volume-susceptibility reading (K m^3/mol); we read emu as a moment, 1e-3 A m^2',
  'emu.K/mole': 'as emu.K/mol',
  'micron m': 'we read micron × metre (m^2); the table means μm',
  'micron.m': 'as micron m',
  'W/K.M': '"M" reads as molar (mol/L); the table means metre',
  'cm-1': 'the table converts wavenumber to energy (J); we keep m^-1 and leave h·c to the caller',
  'uV/K-1': 'after "/", "K-1" is read as K^-1 in the denominator (= K^+1); the table means μV/K',
};

describe.skipIf(skip)('toSI against the Cornell SI conversion factors', () => {
  it('agrees with every row it reads, except the listed ones', () => {
    const rows = parse(
      readFileSync(sharedPath('datasets', 'cornell-scillm', 'supercon-extraction', 'scoring', 'si_conversion_factors.csv'), 'utf8'),
      { columns: true },
    ) as Record<string, string>[];
    let agreed = 0;
    const disagreed: string[] = [];
    for (const row of rows) {
      const factor = Number(row.conversion_factor);
      if (!row.conversion_factor || !Number.isFinite(factor) || !row.SI) continue;
      const source = splitPowerOfTen(row.property_unit!);
      const ours = toSI(source.multiplier, source.unit);
      const theirs = toSI(factor, row.SI);
      if (!ours || !theirs) continue;
      const same = ours.unit === theirs.unit && Math.abs(ours.value - theirs.value) <= 0.01 * Math.abs(theirs.value);
      if (same) agreed++;
      else disagreed.push(row.property_unit!);
    }
    expect(disagreed.filter((unit) => !(unit in knownDisagreements))).toEqual([]);
    expect(agreed).toBeGreaterThanOrEqual(78); // measured 80
  });
});
