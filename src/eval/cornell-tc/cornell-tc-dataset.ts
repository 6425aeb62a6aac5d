/**
 * The Cornell sci-llm precedent-search dev set (`cornell-scillm/tc-precedent-search/
 * SuperCon_Tc_Tcn_dev-set.csv`, 100 rows: 50 Yes with the highest measured Tc, 50 No with the
 * lowest temperature measured without superconductivity) and where its reference table lives.
 */
import { parse } from 'csv-parse/sync';
import { join } from 'node:path';

/** Folder of the task inside the data root. */
export function cornellTcFolder(dataRoot: string): string {
  return join(dataRoot, 'datasets', 'cornell-scillm', 'tc-precedent-search');
}

/** Default reference table: the full SuperCon Tc/Tcn export. */
export function defaultReferencePath(dataRoot: string): string {
  return join(cornellTcFolder(dataRoot), 'SuperCon_Tc_Tcn_no_NA.csv');
}

/** One question with its truth. */
export interface CornellTcQuestion {
  material: string;
  /** SuperCon reference of the truth row. */
  refno: string;
  truth: 'Yes' | 'No';
  /** Tc for Yes, Tcn for No. */
  kind: 'Tc' | 'Tcn';
  /** Kelvin. */
  value: number;
}

const YES_COLUMN = 'Has material been reported to be superconducting?';
const TC_COLUMN = 'What is the highest measured Tc?';
const TCN_COLUMN = 'What is the lowest temp for measurement at which material was not superconducting?';

/**
 * Parse the dev-set CSV. The truth value is the answer column (highest Tc for Yes, lowest Tcn
 * for No), in K. Throws an Error naming the first row that lacks a material, a Yes/No class or a
 * numeric answer, or whose unit is not K.
 */
export function parseCornellTcDevSet(csvText: string): CornellTcQuestion[] {
  const records = parse(csvText, { columns: true, skip_empty_lines: true }) as Array<Record<string, string>>;
  return records.map((record, index) => {
    const where = `dev set row ${index + 2}`;
    const material = (record.material ?? '').trim();
    const truth = (record[YES_COLUMN] ?? '').trim();
    if (!material) throw new Error(`${where}: no material`);
    if (truth !== 'Yes' && truth !== 'No') throw new Error(`${where}: class "${truth}" is neither Yes nor No`);
    if ((record.property_unit ?? 'K').trim() !== 'K') throw new Error(`${where}: unit "${record.property_unit}" is not K`);
    const text = (record[truth === 'Yes' ? TC_COLUMN : TCN_COLUMN] ?? '').trim();
    const value = Number(text);
    if (text === '' || !Number.isFinite(value)) throw new Error(`${where}: answer "${text}" is not a number`);
    return { material, refno: (record.refno ?? '').trim(), truth, kind: truth === 'Yes' ? 'Tc' : 'Tcn', value };
  });
}
