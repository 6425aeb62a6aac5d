/**
 * The column of a cell of a row-major table flattened into text (`flattenedTableCells`,
 * `misplacedInColumn`): the real tables of ../shared (bandgap-200 papers 5, 14, 61, 62 and 68, read
 * by path at test time, whitespace collapsed as capture joins the lines), and short tables written
 * here for the ways a row's cells are printed.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Triplet } from '../../../src/contracts/triplet';
import { describeQuote } from '../../../src/text/anchoring';
import { normalizeUnit } from '../../../src/text/units';
import { flattenedTableCells, misplacedInColumn, type FlattenedCell } from '../../../src/verify/flattened-table';
import { judgeFact } from '../../../src/verify/judge-fact';
import { sharedDataSkipReason, sharedPath } from '../../support/shared-data';
import { articleFromBlocks, paragraph } from '../text/article-from-blocks';

const skip = sharedDataSkipReason();

/** The text of a bandgap-200 file (`version` folder), whitespace collapsed. */
const paper = (version: 'pub' | 'arxiv', file: string) =>
  readFileSync(sharedPath('datasets', 'bandgap-200', `text-${version}`, file), 'utf8').replace(/\s+/gu, ' ');

/** The cells of the row that starts with `rowLabel` in `text` (up to `length` characters of it). */
function rowCells(text: string, rowLabel: string, length = 120): FlattenedCell[] {
  const start = text.indexOf(rowLabel);
  if (start < 0) throw new Error(`"${rowLabel}" not in the text`);
  return flattenedTableCells(text, start, Math.min(text.length, start + length), normalizeUnit).filter(
    (cell) => cell.header.start === start,
  );
}

/** Each cell as "column=cell text" ("?" for a cell without a column). */
const placed = (text: string, cells: FlattenedCell[]) =>
  cells.map((cell) => `${cell.column ? cell.column.names[cell.column.index]!.text : '?'}=${text.slice(cell.start, cell.end)}`);

/** `misplacedInColumn` for `material` claiming `value` in the cells of the row `rowLabel`. */
function misplaced(text: string, rowLabel: string, material: string, value: number, length?: number): string | undefined {
  return misplacedInColumn(text, rowCells(text, rowLabel, length), (cell) => cell.value === value, [material], material);
}

const C7CP03960C = '14_10.1039_C7CP03960C.txt';

