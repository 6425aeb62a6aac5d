// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { act, createElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// `wxt/browser` picks `globalThis.chrome` when it is imported: the engine settings and the
// reader's properties read `storage.local` through it, so a minimal one is installed first.
vi.hoisted(() => {
  const storage: Record<string, unknown> = {};
  (globalThis as { chrome?: unknown }).chrome = {
    runtime: { id: 'assay-test' },
    storage: {
      local: {
        get: async (key: string) => (key in storage ? { [key]: storage[key] } : {}),
        set: async (items: Record<string, unknown>) => void Object.assign(storage, items),
      },
      onChanged: { addListener: () => undefined, removeListener: () => undefined },
    },
  };
});

import type { Article } from '../../../../src/contracts/article';
import type { HighlightItem, RequestOf } from '../../../../src/contracts/messages';
import { loadPropertySchemas } from '../../../../src/properties';
import { createAssayDatabase, type AssayDatabase } from '../../../../src/store/assay-database';
import { savePaper } from '../../../../src/store/paper-repository';
import { toPaperSummary } from '../../../../src/store/paper-record';
import { CapturePanel, type CapturePanelProps } from '../../../../src/ui/side-panel/capture-panel';
import { currentPaperFinder, papersChanged, tabUrlReader } from '../../../../src/ui/side-panel/current-paper';
import { createPageHighlighter, type HighlightSender } from '../../../../src/ui/side-panel/highlight-sync';
import type { PanelTarget } from '../../../../src/extension/panel-target';
import { articleFromBlocks, paragraph } from '../../text/article-from-blocks';
import { record, runRow } from '../run-fixtures';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const TAB_ID = 7;
const PAGE_URL = 'https://example.org/articles/gan';
const PAPER_KEY = 'doi:10.1000/gan';
const schemas = loadPropertySchemas();
const properties = schemas.map(({ name, label }) => ({ name, label }));

/** A two-sentence paper: the quick scan finds two band gaps (3.4 eV of GaN, 6.2 eV of AlN). */
function ganArticle(): Article {
  return {
    ...articleFromBlocks([paragraph('The band gap of GaN is 3.4 eV at room temperature.'), paragraph('AlN has a band gap of 6.2 eV.')]),
    doi: '10.1000/gan',
    doiOrigin: 'meta',
    title: 'Nitride band gaps',
    url: `${PAGE_URL}#intro`,
  };
}

let database: AssayDatabase;
let databaseCount = 0;
let container: HTMLElement;
let root: Root;

beforeEach(() => {
  databaseCount += 1;
  database = createAssayDatabase(`assay-capture-panel-${databaseCount}`);
  container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
});

afterEach(async () => {
  act(() => root.unmount());
  container.remove();
  await database.delete();
});

/** `sendRequest` narrowed to the highlight messages: records every `highlight-show` and anchors every item. */
function fakeSend(): { shown: HighlightItem[][]; send: HighlightSender } {
  const shown: HighlightItem[][] = [];
  const send = async (request: RequestOf<'highlight-show'> | RequestOf<'highlight-scroll'>) => {
    if (request.type !== 'highlight-show') return { ok: true, found: true };
    expect(request.tabId).toBe(TAB_ID);
    shown.push(request.items);
    return { ok: true, report: { anchored: request.items.map((item) => item.id), failed: [], method: 'custom-highlight' } };
  };
  return { shown, send: send as HighlightSender };
}

function panelProps(tabUrl: string | undefined, send: HighlightSender, change: Partial<CapturePanelProps> = {}): CapturePanelProps {
  const getTab = vi.fn(async (tabId: number) =>
    tabId === TAB_ID ? { url: tabUrl } : Promise.reject(new Error(`No tab with id: ${tabId}`)),
  );
  return {
    captureActivePage: vi.fn(async () => Promise.reject(new Error('no capture expected'))),
    datasetUrl: 'chrome-extension://assay/dataset.html',
    extraction: {
      database,
      properties,
      schemas,
      start: vi.fn(async () => ({ ok: true as const, runId: 'run-2' })),
      stop: vi.fn(async () => undefined),
      openHighlighter: () => createPageHighlighter(async () => TAB_ID, send),
    },
    findCurrentPaper: currentPaperFinder(
      database,
      tabUrlReader(async () => TAB_ID, getTab),
    ),
    ...change,
  };
}

