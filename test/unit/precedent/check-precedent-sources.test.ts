/**
 * The precedent check's dataset source (the reader's saved triplets) and open-literature source
 * (fake providers: no network).
 */
import { describe, expect, it } from 'vitest';
import type { DatasetTriplet } from '../../../src/contracts/dataset';
import { createScriptedLlm } from '../../../src/llm/scripted-llm';
import { answerFromDataset, datasetRowUsable } from '../../../src/precedent/answer-from-dataset';
import { checkPrecedent } from '../../../src/precedent/check-precedent';
import { literatureQueryFor, recordToRetrievedText } from '../../../src/precedent/literature/literature-texts';
import {
  LiteratureError,
  type LiteratureClient,
  type LiteratureQuery,
  type LiteratureRecord,
  type LiteratureSource,
} from '../../../src/precedent/literature/types';
import { parseReferenceTable } from '../../../src/precedent/reference-table';

function triplet(overrides: Partial<DatasetTriplet> & { quote?: string | null }): DatasetTriplet {
  const { quote = 'MgB2 becomes superconducting at 39 K', ...rest } = overrides;
  return {
    id: 'run-1:0',
    mergeKey: 'k',
    paper: {
      key: 'doi:10.1038/35065039',
      doi: '10.1038/35065039',
      url: null,
      title: 'Superconductivity at 39 K in magnesium diboride',
      authors: [],
      journal: 'Nature',
      year: 2001,
    },
    material: 'MgB2',
    property: 'tc',
    value: { kind: 'number', value: 39 },
    unit: 'K',
    si: { value: { kind: 'number', value: 39 }, unit: 'K' },
    ...(quote === null ? {} : { evidence: { quote: { type: 'TextQuoteSelector', exact: quote, prefix: '', suffix: '' } } }),
    status: 'verified',
    review: { decision: 'pending' },
    votes: [],
    models: [],
    savedAt: '2026-01-01T00:00:00Z',
    ...rest,
  };
}

const mgb2 = triplet({});
const mgb2Edited = triplet({
  id: 'run-2:0',
  material: 'B2Mg',
  paper: {
    key: 'url:https://example.org/x',
    doi: null,
    url: 'https://example.org/x',
    title: 'Thin films',
    authors: [],
    journal: null,
    year: null,
  },
  value: { kind: 'number', value: 36.5 },
  si: { value: { kind: 'number', value: 36.5 }, unit: 'K' },
  status: 'needs_review',
  review: { decision: 'edited' },
  quote: 'films of B2Mg showed Tc = 36.5 K',
});

describe('answerFromDataset', () => {
  it('keeps rows not rejected that are verified or accepted/edited', () => {
    expect(datasetRowUsable(mgb2)).toBe(true); // verified, pending
    expect(datasetRowUsable(triplet({ status: 'needs_review', review: { decision: 'pending' } }))).toBe(false);
    expect(datasetRowUsable(triplet({ status: 'needs_review', review: { decision: 'accepted' } }))).toBe(true);
    expect(datasetRowUsable(triplet({ status: 'verified', review: { decision: 'rejected' } }))).toBe(false);
  });

  it('matches MgB₂ to saved MgB2 and B2Mg, highest Tc first, citing the paper and quoting the evidence', () => {
    const answer = answerFromDataset('MgB₂', 'tc', [mgb2Edited, mgb2]);
    expect(answer.values).toEqual([
      {
        kind: 'Tc',
        value: 39,
        unit: 'K',
        reference: { doi: '10.1038/35065039', title: 'Superconductivity at 39 K in magnesium diboride', year: 2001 },
        quote: 'MgB2 becomes superconducting at 39 K',
        origin: 'your dataset',
      },
      {
        kind: 'Tc',
        value: 36.5,
        unit: 'K',
        reference: { title: 'Thin films', year: null },
        quote: 'films of B2Mg showed Tc = 36.5 K',
        origin: 'your dataset',
      },
    ]);
    // No DOI on the second paper: its key stands in.
    expect(answer.sources).toEqual(['10.1038/35065039', 'url:https://example.org/x']);
    expect(answer.note).toBe('Yes: 2 saved triplet(s)');
  });

  it('leaves out rejected, unreviewed and unquoted rows, other materials and other properties, and says so', () => {
    const rows = [
      triplet({ review: { decision: 'rejected' } }),
      triplet({ status: 'needs_review' }),
      triplet({ quote: null }),
      triplet({ material: 'AlB2' }),
      triplet({ property: 'band_gap', unit: 'eV' }),
    ];
    const answer = answerFromDataset('MgB2', 'tc', rows);
    expect(answer.values).toEqual([]);
    // 4 tc rows of 5: 2 rejected or unreviewed, 1 without a quote, AlB2 does not match.
    expect(answer.note).toBe(
      'no saved triplet for MgB2 among 4 tc triplet(s) of 5 (left out: 2 rejected or unreviewed, 1 without an evidence quote)',
    );
  });

  it('answers another property with its value as printed, and keeps a range in the conditions', () => {
    const gap = triplet({
      property: 'band gap',
      value: { kind: 'range', low: 3.3, high: 3.4 },
      unit: 'eV',
      si: null,
      material: 'ZnO',
      conditions: [{ kind: 'temperature', value: '300 K', text: 'at 300 K' }],
      quote: 'ZnO has a band gap of 3.3–3.4 eV',
    });
    const answer = answerFromDataset('ZnO', 'band_gap', [gap]);
    expect(answer.values).toEqual([
      expect.objectContaining({
        kind: 'value',
        value: 3.3,
        unit: 'eV',
        conditions: 'at 300 K; reported as 3.3–3.4 eV',
        quote: 'ZnO has a band gap of 3.3–3.4 eV',
      }),
    ]);
  });
});

