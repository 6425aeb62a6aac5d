import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runExtract } from '../../../src/cli/extract-command';
import { runScan } from '../../../src/cli/scan-command';

// Evidence sentences of ../shared/datasets/bandgap-200/manual_pub__manual.csv, paper 7 (10.1021/ic4018135).
const paperText = `Band gaps of layered bismuth sulfides

First principle calculations (Figure 4) confirm that SrFBiS2 is a semiconductor with a direct band gap of 0.8 eV located at X point. This is similar to LaOBiS2 where the energy gap was found to be 0.82 eV.
`;

let stdout = '';
let stderr = '';
let folder = '';

beforeEach(() => {
  stdout = '';
  stderr = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((stdout += String(chunk)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((stderr += String(chunk)), true));
  folder = mkdtempSync(join(tmpdir(), 'assay-scan-'));
  writeFileSync(join(folder, 'paper.txt'), paperText);
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('assay scan', () => {
  it('prints one JSON document with quantities, materials and candidates', async () => {
    expect(await runScan([join(folder, 'paper.txt'), '--property', 'band_gap', '--json'])).toBe(0);
    const output = JSON.parse(stdout);
    expect(Object.keys(output).sort()).toEqual(['candidates', 'materials', 'quantities']);
    expect(output.candidates.map((candidate: { quantity: { valueText: string } }) => candidate.quantity.valueText)).toEqual([
      '0.8',
      '0.82',
    ]);
    expect(stderr).toBe('');
  });

  it('prints a human summary without --json', async () => {
    expect(await runScan([join(folder, 'paper.txt')])).toBe(0);
    expect(stdout).toMatch(/^\d+ quantities, \d+ material mentions, 2 candidates\n/);
    expect(stdout).toContain('band_gap\t0.82 eV\tLaOBiS2');
  });

  it('fails with one clear line on a missing file, an unknown property or an invalid schema file', async () => {
    expect(await runScan([join(folder, 'missing.txt')])).toBe(1);
    expect(stderr).toMatch(/^assay scan: .*missing\.txt: No such file.*\n$/);
    stderr = '';
    expect(await runScan([join(folder, 'paper.txt'), '--property', 'bandgap'])).toBe(2);
    expect(stderr).toMatch(/^assay scan: unknown property "bandgap"; known: band_gap, .*\n$/);
    stderr = '';
    writeFileSync(join(folder, 'bad.json'), JSON.stringify({ name: 'thermal_conductivity', label: 'Thermal conductivity' }));
    expect(await runScan([join(folder, 'paper.txt'), '--property', join(folder, 'bad.json')])).toBe(2);
    expect(stderr.split('\n')).toHaveLength(2);
    expect(stderr).toMatch(/property schema "thermal_conductivity" is invalid: .*synonyms/);
  });
});

describe('assay extract', () => {
  it('extracts with the rules engine: triplets and a run with no model calls', async () => {
    expect(await runExtract([join(folder, 'paper.txt'), '--engine', 'rules', '--schema', 'band_gap', '--json'])).toBe(0);
    const output = JSON.parse(stdout);
    expect(output.triplets.map((triplet: { material: string; valueText: string }) => [triplet.material, triplet.valueText])).toEqual([
      ['SrFBiS2', '0.8'],
      ['LaOBiS2', '0.82'],
    ]);
    expect(output.run).toMatchObject({ engine: 'rules', calls: 0, promptTokens: 0, completionTokens: 0 });
    expect(output.run.milliseconds).toBeGreaterThanOrEqual(0);
  });

  it('accepts a user-defined schema file', async () => {
    const schema = {
      name: 'optical_gap',
      label: 'Optical gap',
      synonyms: ['energy gap'],
      dimension: 'energy',
      canonicalUnit: 'eV',
      units: ['eV'],
      plausibleRange: { min: 0, max: 15 },
      note: 'test schema',
    };
    writeFileSync(join(folder, 'optical-gap.json'), JSON.stringify(schema));
    expect(await runExtract([join(folder, 'paper.txt'), '--schema', join(folder, 'optical-gap.json'), '--json'])).toBe(0);
    expect(
      JSON.parse(stdout).triplets.map((triplet: { property: string; material: string }) => [triplet.property, triplet.material]),
    ).toEqual([['optical_gap', 'LaOBiS2']]);
  });

  it('refuses an unknown engine and a model engine without its settings (exit 2)', async () => {
    expect(await runExtract([join(folder, 'paper.txt'), '--engine', 'moa'])).toBe(2);
    expect(stderr).toBe("assay extract: unknown engine 'moa'; use --engine rules, scripted or openai\n");
    stderr = '';
    expect(await runExtract([join(folder, 'paper.txt'), '--engine', 'openai'])).toBe(2);
    expect(stderr).toBe('assay extract: --engine openai needs --base-url URL (e.g. http://127.0.0.1:11434/v1 for Ollama)\n');
    expect(stdout).toBe('');
  });
});
