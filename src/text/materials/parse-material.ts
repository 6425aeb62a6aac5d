/**
 * Parse a material string as written in papers and ground truth into its composition plus the
 * decorations around it: variable values (`La2-xSrxCuO4 (x = 0.15)`), dopants (`ZnS:Eu2+`,
 * `Al-doped Li7La3Zr2O12`), a phase prefix (`2H-MoS2`, `zb-GaAs`), a charge, isotopes, and
 * trailing qualifiers (`ZnO (oxygen-deficient)`).
 */
import { LRUCache } from 'lru-cache';
import { formatAmount, hillOrder, substituteAmount, type Composition, type LinearAmount } from './composition';
import { ELEMENT_SYMBOLS, elementByName, isElementSymbol } from './elements';
import { parseFormulaCore } from './formula-parser';
import {
  SMALL_OFFSET_VARIABLES,
  cleanFormulaText,
  joinSpacedFormula,
  parseAssignmentClause,
  rewriteSuperConOxygen,
  stripDescriptorWords,
} from './formula-text';

/** A material string understood as a formula with its decorations. */
export interface ParsedMaterial {
  /** The formula core that was parsed, after clean-up (`La2-xSrxCuO4`). */
  readonly formula: string;
  /** Element → amount, with known variables substituted; free variables stay as terms. */
  readonly amounts: Readonly<Record<string, LinearAmount>>;
  /** Element → number, or null while a variable such as `x` has no value. */
  readonly composition: Composition | null;
  readonly freeVariables: readonly string[];
  /** Variable values read from the string (`x = 0.15`). */
  readonly values: Readonly<Record<string, number>>;
  /** Dopant element symbols, sorted (`['Eu']` for `ZnS:Eu2+` and for `Eu-doped ZnS`). */
  readonly dopants: readonly string[];
  /** Polytype or phase prefix (`2H`, `wz`, `α`), when written. */
  readonly phase?: string;
  /** Net charge (`Eu3+` → 3, `SO4^2-` → -2), 0 when none is written. */
  readonly charge: number;
  /** Element → mass number, for isotopes written `^17O`, `¹⁷O` or a leading `17O`. */
  readonly isotopes: Readonly<Record<string, number>>;
  /** Element tokens read; `Tc` has 1, `Fe2As2` has 2. */
  readonly elementTokens: number;
}

const MAX_LENGTH = 300;
const TRAILING_PARENTHESIS = /^(.*?)(\s*)\(([^()]*)\)$/s;
const TRAILING_ASSIGNMENT =
  /^(.*?)(?:\s*[,;]\s*|\s+)((?:(?:with|where|for)\s+)?[xyzδdn]\s*[=~≈∼≃≅]\s*\d*\.?\d+(?:\s*(?:,|and)\s*[xyzδdn]\s*[=~≈∼≃≅]\s*\d*\.?\d+)*)$/s;
const DOPED = /^([A-Za-z]+(?:\s*[,/&]\s*[A-Za-z]+)*)\s*-\s*(?:co-?)?(?:doped|substituted|intercalated)\s+(.+)$/is;
const PHASE_PREFIX = /^(\d[A-Z]'?|[α-ω]'?|[a-z]{1,4}|[A-Z]{1,3}'?)-(?=[A-Z(\[^])/;
const HYDRATE_DOT = /^([^·]*?[^.\s·])\.((?:\d+(?:\.\d+)?|[xyzn])?(?:H2O|D2O|NH3))$/;
const CHARGE = /^(.+?)(\^)(\d*)([+-])$|^(.*[A-Za-z)\]])()(\d*)([+-])$/;

/** A dopant written as a symbol or an English name (`Eu`, `europium`); null otherwise. */
function dopantSymbol(text: string): string | null {
  const trimmed = text.trim().replace(/^\d*\.?\d*\s*(?:%|at\.?\s*%|mol\s*%)?\s*/, '');
  const symbol = /^([A-Z][a-z]?)(?:\^?\d*[+-])?$/.exec(trimmed)?.[1];
  if (symbol && isElementSymbol(symbol)) return symbol;
  return elementByName.get(trimmed.toLowerCase()) ?? null;
}

