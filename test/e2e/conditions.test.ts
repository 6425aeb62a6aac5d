/**
 * End to end, a fact's conditions in every view (issue 26, part 5), in the built test extension
 * in Debian's Chromium: a real SLM-MATRIX run on a captured RSC page against a local
 * OpenAI-compatible server gives three band-gap verdicts (two facts the page states, one value it
 * does not). The model replies
 * cannot carry conditions until the model schema asks for them, so the test writes conditions
 * and provenance into the stored run's records (plain IndexedDB, as other e2e tests read it) and
 * reopens the panel, which reads the run again:
 *
 * - the verdicts read "… · HSE06 · indirect · computed" and a rejected value shows "cited [19]";
 * - the page's hover card (in a closed shadow root, read through the DevTools protocol, which
 *   pierces it) has its Conditions and Provenance rows;
 * - Save verified keeps two rows for one material and one value under two methods (the merge key
 *   includes the conditions), the dataset page shows them in its Method column and filters by method.
 *
 * Screenshots: test-results/e2e/conditions-side-panel.png and conditions-dataset.png.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Condition, Provenance } from '../../src/contracts/conditions';
import { fixtureBandGapFacts } from '../support/grounded-facts';
import { projectRoot, sharedDataSkipReason, sharedPath } from '../support/shared-data';
import { chromiumPath, launchExtensionBrowser, type ExtensionBrowser } from './extension-browser';
import { readStore, capturedArticle } from './extension-pages';
import { startFixtureServer, type FixtureServer } from './fixture-server';
import { startOpenAiTestServer, type OpenAiTestServer, type ScriptedFact } from './openai-test-server';
import { useModelServer } from './side-panel-controls';

const skipReason = sharedDataSkipReason() ?? (existsSync(chromiumPath) ? undefined : `${chromiumPath} not found: skipping e2e tests`);
const extensionDirectory = join(projectRoot, '.output', 'chrome-mv3-test');
const screenshotDirectory = join(projectRoot, 'test-results', 'e2e');
// A page with two band-gap facts the rules engine states (the Wiley page's second, "narrower than
// that of C60 by approximately 0.3 eV", is a difference, which the gate now rejects: issue 26).
const articlePath = '/rsc/cde2_curie__c1jm13879k.html';

interface StoredTriplet {
  material: string;
  value: { kind: string; value?: number };
  valueText?: string;
  conditions?: Condition[];
  provenance?: Provenance;
}
interface StoredRun {
  id: string;
  status: string;
  records: Array<{ status: string; triplet: StoredTriplet }>;
}

/** What each record of the stored run becomes: `change` merged into its triplet (by record index). */
type TripletChanges = Record<number, Partial<StoredTriplet>>;

/** Write `changes` into the triplets of the one stored run, with plain IndexedDB from an extension page. */
async function changeStoredRun(extensionPage: Page, changes: TripletChanges): Promise<void> {
  await extensionPage.evaluate(
    (byIndex) =>
      new Promise<void>((resolve, reject) => {
        const opening = indexedDB.open('assay');
        opening.onerror = () => reject(opening.error);
        opening.onsuccess = () => {
          const database = opening.result;
          const transaction = database.transaction('runs', 'readwrite');
          const runs = transaction.objectStore('runs');
          const reading = runs.getAll();
          reading.onsuccess = () => {
            const [run] = reading.result as Array<{ records: Array<{ triplet: object }> }>;
            if (!run) return reject(new Error('no stored run'));
            for (const [index, change] of Object.entries(byIndex)) {
              const record = run.records[Number(index)]!;
              record.triplet = { ...record.triplet, ...change };
            }
            runs.put(run);
          };
          transaction.oncomplete = () => {
            database.close();
            resolve();
          };
          transaction.onerror = () => reject(transaction.error);
        };
      }),
    changes,
  );
}

/**
 * The rows of the hover card shown in `article` ("Conditions: HSE06 · indirect"), or [] while none
 * is shown. The card lives in a closed shadow root, out of reach of page scripts and Playwright's
 * locators; the DevTools protocol's DOM domain pierces it (`pierce: true`).
 */
