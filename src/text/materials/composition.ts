/**
 * Compositions (element symbol → amount per formula unit) and the linear amounts the parser
 * builds before variables such as `x` in `La2-xSrxCuO4` are known.
 */

/** Element symbol → amount per formula unit, e.g. `{ La: 1.85, Sr: 0.15, Cu: 1, O: 4 }`. */
export type Composition = Readonly<Record<string, number>>;

/**
 * An amount `constant + Σ coefficient·variable`, e.g. `2-x` is `{ constant: 2, terms: { x: -1 } }`.
 * Stoichiometry in doping notations is linear in its variables, so this is closed under the
 * parser's operations (sum, scaling by a group multiplier).
 */
export interface LinearAmount {
  readonly constant: number;
  readonly terms: Readonly<Record<string, number>>;
}

/** A constant amount. */
export function constantAmount(value: number): LinearAmount {
  return { constant: value, terms: {} };
}

/** `a + b`, dropping variables whose coefficients cancel (`(1-x) + x = 1`). */
export function addAmounts(a: LinearAmount, b: LinearAmount): LinearAmount {
  const terms: Record<string, number> = { ...a.terms };
  for (const [variable, coefficient] of Object.entries(b.terms)) {
    const sum = (terms[variable] ?? 0) + coefficient;
    if (Math.abs(sum) < 1e-12) delete terms[variable];
    else terms[variable] = sum;
  }
  return { constant: a.constant + b.constant, terms };
}

/**
 * `a · factor` where the factor is itself linear; null when both sides hold variables (the
 * product would not be linear: `(MA)n-1` inside a group multiplied by `n`).
 */
export function multiplyAmounts(a: LinearAmount, factor: LinearAmount): LinearAmount | null {
  const aFree = Object.keys(a.terms).length > 0;
  const factorFree = Object.keys(factor.terms).length > 0;
  if (aFree && factorFree) return null;
  const [linear, scalar] = aFree ? [a, factor.constant] : [factor, a.constant];
  const terms: Record<string, number> = {};
  for (const [variable, coefficient] of Object.entries(linear.terms)) {
    if (coefficient * scalar !== 0) terms[variable] = coefficient * scalar;
  }
  return { constant: linear.constant * scalar, terms };
}

/**
 * Substitute known variable values (`{ x: 0.15 }`); variables without a value stay as terms.
 */
export function substituteAmount(amount: LinearAmount, values: Readonly<Record<string, number>>): LinearAmount {
  let constant = amount.constant;
  const terms: Record<string, number> = {};
  for (const [variable, coefficient] of Object.entries(amount.terms)) {
    const value = values[variable];
    if (value === undefined) terms[variable] = coefficient;
    else constant += coefficient * value;
  }
  return { constant, terms };
}

/**
 * `math.isclose` with pymatgen's `Composition.almost_equals` defaults, rtol = 0.1 and
 * atol = 1e-8: |a − b| ≤ max(rtol·max(|a|, |b|), atol).
 */
export function amountsClose(a: number, b: number, rtol = 0.1, atol = 1e-8): boolean {
  return Math.abs(a - b) <= Math.max(rtol * Math.max(Math.abs(a), Math.abs(b)), atol);
}

/**
 * Element-wise comparison in the manner of pymatgen's `Composition.almost_equals(other,
 * rtol=0.1, atol=1e-8)`: every element of either side must have close amounts (a missing
 * element counts as 0). Amounts are per formula unit, not reduced: `Fe2As2` ≠ `FeAs`, as in
 * pymatgen.
 */
export function compositionsAlmostEqual(a: Composition, b: Composition, rtol = 0.1, atol = 1e-8): boolean {
  const elements = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const element of elements) {
    if (!amountsClose(a[element] ?? 0, b[element] ?? 0, rtol, atol)) return false;
  }
  return true;
}

/**
 * Elements in Hill order (Hill, J. Am. Chem. Soc. 22, 478, 1900; as in CAS and pymatgen's
 * `hill_formula`): with carbon present, C first, then H, then the rest alphabetically;
 * without carbon, all alphabetically.
 */
export function hillOrder(elements: Iterable<string>): string[] {
  const list = [...elements].sort();
  if (!list.includes('C')) return list;
  const rest = list.filter((element) => element !== 'C' && element !== 'H');
  return ['C', ...(list.includes('H') ? ['H'] : []), ...rest];
}

/** An amount written the short way: 1 omitted, at most 4 decimals, no trailing zeros. */
export function formatAmount(amount: number): string {
  if (Math.abs(amount - 1) < 1e-9) return '';
  return String(Number(amount.toFixed(4)));
}

/**
 * A composition as a formula string in Hill order: `{ O: 2, Ti: 1 }` → `'O2Ti'`. Elements
 * with amount 0 are dropped. Inverse of `parseFormula` up to 4-decimal rounding.
 */
export function formatComposition(composition: Composition): string {
  return hillOrder(Object.keys(composition))
    .filter((element) => Math.abs(composition[element] ?? 0) > 1e-9)
    .map((element) => element + formatAmount(composition[element] ?? 0))
    .join('');
}