/**
 * Remove trailing `(x = 0.15)`, `, x = 0.15`, `with x = 0.08` and, unless `keepQualifiers`,
 * parenthesised qualifiers (`ZnO (oxygen-deficient)`).
 */
function stripTrailing(text: string, values: Record<string, number>, keepQualifiers = false): string {
  let current = text;
  // An unclosed assignment (`La2−xSrxCuO 4 (x=0.15`) or a stray closing bracket
  // (`Nb 3 Sn )`) left by a text layer.
  const unclosed = /^(.*?)\s*\(([^()]*)$/s.exec(current);
  const unclosedValues = unclosed?.[2] ? parseAssignmentClause(unclosed[2]) : null;
  if (unclosed?.[1] && unclosedValues) {
    Object.assign(values, unclosedValues);
    current = unclosed[1];
  }
  if (/\s\)$/.test(current) && (current.match(/\(/g) ?? []).length < (current.match(/\)/g) ?? []).length) {
    current = current.slice(0, -1).trimEnd();
  }
  for (let guard = 0; guard < 8; guard += 1) {
    const parenthesis = TRAILING_PARENTHESIS.exec(current);
    if (parenthesis && parenthesis[1] !== undefined && parenthesis[1].trim().length > 0) {
      const [, head = '', space = '', inside = ''] = parenthesis;
      const assigned = parseAssignmentClause(inside);
      // `La(O1-xFx)FeAs(...)`-style groups are formula syntax only when glued to the formula
      // and parseable; anything after a space, or unparseable, is a qualifier.
      if (assigned) Object.assign(values, assigned);
      else if (keepQualifiers) break;
      else if (space.length === 0 && parseFormulaCore(cleanFormulaText(inside)) && !/[\s,]/.test(inside)) break;
      current = head.trim();
      continue;
    }
    const assignment = TRAILING_ASSIGNMENT.exec(current);
    const assigned = assignment?.[2] ? parseAssignmentClause(assignment[2]) : null;
    if (assignment?.[1] && assigned) {
      Object.assign(values, assigned);
      current = assignment[1].trim();
      continue;
    }
    break;
  }
  return current;
}

/** How much of a material string `parseMaterial` may set aside. */
export interface ParseMaterialOptions {
  /**
   * Strict reading, for strict scoring: the whole string must be the formula with its own
   * notation (variable values, dopants, phase prefix, charge, hydrate); descriptor words
   * (`monolayer MoS2`, `Sr2RuO4 film`) and parenthesised qualifiers (`ZnO (bulk)`) are not set
   * aside, so such a string is not a formula. Default false.
   */
  readonly strict?: boolean;
}

/**
 * Parse one material string (not running text: see `findMaterialMentions` for that).
 * Returns null, never throws, when the string is not a formula (`graphene`, `x = 0.10`,
 * `MoS2-WSe2` heterostructures, mixed sites `(Sr,Ca)14Cu24O41`).
 */
export function parseMaterial(raw: string, options: ParseMaterialOptions = {}): ParsedMaterial | null {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > MAX_LENGTH) return null;
  const strict = options.strict === true;
  const cleaned = cleanFormulaText(raw);
  const direct = parseCleaned(cleaned, {}, strict);
  if (direct) return direct;
  const superCon = rewriteSuperConOxygen(cleaned);
  if (superCon) return parseCleaned(superCon, {}, strict);
  if (strict) return null;
  // Descriptors are tried last so that they can never change a string that parses as it is.
  const values: Record<string, number> = {};
  const core = stripDescriptorWords(stripTrailing(cleaned, values));
  if (!core || /[-–]$/.test(core)) return null;
  const parsed = parseCleaned(core, values);
  // A lone element left after the descriptors (`Ca- doped`) is a dopant fragment, not a material.
  return parsed && parsed.elementTokens >= 2 ? parsed : null;
}

