// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { act, createElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PENDING_PRECEDENT_KEY } from '../../../../src/extension/precedent-menu';
import { createAssayDatabase, type AssayDatabase } from '../../../../src/store/assay-database';
import { importReferenceTable } from '../../../../src/precedent/cached-precedent-check';
import { listReferenceTables } from '../../../../src/store/precedent-repository';
import { PrecedentContext, PrecedentSection } from '../../../../src/ui/shared/precedent-lookup';
import type { PendingPrecedentArea } from '../../../../src/ui/shared/precedent-pending';
import { ReferenceTablesSection } from '../../../../src/ui/side-panel/precedent-reference-tables';
import { RunResults } from '../../../../src/ui/side-panel/review-results';
import { record, runRow } from '../run-fixtures';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const CSV = ['refno,material,property_name,property_value,property_unit', 'NAT410063,B2Mg,tc,39,K', 'JLTP000001,Nb3Sn,tcn,1.5,K', ''].join(
  '\n',
);
const PROPERTIES = [
  { name: 'band_gap', label: 'Band gap' },
  { name: 'tc', label: 'Tc' },
];

let container: HTMLElement;
let root: Root;
let database: AssayDatabase;
let databaseCount = 0;

beforeEach(() => {
  databaseCount += 1;
  database = createAssayDatabase(`assay-precedent-section-${databaseCount}`);
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

/** Wait for `test` to hold, letting IndexedDB and React settle between tries. */
async function until(test: () => void) {
  await vi.waitFor(async () => {
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
    });
    test();
  });
}

function typeInto(input: HTMLInputElement, text: string) {
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
  act(() => {
    setter.call(input, text);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

function fakeSession(initial: Record<string, unknown>): PendingPrecedentArea {
  const stored = new Map(Object.entries(initial));
  return {
    get: async (key) => (stored.has(key) ? { [key]: stored.get(key) } : {}),
    remove: async (key) => void stored.delete(key),
    onChanged: { addListener: () => undefined, removeListener: () => undefined },
  };
}

describe('PrecedentSection', () => {
  it("shows the card for the context menu's question, then answers one asked in the form", async () => {
    await importReferenceTable(database, 'supercon.csv', CSV);
    const pending = fakeSession({
      [PENDING_PRECEDENT_KEY]: { material: 'MgB2', property: 'tc', tabId: 4, at: '2026-11-22T06:00:00.000Z' },
    });
    act(() => root.render(createElement(PrecedentSection, { database, properties: PROPERTIES, pending })));
    await until(() => expect(byTestId('precedent-card')?.dataset.answer).toBe('Yes'));
    expect(byTestId('precedent-section')!.querySelector('.precedent-head')?.textContent).toBe('MgB2 — Tc: Yes');
    expect(byTestId<HTMLInputElement>('precedent-material')!.value).toBe('MgB2');

    typeInto(byTestId<HTMLInputElement>('precedent-material')!, 'Nb3Sn');
    act(() => byTestId<HTMLButtonElement>('precedent-submit')!.click());
    await until(() => expect(byTestId('precedent-card')?.dataset.answer).toBe('No'));
    expect(byTestId('precedent-card')!.querySelector('.precedent-head')?.textContent).toBe('Nb3Sn — Tc: No');

    // Re-check runs again and dates the card anew (the same answer here).
    act(() => byTestId<HTMLButtonElement>('precedent-recheck')!.click());
    await until(() => expect(byTestId<HTMLButtonElement>('precedent-recheck')!.disabled).toBe(false));
    expect(byTestId('precedent-card')?.dataset.answer).toBe('No');
  });
});

describe('PrecedentSection without a question', () => {
  it('is folded to its heading, and a question asked in it unfolds the answer', async () => {
    await importReferenceTable(database, 'supercon.csv', CSV);
    act(() => root.render(createElement(PrecedentSection, { database, properties: PROPERTIES, pending: fakeSession({}) })));
    await until(() => expect(byTestId('precedent-section')?.querySelector('h2')?.textContent).toBe('Check precedent'));
    const details = byTestId('precedent-section')!.querySelector('details')!;
    expect(details.open).toBe(false);
    expect(details.querySelector('summary h2')?.id).toBe('precedent-heading');
    act(() => void (details.open = true));
    typeInto(byTestId<HTMLInputElement>('precedent-material')!, 'Nb3Sn');
    act(() => byTestId<HTMLButtonElement>('precedent-submit')!.click());
    await until(() => expect(byTestId('precedent-card')?.dataset.answer).toBe('No'));
    expect(byTestId('precedent-section')!.querySelector('details.precedent-ask')).toBeNull();
  });
});

describe('the Precedent button of a run record', () => {
  it('appears only with a PrecedentContext and shows the card for that record', async () => {
    await importReferenceTable(database, 'supercon.csv', CSV);
    const row = runRow({
      status: 'done',
      records: [record('verified', {}, { material: 'MgB2', property: 'tc', value: { kind: 'number', value: 39 }, unit: 'K' })],
    });
    const results = createElement(RunResults, { row, label: (name: string) => name });
    act(() => root.render(results));
    expect(byTestId('precedent-0')).toBeNull();

    act(() => root.render(createElement(PrecedentContext.Provider, { value: { database, properties: PROPERTIES } }, results)));
    act(() => byTestId<HTMLButtonElement>('precedent-0')!.click());
    await until(() => expect(byTestId('precedent-card')?.dataset.answer).toBe('Yes'));
    expect(byTestId('precedent-card')!.querySelector('.precedent-head')?.textContent).toBe('MgB2 — Tc: Yes');
  });
});

describe('ReferenceTablesSection', () => {
  /** jsdom's File has no `text()`; the browser's does. */
  function csvFile(text: string, name: string): File {
    return Object.assign(new File([text], name, { type: 'text/csv' }), { text: async () => text });
  }

  function chooseFile(file: File) {
    const input = byTestId<HTMLInputElement>('reference-import')!;
    Object.defineProperty(input, 'files', { configurable: true, value: [file] });
    act(() => input.dispatchEvent(new Event('change', { bubbles: true })));
  }

  it('imports a CSV with its row count, lists it, refuses a bad one in words, deletes', async () => {
    act(() => root.render(createElement(ReferenceTablesSection, { database })));
    const heading = () => container.querySelector('#reference-tables-heading')?.textContent;
    // Folded to its heading, which counts the tables once there are any.
    expect(byTestId<HTMLDetailsElement>('reference-tables-panel')?.open).toBe(false);
    await until(() => expect(heading()).toBe('Reference tables'));
    chooseFile(csvFile(CSV, 'supercon.csv'));
    await until(() => expect(byTestId('reference-status')?.textContent).toBe('Imported supercon.csv: 2 rows'));
    await until(() => expect(byTestId('reference-tables')?.textContent).toContain('supercon.csv — 2 rows'));
    expect(heading()).toBe('Reference tables (1)');

    chooseFile(csvFile('name,value\nMgB2,39\n', 'wrong.csv'));
    await until(() => expect(byTestId('reference-status')?.dataset.status).toBe('failed'));
    expect(byTestId('reference-status')?.textContent).toBe(
      'Could not import wrong.csv: reference table lacks column(s): refno, material, property_name, property_value, property_unit',
    );

    const [table] = await listReferenceTables(database);
    act(() => byTestId<HTMLButtonElement>(`reference-delete-${table!.id}`)!.click());
    await until(() => expect(byTestId('reference-tables')).toBeNull());
    expect(await listReferenceTables(database)).toEqual([]);
    expect(heading()).toBe('Reference tables');
  });
});
