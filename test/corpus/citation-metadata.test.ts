/**
 * Citation metadata (authors, journal, volume, pages, year) of every publisher HTML page in
 * ../shared/fixtures against what a reader of the page would record (hand-read expectations in
 * `citation-metadata-truth.ts`). Prints the share right per field, the figures the README
 * quotes, and the misses; fails when a field falls under its floor.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ArticleSchema } from '../../src/contracts/article';
import { decodeDocumentBytes } from '../../src/capture/detect-type';
import { captureHtml } from '../../src/capture/html/capture-html';
import { nodeDomParser } from '../../src/capture/node/node-dom';
import { CITATION_FIELDS, scoreCitation, type CapturedCitation, type CitationField } from '../support/citation-score';
import { sharedDataSkipReason, sharedPath } from '../support/shared-data';
import { CITATION_TRUTH } from './citation-metadata-truth';

const skipReason = sharedDataSkipReason();
if (skipReason) console.warn(skipReason);

/** Floors per field, a little under the measured shares (README, "Citation metadata"). */
const FLOORS: Record<CitationField, number> = { authors: 0.95, journal: 0.95, volume: 0.95, pages: 0.95, year: 0.95 };

function capture(path: string): CapturedCitation {
  const text = decodeDocumentBytes(new Uint8Array(readFileSync(sharedPath('fixtures', path))));
  return ArticleSchema.parse(captureHtml(nodeDomParser().parseFromString(text, 'text/html'), { url: null }));
}

describe.skipIf(skipReason)('citation metadata of the publisher HTML fixtures', () => {
  it('gets authors, journal, volume, pages and year right on most pages', { timeout: 240_000 }, () => {
    const right: Record<CitationField, number> = { authors: 0, journal: 0, volume: 0, pages: 0, year: 0 };
    const misses: string[] = [];
    const paths = Object.keys(CITATION_TRUTH);
    for (const path of paths) {
      const truth = CITATION_TRUTH[path]!;
      const captured = capture(path);
      const score = scoreCitation(captured, truth);
      for (const field of CITATION_FIELDS) {
        if (score[field]) right[field] += 1;
        else misses.push(`  ${path} ${field}: got ${JSON.stringify(captured[field] ?? null)}, want ${JSON.stringify(truth[field])}`);
      }
    }
    const lines = [`citation metadata over ${paths.length} HTML fixtures:`, '| field | right | share |', '|---|---|---|'];
    for (const field of CITATION_FIELDS)
      lines.push(`| ${field} | ${right[field]}/${paths.length} | ${((100 * right[field]) / paths.length).toFixed(1)}% |`);
    console.log([...lines, ...misses].join('\n'));
    for (const field of CITATION_FIELDS) expect(right[field] / paths.length, field).toBeGreaterThanOrEqual(FLOORS[field]);
  });
});