function parseCleaned(
  cleaned: string,
  initialValues: Readonly<Record<string, number>> = {},
  keepQualifiers = false,
): ParsedMaterial | null {
  const values: Record<string, number> = { ...initialValues };
  let text = stripTrailing(cleaned, values, keepQualifiers);

  let dopants: string[] = [];
  const doped = DOPED.exec(text);
  if (doped?.[1] && doped[2]) {
    const symbols = doped[1].split(/\s*[,/&]\s*/).map(dopantSymbol);
    if (symbols.some((symbol) => symbol === null)) return null;
    dopants = symbols as string[];
    text = doped[2].trim();
  }
  const colon = /^([^:]+?)\s*:\s*([A-Z0-9].*)$/s.exec(text);
  if (colon?.[1] && colon[2]) {
    const symbols = colon[2].split(/\s*[,;]\s*/).map(dopantSymbol);
    if (symbols.some((symbol) => symbol === null)) return null;
    dopants = [...dopants, ...(symbols as string[])];
    text = colon[1];
  }

  let phase: string | undefined;
  const prefix = PHASE_PREFIX.exec(text);
  if (prefix?.[1]) {
    phase = prefix[1];
    text = text.slice(prefix[0].length);
  }
  if (/\s/.test(text)) {
    const joined = joinSpacedFormula(text);
    if (joined === null) return null;
    text = joined;
  }
  // `CuSO4.5H2O` is a hydrate, `C2.5H2O` a decimal: the dot separates a hydrate only after a
  // formula of two or more elements whose last amount is not 0 or 1 (never written so).
  const hydrate = HYDRATE_DOT.exec(text);
  if (hydrate?.[1] && (hydrate[1].match(/[A-Z]/g) ?? []).length >= 2 && !/(?<![\d.])[01]$/.test(hydrate[1])) {
    text = `${hydrate[1]}·${hydrate[2] ?? ''}`;
  }
  const leadingMass = /^(\d{1,3})([A-Z][a-z]?)/.exec(text);
  if (leadingMass?.[1] && leadingMass[2]) {
    const atomicNumber = ELEMENT_SYMBOLS.indexOf(leadingMass[2]) + 1;
    if (atomicNumber > 0 && Number(leadingMass[1]) >= atomicNumber) text = `^${text}`;
  }

  let charge = 0;
  let core = parseFormulaCore(text);
  const chargeMatch = core ? null : CHARGE.exec(text);
  if (chargeMatch) {
    // `Eu3+`, `O2-`: one element, so the digits are the charge. `SO42-`, `NH4+`: without a
    // caret, a lone digit after a polyatomic formula is its subscript and only a second digit
    // is the charge (the usual way `SO4²⁻` comes out of a text layer).
    const [head = '', caret = '', digits = '', sign = '+'] =
      chargeMatch[1] !== undefined ? chargeMatch.slice(1, 5) : chargeMatch.slice(5, 9);
    const headCore = parseFormulaCore(head);
    const chargeDigits = caret || headCore?.elementTokens === 1 ? digits : digits.slice(1);
    const body = head + digits.slice(0, digits.length - chargeDigits.length);
    core = parseFormulaCore(body);
    charge = (chargeDigits ? Number(chargeDigits) : 1) * (sign === '-' ? -1 : 1);
    text = body;
  }
  if (!core) return null;
  // `Bi2212`, `Y123`, `La214` are cuprate family shorthands, not one element 2212 times.
  const onlyAmount = core.elementTokens === 1 ? Object.values(core.amounts)[0] : undefined;
  if (onlyAmount && onlyAmount.constant >= 100 && /^[A-Z][a-z]?\d{3,}$/.test(text)) return null;

  const substituted: Record<string, number> = { ...values };
  for (const variable of SMALL_OFFSET_VARIABLES) substituted[variable] ??= 0;
  const amounts: Record<string, LinearAmount> = {};
  const free = new Set<string>();
  for (const [element, amount] of Object.entries(core.amounts)) {
    const value = substituteAmount(amount, substituted);
    amounts[element] = value;
    for (const variable of Object.keys(value.terms)) free.add(variable);
  }
  let composition: Composition | null = null;
  if (free.size === 0) {
    const numbers: Record<string, number> = {};
    for (const [element, amount] of Object.entries(amounts)) {
      if (Math.abs(amount.constant) > 1e-12) numbers[element] = amount.constant;
    }
    composition = numbers;
  }
  return {
    formula: text,
    amounts,
    composition,
    freeVariables: [...free].sort(),
    values,
    dopants: [...new Set(dopants)].sort(),
    ...(phase === undefined ? {} : { phase }),
    charge,
    isotopes: core.isotopes,
    elementTokens: core.elementTokens,
  };
}