const byTestId = (id: string) => container.querySelector<HTMLElement>(`[data-testid="${id}"]`);
const captureButton = () => container.querySelector<HTMLButtonElement>('main > .panel-head > button')!;

/** Wait, always inside `act` (IndexedDB answers arrive on timers), until `check` passes; at most 2 s. */
async function settle(check: () => void) {
  for (let attempt = 1; ; attempt += 1) {
    await act(() => new Promise((resolve) => setTimeout(resolve, 10)));
    try {
      check();
      return;
    } catch (error) {
      if (attempt >= 200) throw error;
    }
  }
}

describe('CapturePanel opening on a page', () => {
  it('shows the saved paper and its running run without a capture, with candidates highlighted until records arrive', async () => {
    await savePaper(database, ganArticle(), new Date('2025-02-01T12:00:00.000Z'));
    await database.runs.put(
      runRow({
        paperKey: PAPER_KEY,
        settings: { ...runRow().settings, paperKey: PAPER_KEY, properties: ['band_gap'] },
        progress: { stage: 'moa', property: 'band_gap', done: 1, total: 4 },
      }),
    );
    const { shown, send } = fakeSend();
    const props = panelProps(`${PAGE_URL}/#results`, send);
    await act(async () => root.render(createElement(CapturePanel, props)));

    await settle(() => expect(byTestId('run-status')?.dataset.status).toBe('running'));
    expect(props.captureActivePage).not.toHaveBeenCalled();
    expect(captureButton().textContent).toBe('Capture again');
    expect(byTestId('capture-status')?.dataset.status).toBe('idle');
    expect(byTestId('capture-status')?.textContent).toBe('This page is already in your dataset.');
    expect(byTestId('paper-title')?.textContent).toBe('Nitride band gaps');
    expect(byTestId('paper-captured-at')?.textContent).toMatch(/^Captured on .*2025/);
    expect(byTestId('panel-empty')).toBeNull();
    expect(byTestId('run-status')?.textContent).toBe('Band gap: the models propose values (MoA), 1 of 4 model calls.');
    expect(byTestId('stop-button')).not.toBeNull();
    expect((byTestId('extract-button') as HTMLButtonElement).disabled).toBe(true);

    // No record yet: the quick scan's two band gaps are the page's highlights.
    await settle(() => expect(byTestId('candidate-status')?.textContent).toBe('2 candidates highlighted'));
    expect(byTestId('candidate-status')?.dataset.status).toBe('shown');
    expect(shown).toHaveLength(1);
    expect(shown[0]!.map((item) => [item.id, item.status, item.mark, item.card.material, item.card.value, item.card.unit])).toEqual([
      ['candidate-0', 'candidate', '3.4 eV', 'GaN', '3.4', 'eV'],
      ['candidate-1', 'candidate', '6.2 eV', 'AlN', '6.2', 'eV'],
    ]);
    expect(shown[0]![1]!.quote.exact).toBe('AlN has a band gap of 6.2 eV.');

    // The run's first record replaces the candidates on the page, and the line goes.
    await act(async () => {
      await database.runs.update('run-1', { records: [record('verified')] });
    });
    await settle(() => expect(shown).toHaveLength(2));
    expect(shown[1]!.map((item) => [item.id, item.status])).toEqual([['0', 'verified']]);
    expect(byTestId('candidate-status')).toBeNull();
    expect(byTestId('run-records')).not.toBeNull();

    // The run ends without more records: the candidates do not come back.
    await act(async () => {
      await database.runs.update('run-1', { status: 'done', progress: null });
    });
    await settle(() => expect(byTestId('run-status')?.dataset.status).toBe('done'));
    expect(shown).toHaveLength(2);
  });

  it('shows a finished run’s results at once and never the candidates', async () => {
    await savePaper(database, ganArticle());
    await database.runs.put(
      runRow({
        paperKey: PAPER_KEY,
        status: 'done',
        propertiesDone: ['band_gap', 'tc'],
        records: [record('verified'), record('rejected', {}, { material: 'AlN' })],
      }),
    );
    const { shown, send } = fakeSend();
    await act(async () => root.render(createElement(CapturePanel, panelProps(PAGE_URL, send))));
    await settle(() => expect(shown).toHaveLength(1));
    expect(byTestId('run-status')?.textContent).toBe('Done: 1 verified, 0 needs review, 1 rejected.');
    expect(shown[0]!.map((item) => [item.id, item.status])).toEqual([
      ['0', 'verified'],
      ['1', 'rejected'],
    ]);
    expect(byTestId('candidate-status')).toBeNull();
  });

  it('offers "Capture this page" when the tab URL is hidden, then highlights candidates right after the capture', async () => {
    const saved = await savePaper(database, ganArticle());
    const { shown, send } = fakeSend();
    const captureActivePage = vi.fn(async () => ({ ok: true as const, paper: toPaperSummary(saved), warnings: [] }));
    await act(async () => root.render(createElement(CapturePanel, panelProps(undefined, send, { captureActivePage }))));
    await settle(() => expect(captureButton().textContent).toBe('Capture this page'));
    expect(byTestId('extraction-panel')).toBeNull();
    expect(byTestId('paper-title')).toBeNull();

    await act(async () => captureButton().click());
    await settle(() => expect(byTestId('candidate-status')?.textContent).toBe('2 candidates highlighted'));
    expect(captureActivePage).toHaveBeenCalledTimes(1);
    expect(byTestId('capture-status')?.dataset.status).toBe('saved');
    expect(captureButton().textContent).toBe('Capture again');
    expect(byTestId('run-status')?.dataset.status).toBe('idle');
    expect(shown.map((items) => items.map((item) => item.id))).toEqual([['candidate-0', 'candidate-1']]);
  });

  it('offers "Capture this page" for a visible URL that is not in the dataset', async () => {
    await savePaper(database, ganArticle());
    const { shown, send } = fakeSend();
    const props = panelProps('https://example.org/articles/gan?page=2', send);
    await act(async () => root.render(createElement(CapturePanel, props)));
    // Let the lookup answer (a miss) before checking nothing changed.
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(captureButton().textContent).toBe('Capture this page');
    expect(byTestId('extraction-panel')).toBeNull();
    expect(shown).toEqual([]);
    // The empty panel says what to do in a sentence.
    expect(byTestId('panel-empty')?.textContent).toMatch(/^Open a paper’s page and choose Capture this page: .+\.$/);
    // Without an example URL, no link to it.
    expect(byTestId('panel-empty')?.querySelector('a')).toBeNull();
  });

  it('shows the page’s paper when it is saved after the panel opened (the background recognized it), without a capture', async () => {
    const { send } = fakeSend();
    const props = { ...panelProps(PAGE_URL, send), watchPapers: papersChanged(database) };
    await act(async () => root.render(createElement(CapturePanel, props)));
    await settle(() => expect(captureButton().textContent).toBe('Capture this page'));
    // Another paper changes nothing; this page's paper appears.
    await savePaper(database, { ...ganArticle(), doi: '10.1000/other', url: 'https://example.org/articles/other' });
    await act(() => new Promise((resolve) => setTimeout(resolve, 100)));
    expect(captureButton().textContent).toBe('Capture this page');
    await savePaper(database, ganArticle());
    await settle(() => expect(captureButton().textContent).toBe('Capture again'));
    expect(container.textContent).toContain('Nitride band gaps');
    expect(props.captureActivePage).not.toHaveBeenCalled();
  });

  it('without watching the papers, a paper saved later is not picked up (the lookup runs once)', async () => {
    const { send } = fakeSend();
    const props = panelProps(PAGE_URL, send);
    // Wait for the one lookup to answer (a miss) before saving: the button reads
    // "Capture this page" before the lookup too, so it cannot tell the two apart.
    let answered = 0;
    const findCurrentPaper: NonNullable<CapturePanelProps['findCurrentPaper']> = async (...parameters) => {
      try {
        return await props.findCurrentPaper!(...parameters);
      } finally {
        answered += 1;
      }
    };
    await act(async () => root.render(createElement(CapturePanel, { ...props, findCurrentPaper })));
    await settle(() => expect(answered).toBe(1));
    expect(captureButton().textContent).toBe('Capture this page');
    await savePaper(database, ganArticle());
    await act(() => new Promise((resolve) => setTimeout(resolve, 200)));
    expect(captureButton().textContent).toBe('Capture this page');
    expect(answered).toBe(1);
  });

  it('offers the bundled example article while the panel is empty', async () => {
    const { send } = fakeSend();
    const props = { ...panelProps('https://example.org/not-saved', send), exampleUrl: 'chrome-extension://assayid/example.html' };
    await act(async () => root.render(createElement(CapturePanel, props)));
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    const link = byTestId('panel-empty')?.querySelector('a');
    expect(link?.getAttribute('href')).toBe('chrome-extension://assayid/example.html');
    expect(link?.textContent).toBe('Try it on the example article');
  });
});

