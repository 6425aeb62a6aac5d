/**
 * The grounding gate: a triplet is grounded when its evidence quote re-anchors in the article
 * and the anchored text (the article's own words, not the model's copy of them) shows the value
 * and the unit. Every failure is given as a reason in words, for the user.
 */
import type { Article } from '../contracts/article';
import type { Triplet } from '../contracts/triplet';
import { anchorEvidence, type Anchor } from '../text/anchoring';
import { formatReportedValue, reportedValueToSI, unitTokenInQuote, valueShownBy, type QuoteQuantity } from './value-in-quote';
import type { PropertyDefinition } from '../contracts/property';
import { loadPropertySchemas } from '../properties';
import { groundingDependencies, unitFitsCatalogue, type GroundingDependencies } from './grounding-dependencies';

/** The catalogue key of an index built without one (grounding reads only its tables). */
const NO_CATALOGUE: readonly PropertyDefinition[] = Object.freeze([]);
import { quantitiesInSpan } from './table-evidence';
import { flattenedTableQuantities } from './flattened-table';

/** The verdict on one triplet. `grounded = anchored && valueInQuote && unitInQuote`. */
export interface GroundingResult {
  anchored: boolean;
  anchor?: Anchor;
  valueInQuote: boolean;
  /** True for a dimensionless triplet (unit ''). */
  unitInQuote: boolean;
  unitFitsProperty?: boolean;
  /** Set when the value is printed in another unit of the same dimension: the printed quantity ("11 meV"). */
  valueWrittenAs?: string;
  grounded: boolean;
  /** Why it is not grounded (or what is doubtful), in words shown to users. */
  reasons: string[];
}

function notAnchored(reason: string): GroundingResult {
  return { anchored: false, valueInQuote: false, unitInQuote: false, grounded: false, reasons: [reason] };
}

/**
 * Is the triplet's unit written with its value? With quantities showing the value, one of them
 * must carry the unit — or carry none while the unit stands in the quote as a token (a table
 * cell "3.05" under "Eg [eV]"): "3.4 K … 1 eV" does not ground 3.4 eV. Without such quantities
 * the unit is looked for anywhere in the quote, for the message only (the value is missing anyway).
 */
function checkUnit(
  triplet: Triplet,
  quote: string,
  matching: QuoteQuantity[],
  all: QuoteQuantity[],
  dependencies: GroundingDependencies,
): boolean {
  const written = triplet.unit.trim();
  if (written === '') return true;
  const canonical = dependencies.normalizeUnit(written) ?? written;
  const asToken = unitTokenInQuote(quote, written) || (canonical !== written && unitTokenInQuote(quote, canonical));
  if (matching.length > 0) return matching.some((quantity) => quantity.unit === canonical || (quantity.unit === '' && asToken));
  return all.some((quantity) => quantity.unit === canonical) || asToken;
}

/**
 * The quantity that prints the triplet's value in another unit of the same dimension (equal in
 * SI base units within the same 1e-9 relative tolerance), if any: "11 meV" for 0.011 eV.
 */
function writtenInOtherUnit(triplet: Triplet, quantities: QuoteQuantity[], dependencies: GroundingDependencies): QuoteQuantity | undefined {
  const written = triplet.unit.trim();
  if (!dependencies.toSI || written === '') return undefined;
  const claimed = reportedValueToSI(triplet.value, dependencies.normalizeUnit(written) ?? written, dependencies.toSI);
  if (!claimed) return undefined;
  return quantities.find(
    (quantity) => quantity.si !== undefined && quantity.si.unit === claimed.unit && valueShownBy(claimed.value, quantity.si.value),
  );
}

/**
 * Ground one triplet in `article`.
 *
 * Steps: (1) anchor `triplet.evidence` in `article.text` (`anchorEvidence`: position, exact,
 * whitespace-insensitive, fuzzy); (2) parse quantities in the anchored span — in a table block
 * whose header row is quoted, bare cells count with their header's unit ("146(5)" under
 * "K0 (GPa)" is 146 ± 5 GPa; see `quantitiesInSpan`), and so do the cells of a table flattened
 * into plain text under a header "Eg [eV]" (see `flattenedTableQuantities`) — and look for the triplet's value among
 * them — as written, relative tolerance 1e-9, "~", "±" and ranges understood — else printed in
 * another unit of the same dimension (11 meV for 0.011 eV, equal in SI within the same
 * tolerance; noted in `valueWrittenAs` and the reasons); (3) the unit must be the one printed
 * with that value (see `checkUnit`). `unitFitsProperty` is reported when the property's units
 * are known (the property is in `dependencies.catalogue`, or `unitFitsProperty` answers) but does
 * not decide `grounded`; without dependencies, the built-in schemas are the catalogue. Never
 * throws for a valid triplet and article.
 */
