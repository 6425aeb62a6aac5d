/**
 * End to end, one fact, one entry (issue 28): a real SLM-MATRIX run in the built test extension
 * against the local OpenAI-compatible server, with a proxy in front that (1) makes every MoA answer
 * state the first band-gap fact twice — the MoA path then pairs one copy with the search's
 * (agreed, verified) and leaves the other "only the MoA path gave this triplet", the tester's
 * "EuS 1.6 eV listed as Verified and again as Needs review" — and (2) hides the second fact from
 * the generator–discriminator search, so the paths really disagree on it. The panel lists the first
 * fact once, verified, with both verdicts under it and no decision asked; the second is the one
 * decision, asked in plain words with the evidence at the panel's width; "Save verified" writes one
 * row for the first fact. Screenshot: test-results/e2e/merged-fact.png.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureBandGapFacts } from '../support/grounded-facts';
import { projectRoot, sharedDataSkipReason, sharedPath } from '../support/shared-data';
import { seriousAxeViolations, setColorScheme } from './accessibility';
import { chromiumPath, launchExtensionBrowser, type ExtensionBrowser } from './extension-browser';
import { readStore, capturedArticle } from './extension-pages';
import { startFixtureServer, type FixtureServer } from './fixture-server';
import { startOpenAiTestServer, type OpenAiTestServer, type ScriptedFact } from './openai-test-server';
import { startReplyRewritingProxy, type ReplyRewritingProxy } from './reply-rewriting-proxy';
import { useModelServer } from './side-panel-controls';

const skipReason = sharedDataSkipReason() ?? (existsSync(chromiumPath) ? undefined : `${chromiumPath} not found: skipping e2e tests`);
const extensionDirectory = join(projectRoot, '.output', 'chrome-mv3-test');
const screenshotDirectory = join(projectRoot, 'test-results', 'e2e');
// The RSC page with two band-gap facts the rules engine states (as in reading.test.ts).
const articlePath = '/rsc/cde2_curie__c1jm13879k.html';

type ReplyTriplet = { value: string | number };

/**
 * A proxy to `target` that rewrites the triplet replies: an MoA reply (values as strings) of model
 * `repeater` (the first model named: the aggregator too) states its triplet of value `twice` a
 * second time — the other proposers do not, so they are not unanimous and the browser preset's early
 * exit does not skip the search —; a search reply (generator or discriminator: values as numbers)
 * leaves out the triplet of value `hidden`. Everything else passes unchanged.
 */
async function startRewritingProxy(
  target: string,
  { repeater, twice, hidden }: { repeater: string; twice: number; hidden: number },
): Promise<ReplyRewritingProxy> {
  return startReplyRewritingProxy(target, (model, content) => {
    const triplets = content.triplets as ReplyTriplet[] | undefined;
    if (!triplets || triplets.length === 0) return false;
    if (typeof triplets[0]!.value === 'string') {
      if (model !== repeater) return false;
      const copy = triplets.find((triplet) => Number(triplet.value) === twice);
      if (copy) triplets.push({ ...copy });
    } else content.triplets = triplets.filter((triplet) => triplet.value !== hidden);
    return true;
  });
}

describe.skipIf(skipReason !== undefined)(skipReason ?? 'one fact, one entry: two paths that agree give one entry', () => {
  let pages: FixtureServer;
  let models: OpenAiTestServer;
  let proxy: ReplyRewritingProxy;
  let browser: ExtensionBrowser;
  let panel: Page;
  let facts: ScriptedFact[];

  beforeAll(async () => {
    facts = await fixtureBandGapFacts(articlePath, 2);
    expect(facts[0]!.value).not.toBe(facts[1]!.value);
    pages = await startFixtureServer({ [articlePath]: sharedPath('fixtures', articlePath) });
    models = await startOpenAiTestServer(facts);
    proxy = await startRewritingProxy(new URL(models.baseUrl).origin, {
      repeater: 'proposer-a',
      twice: facts[0]!.value,
      hidden: facts[1]!.value,
    });
    browser = await launchExtensionBrowser(extensionDirectory, [
      pages.origin,
      new URL(models.baseUrl).origin,
      new URL(proxy.baseUrl).origin,
    ]);
    mkdirSync(screenshotDirectory, { recursive: true });
    ({ panel } = await capturedArticle(browser, `${pages.origin}${articlePath}`, { panelViewport: { width: 420, height: 900 } }));
  });

  afterAll(async () => {
    await browser?.close();
    await proxy?.close();
    await models?.close();
    await pages?.close();
  });

  it('one entry per fact when two paths agree', async () => {
    await useModelServer(panel, proxy.baseUrl, 'proposer-a, proposer-b, proposer-c');
    await panel.getByTestId('extract-button').click();
    await panel.locator('[data-testid="run-status"][data-status="done"]').waitFor({ timeout: 90_000 });

    // The run itself stored the fact twice: verified, and the MoA answer's second copy.
    const [run] = await readStore<{ records: Array<{ status: string; triplet: { value: { value: number } }; reasons: string[] }> }>(
      panel,
      'runs',
    );
    const first = run!.records.filter((record) => record.triplet.value.value === facts[0]!.value);
    expect(first.map((record) => record.status).sort()).toEqual(['needs_review', 'verified']);

    // The panel counts and lists it once, verified, with both verdicts under it.
    expect(await panel.getByTestId('run-status').textContent()).toContain('Done: 1 verified, 1 needs review, 0 rejected.');
    const entries = panel.locator('[data-testid="run-records"] li.record');
    await expect.poll(() => entries.count()).toBe(2);
    const entry = entries.filter({ hasText: `${facts[0]!.value} eV` });
    expect(await entry.count()).toBe(1);
    expect(await entry.getAttribute('data-status')).toBe('verified');
    expect(await entry.locator('.badge').allTextContents()).toEqual(['Verified']);
    expect(await entry.locator('.fact-votes li').allTextContents()).toEqual([
      'MoA and search agreed: verified',
      'MoA alone: needs review (only the MoA path gave this triplet)',
    ]);

    // The one decision is the fact the paths disagree on, asked in plain words, its evidence at the card's width.
    const queue = panel.getByTestId('adjudication-queue');
    expect(await queue.locator('li.queue-item').count()).toBe(1);
    expect(await queue.locator('.queue-question').textContent()).toBe(`The models disagree: ${facts[1]!.value} eV or no value?`);
    expect(await queue.textContent()).not.toContain(`${facts[0]!.value} eV`);
    const card = await queue.locator('li.queue-item').boundingBox();
    const quote = await queue.locator('.quote').first().boundingBox();
    expect(quote!.width).toBeGreaterThan(card!.width * 0.9);

    for (const scheme of ['dark', 'light'] as const) {
      await setColorScheme(panel, scheme);
      expect(await seriousAxeViolations(panel), scheme).toEqual([]);
    }
    await panel.screenshot({ path: join(screenshotDirectory, 'merged-fact.png'), fullPage: true });

    // Saved, the fact is one row.
    await panel.getByTestId('save-verified').click();
    await panel.locator('[data-testid="save-status"][data-outcome="saved"]').waitFor();
    const rows = await readStore<{ property: string; value: { value: number }; status: string }>(panel, 'triplets');
    expect(rows.map((row) => [row.value.value, row.status])).toEqual([[facts[0]!.value, 'verified']]);
  });
});