describe.skipIf(skip !== undefined)(`columns of real flattened tables${skip ? ` (${skip})` : ''}`, () => {
  it('places each cell of the Eg row of paper 14 under its heterostructure, counting "1.13 (2.26)a" as one cell (publisher text)', () => {
    const text = paper('pub', C7CP03960C);
    const cells = rowCells(text, 'Eg (eV) 1.13');
    expect(placed(text, cells)).toEqual([
      'H-MoSe2=1.13',
      'H-MoSe2=(2.26)a',
      'T-MoSe2=0',
      'ZT-MoSe2=0',
      'SO-MoSe2=0',
      'a-P=1.12',
      'a-P=(1.94)b',
      'b-P=2.05',
      'a-P/H-MoSe2=0.67',
      'a-P/ZT-MoSe2=0',
      'a-P/SO-MoSe2=0',
      'b-P/H-MoSe2=1.10',
      'b-P/T-MoSe2=0',
    ]);
    expect(cells[0]!.column!.table).toBe('Table 1');
    // The "a, b (Å)" row above (its header is "b (Å)") counts its pairs "3.4, 5.9" as one cell each.
    expect(placed(text, rowCells(text, 'b (Å) 3.4', 200)).slice(0, 4)).toEqual([
      'H-MoSe2=3.4,',
      'H-MoSe2=5.9',
      'T-MoSe2=3.4,',
      'T-MoSe2=6.1',
    ]);
  });

  it('joins the names the arXiv text splits at a slash, with the stub heading printed after the spanning ones', () => {
    const text = paper('arxiv', C7CP03960C);
    const names = rowCells(text, 'Eg (eV) 1.13')[0]!.column!.names.map((name) => name.text);
    expect(names).toEqual([
      'H-MoSe2',
      'T-MoSe2',
      'ZT-MoSe2',
      'SO-MoSe2',
      'α-P',
      'β-P',
      'α-P / H-MoSe2',
      'α-P/ ZT-MoSe2',
      'α-P / SO-MoSe2',
      'β-P/ H-MoSe2',
      'β-P/ T-MoSe2',
    ]);
  });

  it("tells a model's 1.10 eV for another heterostructure, and keeps the true ones", () => {
    const pub = paper('pub', C7CP03960C);
    expect(misplaced(pub, 'Eg (eV) 1.13', 'b-P/T-MoSe2', 1.1)).toBe('in Table 1, 1.10 eV is in the column of b-P/H-MoSe2, not b-P/T-MoSe2');
    expect(misplaced(pub, 'Eg (eV) 1.13', 'b-P/H-MoSe2', 1.1)).toBeUndefined();
    expect(misplaced(pub, 'Eg (eV) 1.13', 'H-MoSe2', 2.26)).toBeUndefined();
    const arxiv = paper('arxiv', C7CP03960C);
    expect(misplaced(arxiv, 'Eg (eV) 1.13', 'α-P / ZT-MoSe2', 1.1)).toBe(
      'in Table 1, 1.10 eV is in the column of β-P/H-MoSe2, not α-P / ZT-MoSe2',
    );
    // Spaces around the slash differ from the header's ("α-P/ ZT-MoSe2"): still its own column.
    expect(misplaced(arxiv, 'Eg (eV) 1.13', 'α-P / ZT-MoSe2', 0)).toBeUndefined();
    // "H-MoSe2" owns the column printed "H-MoSe2", not "β-P/ H-MoSe2", which also names it.
    expect(misplaced(arxiv, 'Eg (eV) 1.13', 'H-MoSe2', 1.1)).toBe('in Table 1, 1.10 eV is in the column of β-P/H-MoSe2, not H-MoSe2');
  });

  it('keeps a value printed in two columns for both materials (paper 5: 3.05 eV for c-TiO2 and mp-TiO2)', () => {
    for (const version of ['pub', 'arxiv'] as const) {
      const text = paper(version, '5_10.1016_j.mtsust.2023.100548.txt');
      expect(placed(text, rowCells(text, 'Eg [eV] 3.05')).map((cell) => cell.replace(/\s+/gu, ''))).toEqual([
        'c-TiO2=3.05',
        'mp-TiO2=3.05',
        'Perovskite=1.66',
        'Spiro-OMeTAD=3.1',
      ]);
      for (const [material, value] of [
        ['c-TiO2', 3.05],
        ['mp-TiO2', 3.05],
        ['Perovskite', 1.66],
        ['Spiro-OMeTAD', 3.1],
      ] as const) {
        expect(misplaced(text, 'Eg [eV] 3.05', material, value), `${version} ${material}`).toBeUndefined();
      }
      expect(misplaced(text, 'Eg [eV] 3.05', 'Perovskite', 3.05)).toBe(
        'in the table, 3.05 eV is in the columns of c-TiO2 and mp-TiO2, not Perovskite',
      );
    }
  });

  it('finds the header above unitless rows, under a unit in the stub heading (paper 62, "Compositions (wt.%)")', () => {
    const text = paper('pub', '62_10.1016_j.ceramint.2019.10.025.txt');
    expect(placed(text, rowCells(text, 'Free-ﬂow (%) 89'))).toEqual([
      '5CAC=89',
      '5HA=85',
      '5CAC-ED=81',
      '5HA-ED=86',
      '2.5CAC-MP=102a',
      '2.5HA-MP=108a',
    ]);
  });

  it('counts a range as a cell (paper 68: "0.04–0.08" under Samples)', () => {
    const text = paper('pub', '68_10.1016_j.ijfatigue.2004.09.001.txt');
    expect(placed(text, rowCells(text, 'Ra (mm) 0.11', 40))).toEqual(['R1=0.11', 'R2=0.60', 'R3=0.75']);
  });

  it('claims no column where a row has more cells than the header names (paper 61: reported values beside each phase)', () => {
    const text = paper('pub', '61_10.1016_j.actamat.2023.119048.txt');
    const cells = rowCells(text, 'μ (GPa) 25', 80);
    expect(cells.length).toBe(15);
    expect(cells.every((cell) => cell.column === undefined)).toBe(true);
  });
});

