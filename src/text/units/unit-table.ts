/**
 * The unit table (`unit-table.json`) loaded into lookup indexes: every symbol spelling, with
 * and without SI prefixes (case-sensitive), and every spelled-out name (lower case, with SI
 * prefix words: "gigapascals"). The table is data so that adding a spelling is a one-line edit.
 */
import table from './unit-table.json';

export interface UnitPrefix {
  symbol: string;
  factor: number;
  name: string;
  symbols?: string[];
}
export interface UnitEntry {
  /** Canonical symbol, e.g. "eV", "°C", "Ω". */
  symbol: string;
  /** The js-quantities unit it converts with, e.g. "degK", "A*h"; "" = dimensionless count. */
  qty: string;
  /** Multiplier on `qty` (units js-quantities lacks, or where practice differs). */
  scale?: number;
  /** js-quantities absolute-temperature unit used when the unit stands alone ("300 °C"). */
  temperature?: string;
  prefixable?: boolean;
  symbols?: string[];
  names?: string[];
  /** Only the spelled names are recognized (the symbol is too ambiguous in running text). */
  spelledOnly?: boolean;
}

/** One atom of a unit expression as matched: the entry, its prefix, and the spelling. */
export interface UnitAtom {
  entry: UnitEntry;
  prefix?: UnitPrefix;
  spelled: boolean;
}

export const prefixes: UnitPrefix[] = table.prefixes;
export const units: UnitEntry[] = table.units as UnitEntry[];

function buildSymbolIndex(): Map<string, UnitAtom> {
  const index = new Map<string, UnitAtom>();
  const add = (key: string, atom: UnitAtom) => {
    if (!index.has(key)) index.set(key, atom);
  };
  // Unprefixed spellings first, so that "m" is metre (not milli-nothing) and "T" is tesla.
  for (const entry of units) {
    if (entry.spelledOnly) continue;
    for (const spelling of [entry.symbol, ...(entry.symbols ?? [])]) add(spelling, { entry, spelled: false });
  }
  for (const entry of units) {
    if (!entry.prefixable || entry.spelledOnly) continue;
    for (const prefix of prefixes) {
      for (const prefixSpelling of [prefix.symbol, ...(prefix.symbols ?? [])]) {
        for (const spelling of [entry.symbol, ...(entry.symbols ?? [])]) add(prefixSpelling + spelling, { entry, prefix, spelled: false });
      }
    }
  }
  return index;
}

function buildNameIndex(): Map<string, UnitAtom> {
  const index = new Map<string, UnitAtom>();
  for (const entry of units) {
    for (const name of entry.names ?? []) {
      if (!index.has(name)) index.set(name, { entry, spelled: true });
      if (!entry.prefixable) continue;
      for (const prefix of prefixes) index.set(prefix.name + name, { entry, prefix, spelled: true });
    }
  }
  return index;
}

/** Symbol spelling (e.g. "mAh", "kOe", "µm") → atom. */
export const symbolIndex = buildSymbolIndex();
/** Lower-case spelled name (e.g. "electron volts", "gigapascals") → atom. */
export const nameIndex = buildNameIndex();
/** Index keys longest first, for greedy longest-match scanning. */
export const symbolKeys = [...symbolIndex.keys()].sort((a, b) => b.length - a.length);
export const nameKeys = [...nameIndex.keys()].sort((a, b) => b.length - a.length);

/** Canonical symbol of an atom: prefix symbol + unit symbol ("mAh", "μm", "GPa"). */
export function atomSymbol(atom: UnitAtom): string {
  return (atom.prefix?.symbol ?? '') + atom.entry.symbol;
}