async function hoverCardRows(article: Page): Promise<string[]> {
  const cdp = await article.context().newCDPSession(article);
  try {
    interface DomNode {
      nodeId: number;
      attributes?: string[];
      children?: DomNode[];
      shadowRoots?: DomNode[];
    }
    const { root } = (await cdp.send('DOM.getDocument', { depth: -1, pierce: true })) as { root: DomNode };
    const isCard = (node: DomNode) => {
      const attributes = node.attributes ?? [];
      const attribute = (name: string) => {
        const at = attributes.indexOf(name);
        return at >= 0 && at % 2 === 0 ? attributes[at + 1] : undefined;
      };
      return attribute('role') === 'tooltip' && attribute('class') === 'card' && attribute('hidden') === undefined;
    };
    const find = (node: DomNode): DomNode | undefined => {
      if (isCard(node)) return node;
      for (const child of [...(node.shadowRoots ?? []), ...(node.children ?? [])]) {
        const found = find(child);
        if (found) return found;
      }
      return undefined;
    };
    const card = find(root);
    if (!card) return [];
    const { object } = (await cdp.send('DOM.resolveNode', { nodeId: card.nodeId })) as { object: { objectId: string } };
    const { result } = (await cdp.send('Runtime.callFunctionOn', {
      objectId: object.objectId,
      functionDeclaration:
        'function () { return [...this.querySelectorAll("dt")].map((term) => `${term.textContent}: ${term.nextElementSibling.textContent}`); }',
      returnByValue: true,
    })) as { result: { value: string[] } };
    return result.value;
  } finally {
    await cdp.detach();
  }
}

