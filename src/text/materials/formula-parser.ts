/**
 * Recursive-descent parser for the formula core (after `cleanFormulaText` and the removal of
 * decorations such as phase prefixes, dopant notations and qualifiers).
 *
 * Why our own parser rather than npm's `mf-parser` (cheminfo, the maintained JavaScript
 * molecular-formula parser, evaluated at 3.9.3): it reads `Pr`, `Bu`, `Ac`-like tokens as
 * organic groups, treats `[...]` as isotope brackets (`[Co(NH3)6]Cl3` fails), reads
 * `CuSO4.5H2O` as O5.5 and mis-multiplies `CuSO4•5H2O`, and has no notion of doping variables
 * (`La2-xSrxCuO4`, `O7-δ`). Materials notation needs all of those, so the grammar is small:
 *
 *   formula  := segment ('·' segment)*
 *   segment  := amount? group+                      (leading multiplier: `5H2O`, `yH2O`)
 *   group    := ('^' mass)? element amount?  |  organic-cation amount?
 *             | '(' group+ ')' amount? | '[' group+ ']' amount?
 *   amount   := term (('+' | '-') term)*           (`2-x`, `3n+1`, `7-δ`)
 *   term     := number variable? | variable
 */
import { addAmounts, constantAmount, multiplyAmounts, type LinearAmount } from './composition';
import { isElementSymbol } from './elements';

/** The parsed core: linear amounts per element, mass numbers given for isotopes. */
export interface FormulaCore {
  readonly amounts: Readonly<Record<string, LinearAmount>>;
  readonly isotopes: Readonly<Record<string, number>>;
  /** Number of element tokens read (`Fe2As2` has 2), used to tell formulas from words. */
  readonly elementTokens: number;
}

type Amounts = Record<string, LinearAmount>;

/** Variables that stand for a stoichiometry in doping notations (`x`, `y`, `z`, `δ`, `n`, `d`). */
export const VARIABLE_CHARACTERS = 'xyzδnd';

/**
 * Organic cations of hybrid perovskites written as abbreviations (`MAPbI3`, `FAPbI3`,
 * `(BA)2(MA)n-1PbnI3n+1`): methylammonium CH3NH3⁺, formamidinium CH(NH2)2⁺,
 * n-butylammonium C4H9NH3⁺, phenethylammonium C6H5C2H4NH3⁺. Upper case and not followed by a
 * lower-case letter, so `FAl` stays F + Al.
 */
const ORGANIC_CATION = /^(?:MA|FA|BA|PEA)(?![a-z])/;
const ORGANIC_CATION_AMOUNTS: Readonly<Record<string, Amounts>> = {
  MA: { C: constantAmount(1), H: constantAmount(6), N: constantAmount(1) },
  FA: { C: constantAmount(1), H: constantAmount(5), N: constantAmount(2) },
  BA: { C: constantAmount(4), H: constantAmount(12), N: constantAmount(1) },
  PEA: { C: constantAmount(8), H: constantAmount(12), N: constantAmount(1) },
};

class FormulaReader {
  private position = 0;
  readonly isotopes: Record<string, number> = {};
  elementTokens = 0;

  constructor(private readonly text: string) {}

  parse(): FormulaCore | null {
    let total: Amounts = {};
    for (;;) {
      const segment = this.segment();
      if (!segment) return null;
      total = mergeAmounts(total, segment);
      if (this.peek() === '·') this.position += 1;
      else break;
    }
    if (this.position !== this.text.length || this.elementTokens === 0) return null;
    return { amounts: total, isotopes: this.isotopes, elementTokens: this.elementTokens };
  }

  private peek(offset = 0): string {
    return this.text[this.position + offset] ?? '';
  }

