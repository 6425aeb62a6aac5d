import { describe, expect, it } from 'vitest';
import { createScriptedLlm } from '../../../src/llm/scripted-llm';
import { checkPrecedent } from '../../../src/precedent/check-precedent';
import type { RetrievedText } from '../../../src/precedent/judge/judge-schema';
import { parseReferenceTable } from '../../../src/precedent/reference-table';

// Materials written as SuperCon writes them (element order, dopant variable) — queried below as
// they are usually written ("MgB2", "MgB₂", "La1.85Sr0.15CuO4").
const csv = [
  'refno,material,property_name,property_value,property_unit',
  'NAT410063,B2Mg,tc,39,K',
  'PRB064020501,Mg1B2,tc,38.5,K',
  'PRL058002676,La2-xSrxCuO4 (x=0.15),tc,38,K',
  'PRB064012345,AlB2,tcn,1.8,K',
].join('\n');
const table = { name: 'test-table', table: parseReferenceTable(csv) };

const cab6: RetrievedText = {
  id: '10.1000/cab6',
  doi: '10.1000/cab6',
  title: 'Transport in CaB6',
  year: 2000,
  text: 'Resistivity of CaB6 crystals was measured down to 2 K; no superconductivity was found.',
  origin: 'crossref',
};
const cab6Reply = JSON.stringify({
  answer: 'No',
  values: [{ kind: 'Tcn', value: 2, unit: 'K', sourceId: '10.1000/cab6', quote: 'CaB6 crystals was measured down to 2 K' }],
});

describe('checkPrecedent from reference tables', () => {
  it('finds MgB2 written as B2Mg and Mg1B2, highest Tc first, each quoting its row with its refno', async () => {
    const check = await checkPrecedent({ material: 'MgB2', property: 'tc' }, { referenceTables: [table] });
    expect(check.answer).toBe('Yes');
    expect(check.values).toEqual([
      { kind: 'Tc', value: 39, unit: 'K', reference: { code: 'NAT410063' }, quote: 'NAT410063,B2Mg,tc,39,K', origin: 'test-table' },
      {
        kind: 'Tc',
        value: 38.5,
        unit: 'K',
        reference: { code: 'PRB064020501' },
        quote: 'PRB064020501,Mg1B2,tc,38.5,K',
        origin: 'test-table',
      },
    ]);
    expect(check.sources).toEqual(['test-table: NAT410063', 'test-table: PRB064020501']);
    expect(check.searched).toEqual([{ source: 'test-table', found: 2, note: 'Yes: 2 row(s)' }]);
    expect(check.unknownBecause).toBeUndefined();
  });

  it('reads subscript digits (MgB₂) and a dopant variable (La2-xSrxCuO4 (x=0.15) = La1.85Sr0.15CuO4)', async () => {
    const subscript = await checkPrecedent({ material: 'MgB₂', property: 'tc' }, { referenceTables: [table] });
    expect(subscript.values.map((value) => value.value)).toEqual([39, 38.5]);
    const lsco = await checkPrecedent({ material: 'La1.85Sr0.15CuO4', property: 'Tc' }, { referenceTables: [table] });
    expect(lsco.answer).toBe('Yes');
    expect(lsco.values.map((value) => [value.value, value.reference.code])).toEqual([[38, 'PRL058002676']]);
  });

  it('answers No from a Tcn row, and takes an unnamed table as "reference table"', async () => {
    const check = await checkPrecedent({ material: 'AlB2', property: 'tc' }, { referenceTables: [table.table] });
    expect(check.answer).toBe('No');
    expect(check.values.map((value) => [value.kind, value.value])).toEqual([['Tcn', 1.8]]);
    expect(check.sources).toEqual(['reference table: PRB064012345']);
  });

  it('answers Unknown with what was searched when nothing matches', async () => {
    const check = await checkPrecedent({ material: 'CaB6', property: 'tc' }, { referenceTables: [table] });
    expect(check.answer).toBe('Unknown');
    expect(check.values).toEqual([]);
    expect(check.searched).toEqual([
      { source: 'test-table', found: 0, note: 'no row for CaB6 among 4 rows' },
      { source: 'retrieved texts', found: 0, note: 'none given' },
    ]);
    expect(check.unknownBecause).toBe(
      'nothing answered; searched: test-table (no row for CaB6 among 4 rows); retrieved texts (none given)',
    );
  });
});

describe('checkPrecedent with retrieved texts', () => {
  it('does not call the judge when a table answers', async () => {
    const llm = createScriptedLlm({ replies: { judge: [cab6Reply] } });
    const check = await checkPrecedent({ material: 'MgB2', property: 'tc' }, { referenceTables: [table], texts: [cab6] }, { llm });
    expect(check.answer).toBe('Yes');
    expect(llm.calls).toHaveLength(0);
    expect(check.searched[1]).toEqual({
      source: 'retrieved texts',
      found: 0,
      note: 'not judged: answered from a reference table (1 text(s) given)',
    });
  });

  it('judges the texts when the tables do not answer, keeping the grounded values with their DOI', async () => {
    const llm = createScriptedLlm({ replies: { judge: [cab6Reply] } });
    const check = await checkPrecedent({ material: 'CaB6', property: 'tc' }, { referenceTables: [table], texts: [cab6] }, { llm });
    expect(check.answer).toBe('No');
    expect(check.values).toEqual([
      {
        kind: 'Tcn',
        value: 2,
        unit: 'K',
        reference: { sourceId: '10.1000/cab6', doi: '10.1000/cab6', title: 'Transport in CaB6', year: 2000, origin: 'crossref' },
        quote: 'CaB6 crystals was measured down to 2 K',
        origin: 'crossref',
      },
    ]);
    expect(check.sources).toEqual(['10.1000/cab6']);
    expect(check.searched[1]).toEqual({ source: 'retrieved texts', found: 1, note: 'judged 1 text(s): No: 1 grounded value(s)' });
  });

  it("reports the judge's dropped claims when nothing is grounded", async () => {
    const bad = JSON.stringify({
      answer: 'Yes',
      values: [{ kind: 'Tc', value: 7, unit: 'K', sourceId: '10.1000/other', quote: 'CaB6 superconducts at 7 K' }],
    });
    const check = await checkPrecedent(
      { material: 'CaB6', property: 'tc' },
      { texts: [cab6] },
      { llm: createScriptedLlm({ replies: { judge: [bad] } }) },
    );
    expect(check.answer).toBe('Unknown');
    expect(check.dropped.map((entry) => entry.reason)).toEqual(['cited a source that was not retrieved: 10.1000/other']);
    expect(check.unknownBecause).toBe(
      "nothing answered; searched: retrieved texts (judged 1 text(s): none of the judge's 1 value(s) was grounded in the retrieved texts; 1 claim(s) dropped)",
    );
  });

  it('says the texts were not judged without a model, and skips Tc tables for other properties', async () => {
    const noModel = await checkPrecedent({ material: 'CaB6', property: 'tc' }, { texts: [cab6] });
    expect(noModel.answer).toBe('Unknown');
    expect(noModel.searched).toEqual([{ source: 'retrieved texts', found: 0, note: 'not judged: no model engine given (1 text(s))' }]);
    const bandGap = await checkPrecedent({ material: 'MgB2', property: 'band_gap' }, { referenceTables: [table] });
    expect(bandGap.answer).toBe('Unknown');
    expect(bandGap.searched[0]).toEqual({ source: 'test-table', found: 0, note: 'not consulted: a Tc/Tcn table cannot answer "band_gap"' });
  });
});
