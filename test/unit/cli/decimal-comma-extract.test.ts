/**
 * Issue 27, item 1, end to end: a paper that writes decimal commas and thousands grouped by spaces,
 * as plain text and as HTML, through `assay scan` and `assay extract --engine rules`. Before, the
 * scan read "6,2 eV" as 2 eV, "39,5 K" as 5 K and "3 800 m²/g" as 800 m²/g.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runExtract } from '../../../src/cli/extract-command';
import { runScan } from '../../../src/cli/scan-command';

const SENTENCES = [
  'The band gap of AlN is 6,2 eV.',
  'The band gap of InN is 0,7 eV.',
  'The superconducting transition temperature of MgB2 is 39,5 K.',
  'The BET surface area of SiO2 is 3,8 m²/g.',
  'The BET surface area of MOF-210 is 3 800 m²/g.',
];
const EXPECTED = [
  ['AlN', 'band_gap', 6.2],
  ['InN', 'band_gap', 0.7],
  ['MgB2', 'tc', 39.5],
  ['SiO2', 'bet_surface_area', 3.8],
  ['MOF-210', 'bet_surface_area', 3800],
];

const text = `Properties of nitrides, borides and porous solids\n\n${SENTENCES.join(' ')}\n`;
const TITLE = 'Properties of nitrides, borides and porous solids';
const FILLER = 'The samples were prepared as described in the methods and measured at the same laboratory. ';
const html =
  `<!doctype html><html lang="de"><head><title>${TITLE}</title><meta name="citation_title" content="${TITLE}">` +
  '<meta name="citation_doi" content="10.1234/decimal.comma"></head><body><article>' +
  `<h1>${TITLE}</h1><p>${FILLER.repeat(8)}</p>${SENTENCES.map((sentence) => `<p>${sentence}</p>`).join('')}</article></body></html>`;

let stdout = '';
let folder = '';

beforeEach(() => {
  stdout = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((stdout += String(chunk)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  folder = mkdtempSync(join(tmpdir(), 'assay-decimal-comma-'));
  writeFileSync(join(folder, 'paper.txt'), text);
  writeFileSync(join(folder, 'paper.html'), html);
});

afterEach(() => {
  vi.restoreAllMocks();
});

type Value = { kind: string; value: number };

describe.each(['paper.txt', 'paper.html'])('a paper with decimal commas (%s)', (file) => {
  it('assay scan reads each value as written', async () => {
    expect(await runScan([join(folder, file), '--json'])).toBe(0);
    const { candidates } = JSON.parse(stdout) as { candidates: { property: string; quantity: { value: Value } }[] };
    expect(candidates.map((candidate) => [candidate.property, candidate.quantity.value.value])).toEqual(
      EXPECTED.map(([, property, value]) => [property, value]),
    );
  });

  it('assay extract --engine rules gives each fact its value as written', async () => {
    expect(await runExtract([join(folder, file), '--engine', 'rules', '--json'])).toBe(0);
    const { triplets } = JSON.parse(stdout) as { triplets: { material: string; property: string; value: Value }[] };
    expect(triplets.map((triplet) => [triplet.material, triplet.property, triplet.value.value])).toEqual(EXPECTED);
  });
});
