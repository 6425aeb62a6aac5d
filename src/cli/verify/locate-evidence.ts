/**
 * Evidence for a fact that came without a quote: the sentence or table row of the paper that
 * prints the value with its unit (or bare, in a table cell under a header unit) and names the
 * material. This is eval's truth locator (`locateTruth`, src/eval/attribution/locate-truth.ts)
 * applied to the fact as if it were a truth, so `assay verify` and the attribution measurement
 * find evidence by one rule; the gate then judges what was found like any quote.
 */
import type { Article } from '../../contracts/article';
import type { Evidence } from '../../contracts/evidence';
import type { PropertyDefinition } from '../../contracts/property';
import type { Triplet } from '../../contracts/triplet';
import { evidenceUnits, locateTruth } from '../../eval/attribution/locate-truth';
import { createSiConverter, type SiConverter } from '../../eval/si-conversion';
import { normalizeUnit, toSI } from '../../text/units';
import { materialNames } from '../../verify/material-named';

/** What locating needs of one article, built once and shared by its facts. */
export interface EvidenceLocator {
  article: Article;
  units: Array<{ start: number; end: number }>;
  convert: SiConverter;
}

/** The article's sentences and table rows, and a converter over the project's unit table. */
export function evidenceLocator(article: Article): EvidenceLocator {
  return { article, units: evidenceUnits(article), convert: createSiConverter({ toSI, normalizeUnit }, []) };
}

/**
 * Evidence selectors for `triplet` (quote and position in `Article.text`), or null when no
 * sentence or row prints its value and names its material. `schema` is the fact's property:
 * among several places, one that names it comes first (see `locateTruth`).
 */
export function locateEvidence(locator: EvidenceLocator, triplet: Triplet, schema?: PropertyDefinition): Evidence | null {
  const { article } = locator;
  const truth = {
    aliases: materialNames(triplet.material, article),
    property: triplet.property,
    value: triplet.value,
    unit: triplet.unit,
    ...(triplet.valueText ? { valueText: triplet.valueText } : {}),
  };
  const located = locateTruth(article, truth, locator.convert, locator.units, schema);
  if (!located) return null;
  return {
    quote: { type: 'TextQuoteSelector', exact: article.text.slice(located.start, located.end), prefix: '', suffix: '' },
    position: { type: 'TextPositionSelector', start: located.start, end: located.end },
  };
}