  private segment(): Amounts | null {
    const start = this.position;
    let multiplier = /[\d.]/.test(this.peek()) || this.isVariableAt(0) ? this.amount() : null;
    if (multiplier && !/[A-Z([^]/.test(this.peek())) {
      this.position = start;
      multiplier = null;
    }
    const groups = this.groups();
    if (!groups) return null;
    return multiplier ? scaleAmounts(groups, multiplier) : groups;
  }

  private groups(): Amounts | null {
    let total: Amounts = {};
    let count = 0;
    while (/[A-Z([^]/.test(this.peek())) {
      const group = this.group();
      if (!group) return null;
      total = mergeAmounts(total, group);
      count += 1;
    }
    return count > 0 ? total : null;
  }

  private group(): Amounts | null {
    const opening = this.peek();
    if (opening === '(' || opening === '[') {
      this.position += 1;
      const inner = this.groups();
      if (!inner || this.peek() !== (opening === '(' ? ')' : ']')) return null;
      this.position += 1;
      const amount = this.optionalAmount();
      return amount ? scaleAmounts(inner, amount) : inner;
    }
    const cation = ORGANIC_CATION.exec(this.text.slice(this.position));
    if (cation?.[0]) {
      this.position += cation[0].length;
      this.elementTokens += 1;
      const amount = this.optionalAmount() ?? constantAmount(1);
      return scaleAmounts(ORGANIC_CATION_AMOUNTS[cation[0]] ?? {}, amount);
    }
    let massNumber: number | undefined;
    if (opening === '^') {
      const digits = /^\^(\d+)/.exec(this.text.slice(this.position));
      if (!digits?.[1]) return null;
      massNumber = Number(digits[1]);
      this.position += digits[0].length;
    }
    const element = this.element();
    if (!element) return null;
    if (massNumber !== undefined) this.isotopes[element] = massNumber;
    const amount = this.optionalAmount() ?? constantAmount(1);
    return { [element]: amount };
  }

  private element(): string | null {
    const first = this.peek();
    const second = this.peek(1);
    // Deuterium `D` (`CuSO4·5D2O`) is hydrogen of mass 2.
    if (first === 'D' && !/[a-z]/.test(second)) {
      this.position += 1;
      this.elementTokens += 1;
      this.isotopes.H = 2;
      return 'H';
    }
    if (/[a-z]/.test(second) && isElementSymbol(first + second)) {
      this.position += 2;
      this.elementTokens += 1;
      return first + second;
    }
    if (isElementSymbol(first)) {
      this.position += 1;
      this.elementTokens += 1;
      return first;
    }
    return null;
  }

  private isVariableAt(offset: number): boolean {
    const character = this.peek(offset);
    return character !== '' && VARIABLE_CHARACTERS.includes(character);
  }

  private optionalAmount(): LinearAmount | null {
    return /[\d.]/.test(this.peek()) || this.isVariableAt(0) ? this.amount() : null;
  }

  /** `term (('+'|'-') term)*`; a sign continues the amount only when a term follows it. */
  private amount(): LinearAmount | null {
    let total = this.term();
    if (!total) return null;
    while ((this.peek() === '+' || this.peek() === '-') && (/[\d.]/.test(this.peek(1)) || this.isVariableAt(1))) {
      const sign = this.peek() === '-' ? -1 : 1;
      const start = this.position;
      this.position += 1;
      const term = this.term();
      if (!term) {
        this.position = start;
        break;
      }
      total = addAmounts(total, multiplyAmounts(term, constantAmount(sign)) ?? term);
    }
    return total;
  }

  private term(): LinearAmount | null {
    const number = /^(?:\d+(?:\.\d+)?|\.\d+)/.exec(this.text.slice(this.position));
    let coefficient = 1;
    if (number) {
      coefficient = Number(number[0]);
      this.position += number[0].length;
    }
    if (this.isVariableAt(0)) {
      const variable = this.peek();
      this.position += 1;
      return { constant: 0, terms: { [variable]: coefficient } };
    }
    return number ? constantAmount(coefficient) : null;
  }
}

function mergeAmounts(a: Amounts, b: Amounts): Amounts {
  const result: Amounts = { ...a };
  for (const [element, amount] of Object.entries(b)) {
    result[element] = result[element] ? addAmounts(result[element], amount) : amount;
  }
  return result;
}

function scaleAmounts(amounts: Amounts, factor: LinearAmount): Amounts | null {
  const result: Amounts = {};
  for (const [element, amount] of Object.entries(amounts)) {
    const scaled = multiplyAmounts(amount, factor);
    if (!scaled) return null;
    result[element] = scaled;
  }
  return result;
}

/**
 * Parse a cleaned formula core such as `Ca3(PO4)2`, `La2-xSrxCuO4`, `CuSO4·5H2O`, `^17O2`.
 * Returns null (never throws) when any character is left unread or no element was read.
 */
export function parseFormulaCore(text: string): FormulaCore | null {
  if (text.length === 0 || text.length > 400) return null;
  return new FormulaReader(text).parse();
}
