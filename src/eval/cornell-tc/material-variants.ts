/**
 * Rewrite a SuperCon formula the ways papers write the same material differently, to measure
 * whether the precedent lookup still finds it: element order permuted (`B2Mg` for `MgB2`),
 * Unicode subscript digits (`MgB₂`), the 1 subscripts toggled (`Mg1B2` ↔ `MgB2`; SuperCon writes
 * every 1), and for doped formulas the dopant-variable notation (`La2-xSrxCuO4 (x=0.15)` for
 * `La1.85Sr0.15CuO4`). Only formulas that read as a flat run of element tokens are rewritten; a
 * variant that does not apply to a formula is simply not produced.
 */
import { isElementSymbol } from '../../text/materials/index';

export type MaterialVariantKind = 'permuted' | 'subscripts' | 'ones' | 'dopant-variable';

export const MATERIAL_VARIANT_KINDS: readonly MaterialVariantKind[] = ['permuted', 'subscripts', 'ones', 'dopant-variable'];

export interface MaterialVariant {
  kind: MaterialVariantKind;
  material: string;
}

/** One element token: symbol, amount as written ('' for an implicit 1) and a SuperCon oxygen suffix (`-z`, `+d`, `z`, `Z`, `-Y`). */
interface FormulaToken {
  symbol: string;
  amount: string;
  suffix: string;
}

const SUBSCRIPT_DIGITS = '₀₁₂₃₄₅₆₇₈₉';

/** The formula's element tokens, or null when it is not a flat run of `<element><number?><suffix?>`. */
function tokenize(formula: string): FormulaToken[] | null {
  const tokens: FormulaToken[] = [];
  let rest = formula;
  while (rest !== '') {
    const two = rest.slice(0, 2);
    const symbol =
      /^[A-Z][a-z]$/.test(two) && isElementSymbol(two) ? two : /^[A-Z]/.test(rest) && isElementSymbol(rest[0]!) ? rest[0]! : null;
    if (!symbol) return null;
    rest = rest.slice(symbol.length);
    const amount = /^\d+(?:\.\d+)?/.exec(rest)?.[0] ?? '';
    rest = rest.slice(amount.length);
    const suffix = /^(?:[+-][a-zA-Z]|[zZ])(?![a-z])/.exec(rest)?.[0] ?? '';
    rest = rest.slice(suffix.length);
    tokens.push({ symbol, amount, suffix });
  }
  return tokens.length > 0 ? tokens : null;
}

const write = (tokens: readonly FormulaToken[]): string => tokens.map((token) => token.symbol + token.amount + token.suffix).join('');

/** Reverse the element order (needs two or more tokens and no suffix, which belongs at the end). */
function permuted(tokens: readonly FormulaToken[]): string | null {
  if (tokens.length < 2 || tokens.some((token) => token.suffix !== '')) return null;
  const reversed = [...tokens].reverse();
  return write(reversed) === write(tokens) ? null : write(reversed);
}

function subscripts(tokens: readonly FormulaToken[]): string | null {
  if (tokens.every((token) => token.amount === '')) return null;
  return write(tokens.map((token) => ({ ...token, amount: token.amount.replace(/\d/g, (digit) => SUBSCRIPT_DIGITS[Number(digit)]!) })));
}

/** Drop explicit 1 subscripts when there are any, else write every implicit 1. */
function ones(tokens: readonly FormulaToken[]): string | null {
  const explicit = tokens.some((token) => token.amount === '1');
  const implicit = tokens.some((token) => token.amount === '');
  if (explicit) return write(tokens.map((token) => (token.amount === '1' ? { ...token, amount: '' } : token)));
  return implicit ? write(tokens.map((token) => (token.amount === '' ? { ...token, amount: '1' } : token))) : null;
}

/**
 * The first pair of fractional amounts a (earlier) and b (later) whose sum is a whole number N
 * (within 1e-6) becomes `<A>N-x … <B>x (x=b)`: `Ba0.6K0.4Fe2As2` → `Ba1-xKxFe2As2 (x=0.4)`.
 */
function dopantVariable(tokens: readonly FormulaToken[]): string | null {
  const fractional = (token: FormulaToken) => token.amount.includes('.') && !Number.isInteger(Number(token.amount));
  for (let first = 0; first < tokens.length; first += 1) {
    if (!fractional(tokens[first]!)) continue;
    for (let second = first + 1; second < tokens.length; second += 1) {
      if (!fractional(tokens[second]!)) continue;
      const sum = Number(tokens[first]!.amount) + Number(tokens[second]!.amount);
      if (Math.abs(sum - Math.round(sum)) > 1e-6 || Math.round(sum) < 1) continue;
      const rewritten = tokens.map((token, index) =>
        index === first ? { ...token, amount: `${Math.round(sum)}-x` } : index === second ? { ...token, amount: 'x' } : token,
      );
      return `${write(rewritten)} (x=${tokens[second]!.amount})`;
    }
  }
  return null;
}

/**
 * The variants of `formula` that apply, in `MATERIAL_VARIANT_KINDS` order; [] when the formula
 * is not a flat run of element tokens (e.g. `Ca0.35M0.33Mo1S2`, whose `M` is no element). A
 * formula already using `x` gets no dopant-variable variant. Never throws.
 */
export function materialVariants(formula: string): MaterialVariant[] {
  const tokens = tokenize(formula.trim());
  if (!tokens) return [];
  const variants: MaterialVariant[] = [];
  const add = (kind: MaterialVariantKind, material: string | null) => {
    if (material !== null && material !== formula) variants.push({ kind, material });
  };
  add('permuted', permuted(tokens));
  add('subscripts', subscripts(tokens));
  add('ones', ones(tokens));
  if (!tokens.some((token) => token.suffix.toLowerCase().includes('x'))) add('dopant-variable', dopantVariable(tokens));
  return variants;
}
