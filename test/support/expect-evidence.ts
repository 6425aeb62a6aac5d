/**
 * The evidence checks every rules triplet must pass, shared by the unit and corpus tests: the
 * triplet is valid, its quote stands at its recorded position in the article text, and the
 * quote contains the value as printed and the unit.
 */
import { expect } from 'vitest';
import type { Article } from '../../src/contracts/article';
import { TripletSchema, type Triplet } from '../../src/contracts/triplet';

export function expectEvidenceInText(triplet: Triplet, article: Article): void {
  TripletSchema.parse(triplet);
  const { quote, position } = triplet.evidence!;
  expect(article.text.slice(position!.start, position!.end)).toBe(quote.exact);
  expect(quote.exact).toContain(triplet.valueText);
  expect(quote.exact).toContain(triplet.unit);
}