describe('checkPrecedent with the dataset', () => {
  const table = {
    name: 'SuperCon',
    table: parseReferenceTable('refno,material,property_name,property_value,property_unit\nNAT410063,B2Mg1,tc,39,K\n'),
  };

  it('consults the dataset first and merges it with the tables', async () => {
    const check = await checkPrecedent({ material: 'MgB2', property: 'tc' }, { dataset: [mgb2Edited], referenceTables: [table] });
    expect(check.answer).toBe('Yes');
    expect(check.values.map((value) => [value.value, value.origin])).toEqual([
      [39, 'SuperCon'],
      [36.5, 'your dataset'],
    ]);
    expect(check.sources).toEqual(['url:https://example.org/x', 'SuperCon: NAT410063']);
    expect(check.searched.map((entry) => entry.source)).toEqual(['your dataset', 'SuperCon']);
  });

  it('does not search the literature when the dataset answers', async () => {
    const client = fakeClient('crossref', async () => ({ records: [], total: 0 }));
    const llm = createScriptedLlm({ replies: { judge: [] } });
    const check = await checkPrecedent(
      { material: 'MgB2', property: 'tc' },
      { dataset: [mgb2], literature: { clients: [client] } },
      { llm },
    );
    expect(check.values).toHaveLength(1);
    expect(client.queries).toHaveLength(0);
    expect(check.searched).toEqual([
      { source: 'your dataset', found: 1, note: 'Yes: 1 saved triplet(s)' },
      { source: 'literature', found: 0, note: 'not searched: answered from your dataset' },
    ]);
  });
});

type FakeClient = LiteratureClient & { queries: LiteratureQuery[] };

function fakeClient(
  name: LiteratureSource,
  search: (query: LiteratureQuery) => Promise<{ records: LiteratureRecord[]; total: number }>,
): FakeClient {
  const queries: LiteratureQuery[] = [];
  return {
    name,
    queries,
    describeQuery: (query) => `${query.material} ${query.property}`,
    search: async (query) => {
      queries.push(query);
      return search(query);
    },
  };
}

const cab6Record: LiteratureRecord = {
  source: 'crossref',
  doi: '10.1000/cab6',
  title: 'Transport in CaB6',
  year: 2000,
  authors: [],
  abstract: 'Resistivity of CaB6 crystals was measured down to 2 K; no superconductivity was found.',
  url: 'https://doi.org/10.1000/cab6',
};
const noAbstract: LiteratureRecord = { ...cab6Record, doi: '10.1000/other', title: 'Another paper', abstract: null };

