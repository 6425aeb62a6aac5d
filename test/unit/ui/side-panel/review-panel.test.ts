// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { act, createElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { HighlightItem, ResponseOf } from '../../../../src/contracts/messages';
import type { MatrixRunRow } from '../../../../src/contracts/matrix-run';
import type { PropertyDefinition } from '../../../../src/contracts/property';
import { createAssayDatabase, type AssayDatabase } from '../../../../src/store/assay-database';
import { savePaper } from '../../../../src/store/paper-repository';
import { getRun } from '../../../../src/store/run-repository';
import { ExtractionPanel, type ExtractionPanelProps } from '../../../../src/ui/side-panel/extraction-panel';
import type { PageHighlighter } from '../../../../src/ui/side-panel/highlight-sync';
import type { UserProperties } from '../../../../src/ui/settings/property-editor';
import { createReviewActions } from '../../../../src/ui/side-panel/review-actions';
import { unreadableRunsText, useMatrixRun, useUnreadableRunCount } from '../../../../src/ui/side-panel/use-matrix-run';
import { makeArticle } from '../../store/article-fixture';
import { record, runRow, triplet } from '../run-fixtures';
import { pickProperty } from '../property-picker-driver';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const SAVED_AT = new Date('2025-02-01T12:00:00.000Z');
let database: AssayDatabase;
let databaseCount = 0;
let container: HTMLElement;
let root: Root;
let paperKey: string;

beforeEach(async () => {
  databaseCount += 1;
  database = createAssayDatabase(`assay-review-panel-${databaseCount}`);
  paperKey = (await savePaper(database, makeArticle())).key;
  container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
});

afterEach(async () => {
  act(() => root.unmount());
  container.remove();
  await database.delete();
});

const byTestId = <T extends HTMLElement = HTMLElement>(id: string) => container.querySelector<T>(`[data-testid="${id}"]`);
const click = async (id: string) => {
  const element = byTestId(id);
  if (!element) throw new Error(`no element ${id}`);
  await act(async () => element.click());
};
const item = (index: number) => container.querySelector<HTMLLIElement>(`li.record[data-index="${index}"]`);