/**
 * Element → amount for a formula string; for dopant notations, the host's composition (the
 * dopants are in `parseMaterial(text).dopants`). Null when the string is not a formula or a
 * variable such as `x` has no value (`La2-xSrxCuO4` alone; with `(x = 0.15)` it resolves).
 * Never throws.
 */
export function parseFormula(text: string): Composition | null {
  return parseMaterial(text)?.composition ?? null;
}

function formatLinear(amount: LinearAmount): string {
  const variables = Object.keys(amount.terms).sort();
  if (variables.length === 0) return formatAmount(amount.constant);
  let result = Math.abs(amount.constant) > 1e-12 ? String(Number(amount.constant.toFixed(4))) : '';
  for (const variable of variables) {
    const coefficient = amount.terms[variable] ?? 0;
    const magnitude = Math.abs(coefficient) === 1 ? '' : String(Number(Math.abs(coefficient).toFixed(4)));
    const sign = coefficient < 0 ? '-' : result === '' ? '' : '+';
    result += sign + magnitude + variable;
  }
  return `(${result})`;
}

/**
 * A canonical string in Hill order (C, H, then alphabetical; alphabetical without carbon):
 * `Li6.25Al0.25La3Zr2O12` → `Al0.25La3Li6.25O12Zr2`, `La2-xSrxCuO4 (x = 0.15)` →
 * `CuLa1.85O4Sr0.15`, free variables kept symbolic (`CuLa(2-x)O4Sr(x)`), then the phase as a
 * prefix (`2H-MoS2`), dopants after a colon (`SZn:Eu`) and a charge (`Eu^3+`). Null when the
 * string is not a formula.
 */
export function normalizeFormula(text: string): string | null {
  let entry = normalizedFormulas.get(text);
  if (!entry) {
    entry = { formula: normalizeFormulaOnce(text) };
    normalizedFormulas.set(text, entry);
  }
  return entry.formula;
}

/**
 * Formulas normalized so far, by the text as written: a dataset names the same materials over and
 * over (an import of 100,000 rows spent ~1 s of its 4.4 s of checks normalizing them, Node 20).
 * Bounded, least recently used dropped first.
 */
const normalizedFormulas = new LRUCache<string, { formula: string | null }>({ max: 5000 });

function normalizeFormulaOnce(text: string): string | null {
  const parsed = parseMaterial(text);
  if (!parsed) return null;
  const body = hillOrder(Object.keys(parsed.amounts))
    .filter((element) => {
      const amount = parsed.amounts[element];
      return amount !== undefined && (Object.keys(amount.terms).length > 0 || Math.abs(amount.constant) > 1e-9);
    })
    .map((element) => element + formatLinear(parsed.amounts[element] ?? { constant: 0, terms: {} }))
    .join('');
  const phase = parsed.phase ? `${parsed.phase}-` : '';
  const dopants = parsed.dopants.length > 0 ? `:${parsed.dopants.join(',')}` : '';
  const magnitude = Math.abs(parsed.charge) === 1 ? '' : String(Math.abs(parsed.charge));
  const charge = parsed.charge === 0 ? '' : `^${magnitude}${parsed.charge > 0 ? '+' : '-'}`;
  return phase + body + dopants + charge;
}