describe('columns of a row-major table written here', () => {
  const columnsOf = (text: string, rowLabel: string) => placed(text, rowCells(text, rowLabel));

  it('counts dashes and "n/a" as empty cells, and takes the cells after them', () => {
    const text = 'Table 2 Gaps. Compound Si Ge GaAs InP Eg (eV) 1.12 – n/a 1.34 ε 11.7 16.0 12.9 12.5';
    expect(columnsOf(text, 'Eg (eV)')).toEqual(['Si=1.12', 'InP=1.34']);
    expect(misplaced(text, 'Eg (eV)', 'GaAs', 1.34)).toBe('in Table 2, 1.34 eV is in the column of InP, not GaAs');
  });

  it('reads the same row number by number when that is how many columns the header names', () => {
    const text = 'Compound Si Ge GaAs Eg (eV) 1.12, 0.66, 1.42 in this work.';
    expect(columnsOf(text, 'Eg (eV)')).toEqual(['Si=1.12,', 'Ge=0.66,', 'GaAs=1.42']);
  });

  it('reads the stub heading before or after the spanning headings', () => {
    for (const header of ['Parameter Bulk Layers', 'Bulk Layers Parameter']) {
      const text = `${header} MX-2 MY-2 MX/MY Eg (eV) 1.5 1.7 0.9`;
      expect(columnsOf(text, 'Eg (eV)')).toEqual(['MX-2=1.5', 'MY-2=1.7', 'MX/MY=0.9']);
    }
  });

  it('claims nothing when the counts differ, the header is ambiguous or longer, or the header is another table’s', () => {
    const none = (text: string, rowLabel = 'Eg (eV)') => rowCells(text, rowLabel).every((cell) => cell.column === undefined);
    expect(none('Compound Si Ge GaAs Eg (eV) 1.12 0.66 is what we find.')).toBe(true);
    // "Silicon Germanium" with the label "Lattice constant", or "Germanium Lattice" with "constant".
    expect(none('Compound Silicon Germanium Lattice constant (Å) 5.43 5.66 Eg (eV) 1.12 0.66')).toBe(true);
    // Two-word names: "Monolayer MoS2" read as two columns would leave "Bulk MoS2" before them.
    expect(none('Bulk MoS2 Monolayer MoS2 Eg (eV) 1.29 1.88')).toBe(true);
    // A caption between a header and the row: the row belongs to the second table.
    expect(none('Table 1 Si Ge Eg (eV) 1.12 0.66 Table 2 Alloys studied Eg (eV) 1.01 0.93', 'Eg (eV) 1.01')).toBe(true);
  });

  it('judges only a material that names a column', () => {
    const text = 'Compound Si Ge GaAs Eg (eV) 1.12 0.66 1.42';
    expect(misplaced(text, 'Eg (eV)', 'InSb', 1.42)).toBeUndefined();
  });
});

describe('judgeFact on a row-major table flattened into prose', () => {
  const text = 'Table 1 Band gaps. Parameter AX-2 BX-2 AX/BX a (Å) 3.1 3.3 3.2 Eg (eV) 1.10 2.05 0.70 Notes follow.';
  const article = articleFromBlocks([paragraph(text)]);
  const fact = (material: string, value: number): Triplet => {
    const start = article.text.indexOf('Parameter');
    const end = article.text.indexOf(' Notes');
    return {
      material,
      property: 'band_gap',
      value: { kind: 'number', value },
      unit: 'eV',
      engine: 'test',
      evidence: describeQuote(article.text, start, end),
    };
  };

  it("verifies a value under its own material's column and sends one under another's to review, with the reason", () => {
    expect(judgeFact(fact('BX-2', 2.05), article).status).toBe('verified');
    const other = judgeFact(fact('AX/BX', 1.1), article);
    expect(other.status).toBe('needs_review');
    expect(other.reasons).toContain('in Table 1, 1.10 eV is in the column of AX-2, not AX/BX');
  });
});