describe('CapturePanel following its tab (panel-target.ts)', () => {
  /** A `watchTarget` the test moves by hand, as `watchPanelTarget` would on a navigation. */
  function movableTarget(first: PanelTarget) {
    let notify: (target: PanelTarget) => void = () => undefined;
    const watchTarget = (onChange: (target: PanelTarget) => void) => {
      notify = onChange;
      onChange(first);
      return () => (notify = () => undefined);
    };
    return { watchTarget, moveTo: (target: PanelTarget) => act(() => notify(target)) };
  }
  const pageA: PanelTarget = { tabId: TAB_ID, url: PAGE_URL, load: 0 };
  const pageB: PanelTarget = { tabId: TAB_ID, url: 'https://example.org/articles/other-paper', load: 0 };

  it('drops the first paper when the tab navigates to another page, and finds it again on the way back', async () => {
    await savePaper(database, ganArticle());
    const { send } = fakeSend();
    const { watchTarget, moveTo } = movableTarget(pageA);
    const props = { ...panelProps(undefined, send), findCurrentPaper: currentPaperFinder(database, async () => undefined), watchTarget };
    await act(async () => root.render(createElement(CapturePanel, props)));
    await settle(() => expect(byTestId('paper-title')?.textContent).toBe('Nitride band gaps'));
    expect(byTestId('extraction-panel')).not.toBeNull();

    await moveTo(pageB);
    await settle(() => expect(captureButton().textContent).toBe('Capture this page'));
    expect(byTestId('paper-title')).toBeNull();
    expect(byTestId('extraction-panel')).toBeNull();
    expect(byTestId('capture-status')?.textContent).toBe('');

    await moveTo({ ...pageA, url: `${PAGE_URL}#results` });
    await settle(() => expect(byTestId('paper-title')?.textContent).toBe('Nitride band gaps'));
    expect(byTestId('capture-status')?.textContent).toBe('This page is already in your dataset.');
    expect(props.captureActivePage).not.toHaveBeenCalled();
  });

  it('captures the tab it shows, and drops the answer of a capture whose page the tab has left', async () => {
    const saved = await savePaper(database, ganArticle());
    const { send } = fakeSend();
    const { watchTarget, moveTo } = movableTarget(pageA);
    let answer: (response: { ok: true; paper: ReturnType<typeof toPaperSummary>; warnings: string[] }) => void = () => undefined;
    const captureActivePage = vi.fn((_target?: PanelTarget) => new Promise<never>((resolve) => (answer = resolve as never)));
    const props = {
      ...panelProps(undefined, send, { captureActivePage }),
      findCurrentPaper: currentPaperFinder(database, async () => undefined),
      watchTarget,
    };
    await act(async () => root.render(createElement(CapturePanel, props)));
    await moveTo(pageB);
    await settle(() => expect(captureButton().textContent).toBe('Capture this page'));
    await act(async () => captureButton().click());
    expect(captureActivePage).toHaveBeenCalledWith(pageB);
    expect(byTestId('capture-status')?.dataset.status).toBe('busy');

    // The tab reloads before the capture answers: the answer belonged to the page before.
    await moveTo({ tabId: TAB_ID, load: 1 });
    await act(async () => answer({ ok: true, paper: toPaperSummary(saved), warnings: [] }));
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(byTestId('capture-status')?.dataset.status).toBe('idle');
    expect(byTestId('paper-title')).toBeNull();
    expect(captureButton().textContent).toBe('Capture this page');
  });

  it('says so when its window has no tab to follow, and offers no capture', async () => {
    const { send } = fakeSend();
    const { watchTarget, moveTo } = movableTarget(pageA);
    await act(async () => root.render(createElement(CapturePanel, { ...panelProps(undefined, send), watchTarget })));
    await moveTo({ tabId: null, load: 0 });
    await settle(() => expect(byTestId('capture-status')?.textContent).toMatch(/no tab to capture/));
    expect(captureButton().disabled).toBe(true);
  });
});