export function ground(
  triplet: Triplet,
  article: Article,
  dependencies: GroundingDependencies = groundingDependencies(loadPropertySchemas()),
): GroundingResult {
  if (!triplet.evidence) return notAnchored('no evidence quote given');
  const anchor = anchorEvidence(article.text, triplet.evidence);
  if (!anchor) return notAnchored('quote not found in the article');

  const reasons: string[] = [];
  if (anchor.method === 'fuzzy') reasons.push(`quote found only approximately (fuzzy match, score ${anchor.score.toFixed(2)})`);
  const quote = article.text.slice(anchor.start, anchor.end);
  const quantities = [
    ...quantitiesInSpan(
      article,
      anchor.start,
      anchor.end,
      dependencies.findQuantities,
      dependencies.findTableQuantities,
      dependencies.indexes?.get(article, dependencies.catalogue ?? NO_CATALOGUE),
    ),
    ...flattenedTableQuantities(article.text, anchor.start, anchor.end, dependencies.normalizeUnit, dependencies.toSI),
  ];
  const matching = quantities.filter((quantity) => valueShownBy(triplet.value, quantity.value));
  const valueWords = triplet.valueText?.trim() || formatReportedValue(triplet.value);
  const converted = matching.length > 0 ? undefined : writtenInOtherUnit(triplet, quantities, dependencies);
  const valueInQuote = matching.length > 0 || converted !== undefined;
  if (converted)
    reasons.push(
      `value ${valueWords} ${triplet.unit.trim()} is written as ${converted.text ?? formatReportedValue(converted.value) + ' ' + converted.unit}`,
    );
  if (!valueInQuote)
    reasons.push(
      quantities.length === 0 ? `value ${valueWords} not in the quote (no quantity found there)` : `value ${valueWords} not in the quote`,
    );

  // A value found through conversion carries its own (convertible) unit, so the unit is there too.
  const unitInQuote = converted !== undefined || checkUnit(triplet, quote, matching, quantities, dependencies);
  if (!unitInQuote) {
    const otherUnit = matching.find((quantity) => quantity.unit !== '')?.unit;
    reasons.push(`unit ${triplet.unit.trim()} not in the quote${otherUnit ? ` (${valueWords} is given in ${otherUnit} there)` : ''}`);
  }

  let unitFitsProperty: boolean | undefined;
  const fits = dependencies.unitFitsProperty ?? (dependencies.catalogue ? unitFitsCatalogue(dependencies.catalogue) : undefined);
  if (fits && triplet.unit.trim() !== '') {
    const canonical = dependencies.normalizeUnit(triplet.unit) ?? triplet.unit.trim();
    unitFitsProperty = fits(triplet.property, canonical);
    if (unitFitsProperty === false) reasons.push(`unit ${triplet.unit.trim()} is not a unit of ${triplet.property}`);
  }

  return {
    anchored: true,
    anchor,
    valueInQuote,
    unitInQuote,
    ...(unitFitsProperty === undefined ? {} : { unitFitsProperty }),
    ...(converted ? { valueWrittenAs: converted.text ?? `${formatReportedValue(converted.value)} ${converted.unit}` } : {}),
    grounded: valueInQuote && unitInQuote,
    reasons,
  };
}

/** Results for many triplets of one article, and the grounding rate (null for no triplets). */
export interface GroundingSummary {
  results: GroundingResult[];
  grounded: number;
  total: number;
  /** grounded / total, in [0, 1]; null when there are no triplets. */
  groundingRate: number | null;
}

/** Ground every triplet of `article` (see `ground`) and give the share that is grounded. */
export function groundAll(
  triplets: Triplet[],
  article: Article,
  dependencies: GroundingDependencies = groundingDependencies(loadPropertySchemas()),
): GroundingSummary {
  const results = triplets.map((triplet) => ground(triplet, article, dependencies));
  const grounded = results.filter((result) => result.grounded).length;
  return { results, grounded, total: triplets.length, groundingRate: triplets.length === 0 ? null : grounded / triplets.length };
}