/** Set an input's value the way typing does, so React's onChange fires. */
function type(input: HTMLInputElement, value: string): void {
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
  act(() => {
    setter.call(input, value);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

/** Four band-gap verdicts: 0 GaN verified, 1 AlN verified, 2 InN verified, 3 ZnO needs review (MoA 3.3 eV vs search 3.37 eV). */
function storedRun(): MatrixRunRow {
  const moa = triplet({ material: 'ZnO', value: { kind: 'number', value: 3.3 } });
  const gd = triplet({
    material: 'ZnO',
    value: { kind: 'number', value: 3.37 },
    evidence: { quote: { type: 'TextQuoteSelector', exact: 'ZnO has 3.37 eV', prefix: '', suffix: '' } },
  });
  return runRow({
    paperKey,
    status: 'done',
    settings: { ...runRow().settings, paperKey, properties: ['band_gap'] },
    propertiesDone: ['band_gap'],
    records: [
      record('verified'),
      record('verified', {}, { material: 'AlN', value: { kind: 'number', value: 6.2 } }),
      record('verified', {}, { material: 'InN', value: { kind: 'number', value: 0.7 } }),
      record(
        'needs_review',
        { votes: ['moa'], adjudication: { outcome: 'conflict', moa, gd, reason: 'the values differ' } },
        { material: 'ZnO', value: { kind: 'number', value: 3.3 } },
      ),
    ],
  });
}

function fakeHighlighter() {
  const shown: HighlightItem[][] = [];
  const highlighter: PageHighlighter = {
    show: vi.fn(async (items: HighlightItem[]): Promise<ResponseOf<'highlight-show'>> => {
      shown.push(items);
      return {
        ok: true,
        report: {
          anchored: items.filter((entry) => entry.id !== '2').map((entry) => entry.id),
          failed: [{ id: '2', reason: 'The quote is not in the page.' }],
          method: 'overlay',
        },
      };
    }),
    scroll: vi.fn(async (): Promise<ResponseOf<'highlight-scroll'>> => ({ ok: true, found: true })),
  };
  return { shown, highlighter };
}

function panelProps(change: Partial<ExtractionPanelProps> = {}): Omit<ExtractionPanelProps, 'run'> {
  return {
    paperKey,
    properties: [{ name: 'band_gap', label: 'Band gap' }],
    engine: { kind: 'webllm' },
    onEngineChange: vi.fn(),
    start: vi.fn(async () => ({ ok: true as const, runId: 'run-2' })),
    stop: vi.fn(async () => undefined),
    ...change,
  };
}

/** The panel over the live `runs` row, as LiveExtractionPanel wires it. */
function Live(props: Omit<ExtractionPanelProps, 'run'>) {
  const run = useMatrixRun(database, paperKey);
  return createElement(ExtractionPanel, { ...props, run });
}

async function renderLive(props: Omit<ExtractionPanelProps, 'run'>) {
  await act(async () => root.render(createElement(Live, props)));
  await settle(() => expect(item(3)).not.toBeNull());
}

/** Wait, inside `act` (IndexedDB answers arrive on timers), until the live query has made `check` pass. */
async function settle(check: () => void) {
  await vi.waitFor(async () => {
    await act(() => new Promise((resolve) => setTimeout(resolve, 10)));
    check();
  });
}

describe('review in the side panel', () => {
  it('writes each decision as it is made and saves the kept records, merging on a second save', async () => {
    await database.runs.put(storedRun());
    const { shown, highlighter } = fakeHighlighter();
    // The side panel asks for persistent storage when a save adds rows (issue 29, item 8).
    const onRowsAdded = vi.fn();
    await renderLive(panelProps({ review: createReviewActions(database, { now: () => SAVED_AT, onRowsAdded }), highlighter }));

    // The queue lists the undecided needs_review record with both answers.
    const queue = byTestId('adjudication-queue')!;
    expect(queue.querySelector('h3')?.textContent).toBe('Needs your decision (1)');
    expect(queue.textContent).toContain('MoA answerZnO: 3.3 eV');
    expect(queue.textContent).toContain('Search answer (generator–discriminator)ZnO: 3.37 eV');
    expect(item(0)?.dataset.decision).toBe('pending');
    expect(byTestId('accept-0')?.getAttribute('aria-pressed')).toBe('false');

    // Highlights: one item per record, and the page's failed anchor listed with its reason.
    await settle(() =>
      expect(byTestId('highlight-failures')?.textContent).toBe('Not marked in the page:InN: 0.7 eV — The quote is not in the page.'),
    );
    expect(shown[0]?.map((entry) => [entry.id, entry.status])).toEqual([
      ['0', 'verified'],
      ['1', 'verified'],
      ['2', 'verified'],
      ['3', 'needs_review'],
    ]);

    await click('accept-0');
    await settle(() => expect(item(0)?.dataset.decision).toBe('accepted'));
    expect(byTestId('accept-0')?.getAttribute('aria-pressed')).toBe('true');
    expect((await getRun(database, 'run-1'))?.reviews?.[0]?.decision).toBe('accepted');

    // Edit AlN: 6.2 → 6.1 eV; the model's answer stays in view.
    await click('edit-1');
    expect(byTestId<HTMLInputElement>('edit-material-1')?.value).toBe('AlN');
    expect(byTestId<HTMLInputElement>('edit-value-1')?.value).toBe('6.2');
    expect(byTestId<HTMLInputElement>('edit-unit-1')?.value).toBe('eV');
    type(byTestId<HTMLInputElement>('edit-value-1')!, 'six');
    await click('edit-save-1');
    expect(byTestId('edit-problem-1')?.textContent).toContain('"six" is not one value');
    type(byTestId<HTMLInputElement>('edit-value-1')!, '6.1');
    await click('edit-save-1');
    await settle(() => expect(item(1)?.dataset.decision).toBe('edited'));
    expect(byTestId('edit-material-1')).toBeNull();
    expect(byTestId('model-said-1')?.textContent).toBe('Model said: AlN: 6.2 eV');
    expect(item(1)?.querySelector('.value')?.textContent).toBe('6.1 eV');
    const edited = (await getRun(database, 'run-1'))?.reviews?.[1];
    expect(edited).toMatchObject({ decision: 'edited', edit: { material: 'AlN', valueText: '6.1', unit: 'eV' } });

    // Reject a verified record, keep the search answer of the disputed one.
    await click('reject-2');
    await settle(() => expect(item(2)?.dataset.decision).toBe('rejected'));
    await click('keep-gd-3');
    await settle(() => expect(byTestId('adjudication-queue')).toBeNull());
    expect((await getRun(database, 'run-1'))?.reviews?.[3]).toMatchObject({
      decision: 'accepted',
      edit: { material: 'ZnO', valueText: '3.37', unit: 'eV' },
    });
    // The reader's reject reaches the page as "rejected".
    await settle(() => expect(shown.at(-1)?.find((entry) => entry.id === '2')?.status).toBe('rejected'));

    // Clicking a record's material and value scrolls the page to it.
    await click('locate-0');
    expect(highlighter.scroll).toHaveBeenCalledWith('0');

    // Save verified: GaN (accepted), AlN (edited), ZnO (search answer); not InN (rejected).
    await click('save-verified');
    await settle(() => expect(byTestId('save-status')?.textContent).toBe('Saved 3 triplets (0 merged with ones already in your dataset)'));
    const rows = await database.triplets.toArray();
    expect(rows.map((row) => [row.material, row.value, row.review.decision]).sort()).toEqual([
      ['AlN', { kind: 'number', value: 6.1 }, 'edited'],
      ['GaN', { kind: 'number', value: 3.4 }, 'accepted'],
      ['ZnO', { kind: 'number', value: 3.37 }, 'accepted'],
    ]);
    expect(rows.find((row) => row.material === 'AlN')?.review.original).toMatchObject({ value: { kind: 'number', value: 6.2 } });
    expect(
      rows.every((row) => row.runId === 'run-1' && row.paper.key === paperKey && row.paper.title === 'Quantum Sensing with Squeezed Light'),
    ).toBe(true);
    expect((await getRun(database, 'run-1'))?.savedAt).toBe(SAVED_AT.toISOString());
    expect(onRowsAdded).toHaveBeenCalledExactlyOnceWith(3);

    await click('save-verified');
    await settle(() => expect(byTestId('save-status')?.textContent).toBe('Saved 3 triplets (3 merged with ones already in your dataset)'));
    expect(await database.triplets.count()).toBe(3);
    // Only merged: no new rows, no second request.
    expect(onRowsAdded).toHaveBeenCalledTimes(1);
  });

  it('undoes a decision when its pressed button is clicked again, and shows a page that cannot be highlighted as a note', async () => {
    await database.runs.put(storedRun());
    const highlighter: PageHighlighter = {
      show: vi.fn(async (): Promise<ResponseOf<'highlight-show'>> => ({
        ok: false,
        failure: { code: 'internal', message: 'Cannot access a chrome-extension:// URL of a different extension' },
      })),
      scroll: vi.fn(),
    };
    await renderLive(panelProps({ review: createReviewActions(database), highlighter }));
    await settle(() =>
      expect(byTestId('highlight-note')?.textContent).toBe(
        'Highlights are not shown in this page: Cannot access a chrome-extension:// URL of a different extension',
      ),
    );
    expect(byTestId('highlight-failures')).toBeNull();
    await click('reject-0');
    await settle(() => expect(byTestId('reject-0')?.getAttribute('aria-pressed')).toBe('true'));
    await click('reject-0');
    await settle(() => expect(item(0)?.dataset.decision).toBe('pending'));
    expect((await getRun(database, 'run-1'))?.reviews?.[0]?.decision).toBe('pending');
  });

  it('says so when the run’s paper is gone, instead of saving', async () => {
    await database.runs.put(storedRun());
    await database.papers.delete(paperKey);
    await renderLive(panelProps({ review: createReviewActions(database) }));
    await click('save-verified');
    await settle(() => expect(byTestId('save-status')?.dataset.outcome).toBe('failed'));
    expect(byTestId('save-status')?.textContent).toContain('no longer saved in your dataset');
    expect(await database.triplets.count()).toBe(0);
  });
});

describe('the reader’s own properties', () => {
  const conductivity: PropertyDefinition = {
    name: 'thermal_conductivity',
    label: 'Thermal conductivity',
    synonyms: ['thermal conductivity'],
    symbols: [],
    symbolContext: 'word',
    contextualSynonyms: [],
    contextualExclusions: [],
    dimension: 'energy',
    canonicalUnit: 'W/(m·K)',
    units: ['W/(m·K)'],
    plausibleRange: { min: 0, max: 3000 },
    note: 'mine',
    questions: [],
  };

  it('are offered in the property picker, sent in settings.extraProperties, added through the form and removed', async () => {
    const list: PropertyDefinition[] = [conductivity];
    const userProperties: UserProperties = { list, add: vi.fn(async () => undefined), remove: vi.fn(async () => undefined) };
    const start = vi.fn(async () => ({ ok: true as const, runId: 'run-2' }));
    await act(async () => root.render(createElement(ExtractionPanel, { ...panelProps({ start, userProperties }), run: undefined })));

    await pickProperty(container, 'thermal', 'Thermal conductivity');
    await click('extract-button');
    expect(start).toHaveBeenCalledWith(
      expect.objectContaining({ properties: ['band_gap', 'thermal_conductivity'], extraProperties: [conductivity] }),
    );

    // "Define your own property" is among the run details (Change), a form beside the run form, never inside it.
    const editorForm = byTestId('property-name')!.closest('form')!;
    expect(editorForm.getAttribute('aria-label')).toBe('Define your own property');
    expect(byTestId('run-details')!.contains(editorForm)).toBe(true);
    expect(editorForm.parentElement!.closest('form')).toBeNull();

    // A bad name is refused with zod's message; a good property is added and checked.
    type(byTestId<HTMLInputElement>('property-name')!, 'Heat Capacity');
    type(byTestId<HTMLInputElement>('property-label')!, 'Heat capacity');
    type(byTestId<HTMLInputElement>('property-synonyms')!, 'heat capacity, specific heat');
    type(byTestId<HTMLInputElement>('property-unit')!, 'J/K');
    type(byTestId<HTMLInputElement>('property-min')!, '0');
    type(byTestId<HTMLInputElement>('property-max')!, '1000');
    await click('property-add');
    expect(byTestId('property-problems')?.textContent).toBe('Name: name must be lower-case snake case, e.g. "band_gap"');
    expect(userProperties.add).not.toHaveBeenCalled();
    type(byTestId<HTMLInputElement>('property-name')!, 'heat_capacity');
    await click('property-add');
    expect(userProperties.add).toHaveBeenCalledWith(
      expect.objectContaining({ name: 'heat_capacity', synonyms: ['heat capacity', 'specific heat'], canonicalUnit: 'J/K' }),
    );
    expect(byTestId('property-problems')).toBeNull();

    await click('remove-property-thermal_conductivity');
    expect(userProperties.remove).toHaveBeenCalledWith('thermal_conductivity');
  });
});

describe('stored runs that cannot be read', () => {
  function Count({ paper }: { paper: string }) {
    const count = useUnreadableRunCount(database, paper);
    return createElement('p', { 'data-testid': 'unreadable' }, unreadableRunsText(count) ?? 'none');
  }

  it('are counted and said in words, while the readable latest run is still shown', async () => {
    await database.runs.put(storedRun());
    await act(async () => root.render(createElement(Count, { paper: paperKey })));
    await vi.waitFor(() => expect(byTestId('unreadable')?.textContent).toBe('none'));

    // A row saved by another version: its records are not a list.
    await act(async () => {
      await database.runs.put({ ...storedRun(), id: 'run-old', startedAt: '2020-01-01T00:00:00.000Z', records: 'lost' } as never);
    });
    await vi.waitFor(() =>
      expect(byTestId('unreadable')?.textContent).toBe(
        '1 earlier run of this paper could not be read (saved by another version of Assay, or damaged) and is not shown.',
      ),
    );
    expect((await getRun(database, storedRun().id))?.records).toHaveLength(4);
  });
});