describe.skipIf(skipReason !== undefined)(skipReason ?? 'conditions on verdicts, hover cards and the dataset page', () => {
  let pages: FixtureServer;
  let models: OpenAiTestServer;
  let browser: ExtensionBrowser;
  let article: Page;
  let panel: Page;
  let facts: ScriptedFact[];
  let tabId = 0;
  /** Record indexes in the stored run: the two facts the page states (HSE06, then GGA-PBE) and the invented value (cited). */
  let hse = 0;
  let pbe = 0;
  let cited = 0;

  beforeAll(async () => {
    facts = await fixtureBandGapFacts(articlePath, 2);
    const invented = { ...facts[0]!, value: 9.9 };
    pages = await startFixtureServer({ [articlePath]: sharedPath('fixtures', articlePath) });
    models = await startOpenAiTestServer([...facts, invented]);
    browser = await launchExtensionBrowser(extensionDirectory, [pages.origin, new URL(models.baseUrl).origin]);
    mkdirSync(screenshotDirectory, { recursive: true });
    ({ article, panel, tabId } = await capturedArticle(browser, `${pages.origin}${articlePath}`, {
      panelViewport: { width: 420, height: 900 },
    }));
    await useModelServer(panel, models.baseUrl, 'proposer-a, proposer-b, proposer-c');
    await panel.getByTestId('extract-button').click();
    await panel.locator('[data-testid="run-status"][data-status="done"]').waitFor({ timeout: 90_000 });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await models?.close();
    await pages?.close();
  });

  it('shows the conditions and provenance on each verdict, a cited value as a tag', async () => {
    const [run] = await readStore<StoredRun>(panel, 'runs');
    expect(run!.records).toHaveLength(3);
    // By the fact each record states, not by its verdict (the gate's checks are not what this test is about).
    const indexOf = (fact: ScriptedFact) =>
      run!.records.findIndex((record) => record.triplet.material === fact.material && record.triplet.value.value === fact.value);
    hse = indexOf(facts[1]!);
    pbe = indexOf(facts[0]!);
    cited = run!.records.findIndex((record) => record.triplet.value.value === 9.9);
    expect([hse, pbe, cited].sort()).toEqual([0, 1, 2]);
    const first = run!.records[hse]!.triplet;
    // One material, one value, two methods: the other fact is made this one's, under GGA-PBE.
    await changeStoredRun(panel, {
      [hse]: {
        conditions: [
          { kind: 'direction', value: 'indirect', text: 'indirect' },
          { kind: 'method', value: 'HSE06', text: 'HSE06 calculations' },
        ],
        provenance: { kind: 'computed' },
      },
      [pbe]: {
        material: first.material,
        value: first.value,
        ...(first.valueText !== undefined && { valueText: first.valueText }),
        conditions: [{ kind: 'method', value: 'GGA-PBE', text: 'GGA/PBE' }],
        provenance: { kind: 'computed' },
      },
      [cited]: { provenance: { kind: 'cited', reference: '[19]' } },
    });
    // The panel reads the run again when it opens.
    await panel.goto(browser.extensionUrl(`sidepanel.html?tabId=${tabId}`));
    await panel.locator('[data-testid="run-status"][data-status="done"]').waitFor({ timeout: 30_000 });
    const head = (index: number) => panel.locator(`li.record[data-index="${index}"] .record-head`);
    await expect.poll(() => head(hse).textContent(), { timeout: 15_000 }).toMatch(/ · HSE06 · indirect · computed/);
    expect((await head(pbe).textContent())?.replace(/\s+/g, ' ')).toMatch(/ · GGA-PBE · computed/);
    expect(await head(cited).locator('.provenance-cited').textContent()).toBe('cited [19]');
    expect(await head(cited).locator('.provenance-cited').isVisible()).toBe(true);
    // A screen reader hears the whole fact in the record's name.
    expect(await panel.locator(`li.record[data-index="${hse}"]`).getAttribute('aria-label')).toMatch(
      / \(HSE06, indirect, computed\), (verified|needs review|rejected)$/,
    );
    await panel.screenshot({ path: join(screenshotDirectory, 'conditions-side-panel.png'), fullPage: true });
  });

  it('shows the conditions and provenance on the hover card in the page', async () => {
    // The two facts the page states; the invented 9.9 eV is rejected and its sentence does not print it: not marked.
    const host = article.locator('assay-highlighter');
    await expect.poll(() => host.getAttribute('data-assay-anchored'), { timeout: 20_000 }).toBe('2');
    await article.evaluate(() => window.scrollTo(0, 0));
    await panel.getByTestId(`locate-${hse}`).click();
    const box = async () =>
      article.evaluate(() => {
        // Located, the fact's highlight is scrolled to the middle of the window: the rect nearest it, whatever its status.
        const highlights = (CSS as unknown as { highlights: Map<string, Set<Range>> }).highlights;
        const rects = [...highlights.values()]
          .flatMap((highlight) => [...highlight])
          .flatMap((range) => [...range.getClientRects()])
          .filter((rect) => rect.width > 0 && rect.top >= 0 && rect.bottom <= window.innerHeight);
        const middle = window.innerHeight / 2;
        const nearest = rects.sort((a, b) => Math.abs(a.top - middle) - Math.abs(b.top - middle))[0];
        return nearest ? { x: nearest.left + nearest.width / 2, y: nearest.top + nearest.height / 2 } : null;
      });
    await expect.poll(box, { timeout: 10_000 }).not.toBeNull();
    const point = (await box())!;
    await article.bringToFront();
    await article.mouse.move(point.x, point.y);
    await expect.poll(() => hoverCardRows(article), { timeout: 10_000 }).toContain('Conditions: HSE06 · indirect');
    const rows = await hoverCardRows(article);
    expect(rows).toContain('Provenance: computed');
    expect(rows.map((row) => row.split(':')[0])).toEqual(['Value', 'Conditions', 'Provenance', 'Status', 'Agreed']);
    await article.screenshot({ path: join(screenshotDirectory, 'conditions-hover-card.png') });
  });

  it('keeps two rows for one material under two methods, with a Method column and a method filter', async () => {
    // Both kept facts accepted by the reader, whatever the machine said; Save verified saves accepted ones.
    for (const index of [hse, pbe]) {
      await panel.getByTestId(`accept-${index}`).click();
      await expect.poll(() => panel.locator(`li.record[data-index="${index}"]`).getAttribute('data-decision')).toBe('accepted');
    }
    await panel.getByTestId('save-verified').click();
    await panel.locator('[data-testid="save-status"][data-outcome="saved"]').waitFor();
    const dataset = await browser.context.newPage();
    await dataset.setViewportSize({ width: 1400, height: 900 });
    await dataset.goto(browser.extensionUrl('dataset.html'));
    await dataset
      .getByTestId('triplet-count')
      .filter({ hasText: /^2 of 2 triplets/ })
      .waitFor({ timeout: 30_000 });
    const column = (name: string) =>
      dataset.locator('[data-testid="triplet-table"] tbody tr[data-id]').evaluateAll(
        (rows, wanted) =>
          rows.map((row) => {
            const headers = [...row.closest('table')!.querySelectorAll('thead th')];
            const at = headers.findIndex((header) => header.getAttribute('data-column') === wanted);
            return row.children[at]?.textContent ?? '';
          }),
        name,
      );
    expect(new Set(await column('material')).size).toBe(1);
    expect((await column('method')).sort()).toEqual(['GGA-PBE', 'HSE06']);
    expect(await column('provenance')).toEqual(['computed', 'computed']);
    await dataset.screenshot({ path: join(screenshotDirectory, 'conditions-dataset.png'), fullPage: true });
    await dataset.getByTestId('filter-method').fill('hse');
    await dataset
      .getByTestId('triplet-count')
      .filter({ hasText: /^1 of 2 triplets/ })
      .waitFor({ timeout: 10_000 });
    expect(await column('method')).toEqual(['HSE06']);
    await dataset.close();
  });
});
