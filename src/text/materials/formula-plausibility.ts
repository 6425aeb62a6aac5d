/**
 * Whether a formula-shaped token in prose is a material rather than a word, unit, acronym or
 * label. Shared by the mention finder and the abbreviation finder.
 */
import { ELEMENT_SYMBOLS } from './elements';
import type { ParsedMaterial } from './parse-material';

/** Single-element formulas worth reporting on their own: fullerenes (IUPAC Gold Book, "fullerenes"). */
export const SINGLE_ELEMENT_MATERIALS: ReadonlySet<string> = new Set(['C60', 'C70', 'C84']);
/**
 * Elements from einsteinium (Z = 99) on exist a few atoms at a time (IUPAC periodic table); in
 * prose their symbols are letters of acronyms (`PEs`, `IDs`, `SWNTs`, `OLEDs`), so a mention
 * containing one is rejected.
 */
const SUPERHEAVY: ReadonlySet<string> = new Set(ELEMENT_SYMBOLS.slice(98));
/**
 * Frequent all-capital tokens that parse but are not materials: the symmetry groups SU(2) and
 * SU(3) (Wikipedia, "Special unitary group"), the photoresist SU-8 (Wikipedia, "SU-8
 * photoresist"), and the EU research programmes FP6 and FP7 named in acknowledgements
 * (Wikipedia, "Framework Programmes for Research and Technological Development").
 */
const NOT_MATERIALS: ReadonlySet<string> = new Set(['SU2', 'SU3', 'SU8', 'FP6', 'FP7']);
/**
 * All-capital formula-like words that are materials rather than acronyms (unlike `SOC`, `UV`,
 * `CO`): boron nitride (Wikipedia, "Boron nitride").
 */
const CAPITAL_MATERIALS: ReadonlySet<string> = new Set(['BN']);

/**
 * Whether a parsed token reads as a formula in prose rather than a word, unit or label:
 * at least two element tokens (single elements only from a short list such as C60); without
 * a digit or variable, at least two capitals and not all capitals (`In`, `As`, `Can`, `SOC`,
 * `CO`, `UV` fail; `ZnO`, `LaFeAsO` pass). `S1`, `H2`, `Tc`, `K` fail as single elements;
 * amounts of 500 or more (`NSF1234`-like grant numbers) fail.
 */
export function isPlausibleFormulaMention(token: string, parsed: ParsedMaterial): boolean {
  const core = parsed.formula;
  // Grant and catalogue numbers (`DMR1720139`-like award numbers) read as absurd amounts.
  if (Object.values(parsed.amounts).some((amount) => Math.abs(amount.constant) >= 500)) return false;
  if (Object.keys(parsed.amounts).some((element) => SUPERHEAVY.has(element)) || NOT_MATERIALS.has(core)) return false;
  // Labels and symbols with an argument: `Tc(Al)` (Tc of aluminium), `Ge(V)`, `Fe(III)`.
  if (/^[A-Z][a-z]?[A-Z]?[a-z]?\((?:[A-Z][a-z]?|\d|[IVX]+)\)$/.test(core)) return false;
  // Catalogue numbers: capitals only and a three-digit amount (`CP233`).
  if (/^[A-Z]+\d{3,}$/.test(core)) return false;
  // Plural acronyms: `PSCs`, `IFCs` (P–S–Cs, I–F–Cs).
  if (/^[A-Z]{2,}s$/.test(core)) return false;
  if (!/\d/.test(core) && parsed.freeVariables.some((variable) => variable === 'n' || variable === 'd')) return false;
  if (parsed.elementTokens < 2 || Object.keys(parsed.amounts).length < 2) return SINGLE_ELEMENT_MATERIALS.has(core);
  const letters = core.replace(/[^A-Za-z]/g, '');
  const hasNumber = /\d|[xyzδ]/.test(core);
  if (!hasNumber) {
    if ((letters.match(/[A-Z]/g) ?? []).length < 2) return false;
    if (letters === letters.toUpperCase() && !CAPITAL_MATERIALS.has(token)) return false;
  }
  return true;
}