describe('checkPrecedent with the literature', () => {
  it('asks for superconductivity with its synonyms, and turns abstracts into texts', () => {
    expect(literatureQueryFor('CaB6', 'tc')).toEqual({
      material: 'CaB6',
      property: 'superconductivity',
      terms: ['superconducting', 'critical temperature'],
      rows: 10,
    });
    expect(literatureQueryFor('ZnO', 'band_gap', 5)).toEqual({ material: 'ZnO', property: 'band gap', terms: [], rows: 5 });
    expect(recordToRetrievedText(cab6Record)).toEqual({
      id: '10.1000/cab6',
      doi: '10.1000/cab6',
      title: 'Transport in CaB6',
      year: 2000,
      text: `Transport in CaB6\n\n${cab6Record.abstract}`,
      origin: 'crossref',
    });
    expect(recordToRetrievedText(noAbstract)).toBeNull();
  });

  it('judges the abstracts found and reports every provider, failures included', async () => {
    const crossref = fakeClient('crossref', async () => ({ records: [cab6Record, noAbstract], total: 12 }));
    const arxiv = fakeClient('arxiv', async () => {
      throw new LiteratureError('rate-limited', 'arxiv', 'HTTP 429 after 3 retries', 429);
    });
    const reply = JSON.stringify({
      answer: 'No',
      values: [{ kind: 'Tcn', value: 2, unit: 'K', sourceId: '10.1000/cab6', quote: 'measured down to 2 K' }],
    });
    const llm = createScriptedLlm({ replies: { judge: [reply] } });
    const check = await checkPrecedent(
      { material: 'CaB6', property: 'tc' },
      { literature: { clients: [crossref, arxiv], rows: 5 } },
      { llm },
    );
    expect(crossref.queries[0]).toMatchObject({ material: 'CaB6', property: 'superconductivity', rows: 5 });
    expect(check.answer).toBe('No');
    expect(check.values).toEqual([
      expect.objectContaining({ kind: 'Tcn', value: 2, unit: 'K', origin: 'crossref', quote: 'measured down to 2 K' }),
    ]);
    expect(check.values[0]!.reference).toMatchObject({ doi: '10.1000/cab6', title: 'Transport in CaB6' });
    expect(check.sources).toEqual(['10.1000/cab6']);
    expect(check.searched).toEqual([
      { source: 'Crossref', found: 1, note: '12 found (1 with an abstract); judged: No: 1 grounded value(s)' },
      { source: 'arXiv', found: 0, note: 'rate-limited — HTTP 429 after 3 retries' },
    ]);
  });

  it('says plainly that there was no network when every provider was unreachable — never No', async () => {
    const offline = (name: LiteratureSource) =>
      fakeClient(name, async () => {
        throw new LiteratureError('unreachable', name, 'getaddrinfo ENOTFOUND');
      });
    const llm = createScriptedLlm({ replies: { judge: [] } });
    const check = await checkPrecedent(
      { material: 'CaB6', property: 'tc' },
      { literature: { clients: [offline('crossref'), offline('openalex')] } },
      { llm },
    );
    expect(check.answer).toBe('Unknown');
    expect(check.unknownBecause).toBe('No network: only local sources were searched.');
    expect(check.searched).toEqual([
      { source: 'Crossref', found: 0, note: 'unreachable — getaddrinfo ENOTFOUND' },
      { source: 'OpenAlex', found: 0, note: 'unreachable — getaddrinfo ENOTFOUND' },
    ]);
    expect(llm.calls).toHaveLength(0);
  });

  it('does not search without a model engine, and says why', async () => {
    const crossref = fakeClient('crossref', async () => ({ records: [cab6Record], total: 1 }));
    const check = await checkPrecedent({ material: 'CaB6', property: 'tc' }, { literature: { clients: [crossref] } });
    expect(crossref.queries).toHaveLength(0);
    expect(check.answer).toBe('Unknown');
    expect(check.searched[1]).toEqual({ source: 'literature', found: 0, note: 'literature not judged: no model engine' });
  });

  it('rejects when the signal aborts the search', async () => {
    const controller = new AbortController();
    const crossref = fakeClient('crossref', async () => {
      controller.abort();
      throw new LiteratureError('aborted', 'crossref', 'cancelled');
    });
    const llm = createScriptedLlm({ replies: { judge: [] } });
    await expect(
      checkPrecedent({ material: 'CaB6', property: 'tc' }, { literature: { clients: [crossref] } }, { llm, signal: controller.signal }),
    ).rejects.toThrow(/cancelled/);
  });
});
