import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PropertySchema } from '../../../src/contracts/property';
import { answerCandidateCount, quickScanProperties } from '../../../src/extension/candidate-count-host';
import { loadPropertySchemas } from '../../../src/properties';
import { createAssayDatabase, type AssayDatabase } from '../../../src/store/assay-database';
import { savePaper } from '../../../src/store/paper-repository';
import { makeArticle } from '../store/article-fixture';

// Parsed as the offscreen envelope parses the request (the schema's defaults filled in).
const WORK_FUNCTION = PropertySchema.parse({
  name: 'work_function',
  label: 'Work function',
  synonyms: ['work function'],
  dimension: 'energy',
  canonicalUnit: 'eV',
  units: ['eV'],
  plausibleRange: { min: 0, max: 10 },
  note: 'Added by the reader.',
});

/** An article whose text is `paragraph` alone (offsets consistent, as `ArticleSchema` asks). */
const articleWith = (paragraph: string) =>
  makeArticle({ text: paragraph, blocks: [{ id: 'b0', kind: 'paragraph', text: paragraph, start: 0, end: paragraph.length }] });

describe('answerCandidateCount', () => {
  let database: AssayDatabase;
  let count = 0;
  beforeEach(() => {
    count += 1;
    database = createAssayDatabase(`assay-candidate-count-${count}`);
  });
  afterEach(async () => {
    await database.delete();
  });

  it('counts the quick scan candidates of the saved paper', async () => {
    const builtIn = loadPropertySchemas();
    const { key } = await savePaper(
      database,
      articleWith('The band gap of ZnO is 3.37 eV, and that of GaN is 3.4 eV. The Tc of MgB2 is 39 K.'),
    );
    const answer = await answerCandidateCount({ type: 'candidate-count', paperKey: key, properties: [] }, database, builtIn);
    expect(answer).toEqual({ ok: true, candidates: 3 });
  });

  it("adds the reader's own properties, as the side panel's scan does", async () => {
    const builtIn = loadPropertySchemas();
    const { key } = await savePaper(database, articleWith('The work function of the gold film is 5.1 eV.'));
    const without = await answerCandidateCount({ type: 'candidate-count', paperKey: key, properties: [] }, database, builtIn);
    const withOwn = await answerCandidateCount({ type: 'candidate-count', paperKey: key, properties: [WORK_FUNCTION] }, database, builtIn);
    expect(without).toEqual({ ok: true, candidates: 0 });
    expect(withOwn).toEqual({ ok: true, candidates: 1 });
  });

  it('answers not-found for a paper that is not saved', async () => {
    const answer = await answerCandidateCount({ type: 'candidate-count', paperKey: 'doi:10.1000/none', properties: [] }, database, []);
    expect(answer).toEqual({ ok: false, failure: { code: 'not-found', message: 'The paper is not saved any more.' } });
  });
});

describe('quickScanProperties', () => {
  it('keeps every built-in schema and adds the own ones whose names are new', () => {
    const builtIn = loadPropertySchemas();
    const gap = builtIn.find((schema) => schema.name === 'band_gap')!;
    const names = quickScanProperties(builtIn, [WORK_FUNCTION, { ...gap, label: 'My gap' }]).map((schema) => schema.name);
    expect(names).toEqual([...builtIn.map((schema) => schema.name), 'work_function']);
  });
});
