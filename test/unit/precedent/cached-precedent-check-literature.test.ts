/**
 * `runPrecedentCheck` choosing its path: local only (literature off), local answer (literature on
 * but not needed), the offscreen `precedent-check` (literature on, local Unknown), and a failed
 * request keeping the local Unknown. The sender is a fake: no background, no network.
 */
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RequestOf, ResponseOf } from '../../../src/contracts/messages';
import type { PrecedentCheck } from '../../../src/precedent/check-precedent';
import { createAssayDatabase, type AssayDatabase } from '../../../src/store/assay-database';
import { importReferenceTable } from '../../../src/precedent/cached-precedent-check';
import { LITERATURE_NOT_SEARCHED, runPrecedentCheck, type PrecedentLiteratureOptions } from '../../../src/precedent/cached-precedent-check';

const CSV = ['refno,material,property_name,property_value,property_unit', 'NAT410063,B2Mg,tc,39,K', ''].join('\n');
const at = (iso: string) => () => new Date(iso);
const ENGINE = { kind: 'webllm' } as const;

const LITERATURE_CHECK: PrecedentCheck = {
  answer: 'Yes',
  values: [
    {
      kind: 'Tc',
      value: 7.2,
      unit: 'K',
      reference: { sourceId: '10.1000/pb', doi: '10.1000/pb', title: 'Lead films', year: 1990, origin: 'crossref' },
      quote: 'Pb films become superconducting at 7.2 K',
      origin: 'crossref',
    },
  ],
  sources: ['10.1000/pb'],
  searched: [{ source: 'Crossref', found: 1, note: '1 found (1 with an abstract); judged: Yes: 1 grounded value(s)' }],
  dropped: [],
  related: [],
  phases: [],
};

let database: AssayDatabase;
let count = 0;

beforeEach(async () => {
  count += 1;
  database = createAssayDatabase(`assay-precedent-literature-${count}`);
  await importReferenceTable(database, 'supercon.csv', CSV, { now: at('2026-11-01T00:00:00Z'), newId: () => 'table-1' });
});

afterEach(async () => {
  await database.delete();
});

function literature(answer: ResponseOf<'precedent-check'>): PrecedentLiteratureOptions & { send: ReturnType<typeof vi.fn> } {
  const send = vi.fn(async (_request: RequestOf<'precedent-check'>) => answer);
  return { mailto: 'reader@example.org', openAlexKey: 'key', engine: ENGINE, send };
}

describe('runPrecedentCheck with the open literature', () => {
  it('sends precedent-check when the local sources do not answer, and caches its check', async () => {
    const on = literature({ ok: true, check: LITERATURE_CHECK });
    const record = await runPrecedentCheck(
      database,
      { material: 'Pb', property: 'tc' },
      { literature: on, now: at('2026-11-22T06:00:00Z') },
    );
    expect(on.send).toHaveBeenCalledWith({
      type: 'precedent-check',
      material: 'Pb',
      property: 'tc',
      literature: { mailto: 'reader@example.org', openAlexKey: 'key' },
      engine: ENGINE,
    });
    expect(record.check).toEqual(LITERATURE_CHECK);
    // Cached: asked again, the sender is not called.
    expect(await runPrecedentCheck(database, { material: 'Pb', property: 'tc' }, { literature: on })).toEqual(record);
    expect(on.send).toHaveBeenCalledTimes(1);
  });

  it('does not send when a local source answers', async () => {
    const on = literature({ ok: true, check: LITERATURE_CHECK });
    const record = await runPrecedentCheck(database, { material: 'MgB2', property: 'tc' }, { literature: on });
    expect(on.send).not.toHaveBeenCalled();
    expect(record.check.answer).toBe('Yes');
    expect(record.check.searched.at(-1)).toEqual({
      source: 'open literature',
      found: 0,
      note: 'not searched: answered from your local sources',
    });
  });

  it("keeps today's local-only check and note when the literature is off", async () => {
    const record = await runPrecedentCheck(database, { material: 'Pb', property: 'tc' });
    expect(record.check.answer).toBe('Unknown');
    expect(record.check.searched.at(-1)).toEqual(LITERATURE_NOT_SEARCHED);
  });

  it('re-checks a cached local-only Unknown once the literature is on', async () => {
    await runPrecedentCheck(database, { material: 'Pb', property: 'tc' });
    const on = literature({ ok: true, check: LITERATURE_CHECK });
    const record = await runPrecedentCheck(database, { material: 'Pb', property: 'tc' }, { literature: on });
    expect(on.send).toHaveBeenCalledTimes(1);
    expect(record.check.answer).toBe('Yes');
  });

  it('keeps the local Unknown with the failure in words when the request fails', async () => {
    const on = literature({ ok: false, failure: { code: 'internal', message: 'The model engine document did not answer: closed' } });
    const record = await runPrecedentCheck(database, { material: 'Pb', property: 'tc' }, { literature: on });
    expect(record.check.answer).toBe('Unknown');
    expect(record.check.searched.at(-1)).toEqual({
      source: 'open literature',
      found: 0,
      note: 'failed — The model engine document did not answer: closed',
    });
    expect(record.check.unknownBecause).toContain('open literature (failed — The model engine document did not answer: closed)');
  });
});
