/**
 * The offscreen document's answer to `candidate-count`: the quick scan of a saved paper, counted,
 * for the toolbar badge of a recognized paper (paper-recognizer.ts). It runs here, not in the
 * service worker, because `scanArticle` brings the unit and material tables (about 540 KB
 * minified, more than the background's whole budget: test/e2e/bundle-budget.test.ts), which the
 * offscreen document already holds for SLM-MATRIX runs.
 */
import type { CandidateCountRequest, CandidateCountResponse } from '../contracts/messages';
import type { PropertyDefinition } from '../contracts/property';
import type { AssayDatabase } from '../store/assay-database';
import { getPaper } from '../store/paper-repository';
import { buildArticleIndex } from '../text/article-index';
import { scanArticle } from '../text/scan';

/**
 * The schemas a quick scan looks for: every built-in one, then each of the reader's own whose
 * name is not built in — the side panel's rule (live-extraction-panel.tsx), so the badge counts
 * what the panel would highlight.
 */
export function quickScanProperties(builtIn: readonly PropertyDefinition[], own: readonly PropertyDefinition[]): PropertyDefinition[] {
  const names = new Set(builtIn.map((schema) => schema.name));
  return [...builtIn, ...own.filter((schema) => !names.has(schema.name))];
}

/**
 * Answer `candidate-count`: read the paper `request.paperKey` from `database`, run `scanArticle`
 * for `quickScanProperties(builtIn, request.properties)` and count its candidates (all of them:
 * the highlights' cap of 500 does not apply to the count). → `{ ok: true, candidates }`, a
 * `not-found` failure when no such paper is saved, or an `internal` failure with the error's
 * words when the read or the scan throws. Never rejects.
 */
export async function answerCandidateCount(
  request: CandidateCountRequest,
  database: AssayDatabase,
  builtIn: readonly PropertyDefinition[],
): Promise<CandidateCountResponse> {
  try {
    const record = await getPaper(database, request.paperKey);
    if (!record) return { ok: false, failure: { code: 'not-found', message: 'The paper is not saved any more.' } };
    const catalogue = quickScanProperties(builtIn, request.properties);
    const { candidates } = scanArticle(buildArticleIndex(record.article, catalogue));
    return { ok: true, candidates: candidates.length };
  } catch (error) {
    return { ok: false, failure: { code: 'internal', message: error instanceof Error ? error.message : String(error) } };
  }
}
