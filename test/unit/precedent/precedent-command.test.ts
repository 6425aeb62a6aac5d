import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { literatureClients, runPrecedent } from '../../../src/cli/precedent-command';
import { defaultReferencePath } from '../../../src/eval/cornell-tc/cornell-tc-dataset';
import { sharedRoot } from '../../support/shared-data';

const csv = ['refno,material,property_name,property_value,property_unit', 'NAT410063,B2Mg,tc,39,K', 'PRB064012345,AlB2,tcn,1.8,K'].join(
  '\n',
);
const text = {
  id: '10.1000/cab6',
  doi: '10.1000/cab6',
  title: 'Transport in CaB6',
  year: 2000,
  text: 'Resistivity of CaB6 crystals was measured down to 2 K; no superconductivity was found.',
  origin: 'crossref',
};
const judgeReply = {
  answer: 'No',
  values: [{ kind: 'Tcn', value: 2, unit: 'K', sourceId: '10.1000/cab6', quote: 'measured down to 2 K' }],
};

let stdout = '';
let stderr = '';
let folder = '';

beforeEach(() => {
  stdout = '';
  stderr = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((stdout += String(chunk)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((stderr += String(chunk)), true));
  folder = mkdtempSync(join(tmpdir(), 'assay-precedent-'));
  writeFileSync(join(folder, 'table.csv'), csv);
  writeFileSync(join(folder, 'texts.jsonl'), JSON.stringify(text) + '\n\n');
  writeFileSync(join(folder, 'script.json'), JSON.stringify({ replies: { judge: [judgeReply] } }));
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('assay precedent', () => {
  it('--json prints exactly one JSON document answering from the given table', async () => {
    expect(await runPrecedent(['MgB2', '--reference', join(folder, 'table.csv'), '--json'])).toBe(0);
    expect(stdout.endsWith('\n')).toBe(true);
    expect(stdout.trimEnd().split('\n')).toHaveLength(1);
    const output = JSON.parse(stdout);
    expect(output).toMatchObject({ material: 'MgB2', property: 'tc', answer: 'Yes', sources: ['table.csv: NAT410063'] });
    expect(output.values).toEqual([
      { kind: 'Tc', value: 39, unit: 'K', reference: { code: 'NAT410063' }, quote: 'NAT410063,B2Mg,tc,39,K', origin: 'table.csv' },
    ]);
    expect(output.searched).toEqual([{ source: 'table.csv', found: 1, note: 'Yes: 1 row(s)' }]);
    expect(stderr).toBe('');
  });

  it('judges --texts with the scripted engine when the table has no row', async () => {
    const args = [
      'CaB6',
      '--reference',
      join(folder, 'table.csv'),
      '--texts',
      join(folder, 'texts.jsonl'),
      '--engine',
      'scripted',
      '--script',
      join(folder, 'script.json'),
      '--json',
    ];
    expect(await runPrecedent(args)).toBe(0);
    const output = JSON.parse(stdout);
    expect(output.answer).toBe('No');
    expect(output.values.map((value: { value: number; reference: { doi: string } }) => [value.value, value.reference.doi])).toEqual([
      [2, '10.1000/cab6'],
    ]);
  });

  it('prints the answer, each value with its reference and quote, then what was searched', async () => {
    expect(await runPrecedent(['AlB2', '--reference', join(folder, 'table.csv')])).toBe(0);
    expect(stdout).toBe(
      [
        'AlB2 — tc: No',
        '  Tcn 1.8 K  [table.csv: PRB064012345]',
        '    "PRB064012345,AlB2,tcn,1.8,K"',
        'searched:',
        '  table.csv: 1 value(s) — No: 1 row(s)',
        '',
      ].join('\n'),
    );
  });

  it('fails with one stderr line: missing reference (1), bad texts line (1), no material (2), scripted without script (2)', async () => {
    expect(await runPrecedent(['MgB2', '--reference', join(folder, 'missing.csv'), '--json'])).toBe(1);
    expect(stderr).toBe(`assay precedent: reference table ${join(folder, 'missing.csv')}: No such file\n`);
    expect(stdout).toBe('');
    stderr = '';
    writeFileSync(join(folder, 'bad.jsonl'), '{"id":"x"}\n');
    expect(await runPrecedent(['MgB2', '--reference', join(folder, 'table.csv'), '--texts', join(folder, 'bad.jsonl')])).toBe(1);
    expect(stderr).toMatch(/^assay precedent: texts .*bad\.jsonl line 1: .*doi.*\n$/);
    expect(stderr.split('\n')).toHaveLength(2);
    stderr = '';
    expect(await runPrecedent(['--json'])).toBe(2);
    expect(stderr).toMatch(/^assay precedent: give exactly one material: .*\n$/);
    stderr = '';
    expect(await runPrecedent(['MgB2', '--engine', 'scripted'])).toBe(2);
    expect(stderr).toBe('assay precedent: --engine scripted needs --script FILE (replies for the "judge" role)\n');
  });

  it('answers from --dataset (an Assay JSONL export) before the table, and cites the paper', async () => {
    const row = {
      id: 'run-1:0',
      mergeKey: 'k',
      paper: {
        key: 'doi:10.1000/cab6-sc',
        doi: '10.1000/cab6-sc',
        url: null,
        title: 'CaB6 under pressure',
        authors: [],
        journal: null,
        year: 2021,
      },
      material: 'CaB6',
      property: 'tc',
      value: { kind: 'number', value: 4.5 },
      unit: 'K',
      si: { value: { kind: 'number', value: 4.5 }, unit: 'K' },
      evidence: { quote: { type: 'TextQuoteSelector', exact: 'CaB6 superconducts below 4.5 K at 30 GPa', prefix: '', suffix: '' } },
      status: 'verified',
      review: { decision: 'accepted' },
      votes: [],
      models: [],
      savedAt: '2026-01-01T00:00:00Z',
    };
    writeFileSync(join(folder, 'export.jsonl'), JSON.stringify(row) + '\n' + '{"id":1}\n');
    expect(await runPrecedent(['CaB6', '--reference', join(folder, 'table.csv'), '--dataset', join(folder, 'export.jsonl')])).toBe(0);
    expect(stdout).toBe(
      [
        'CaB6 — tc: Yes',
        '  Tc 4.5 K  [your dataset: doi:10.1000/cab6-sc, "CaB6 under pressure", 2021]',
        '    "CaB6 superconducts below 4.5 K at 30 GPa"',
        'searched:',
        '  your dataset: 1 value(s) — Yes: 1 saved triplet(s)',
        '  table.csv: 0 value(s) — no row for CaB6 among 2 rows',
        '',
      ].join('\n'),
    );
    // The bad second line is skipped with one warning.
    expect(stderr).toMatch(/^assay precedent: dataset .*export\.jsonl: 1 problem\(s\) skipped, first: line 2: .*\n$/);
  });

  it('--literature needs --mailto; the literature flags need --literature; the clients are Crossref, arXiv, then OpenAlex with a key', async () => {
    expect(await runPrecedent(['CaB6', '--literature'])).toBe(2);
    expect(stderr).toBe("assay precedent: --literature needs --mailto ADDRESS (Crossref's polite pool asks for a contact address)\n");
    stderr = '';
    expect(await runPrecedent(['CaB6', '--literature', '--mailto', 'nobody'])).toBe(2);
    expect(stderr).toBe('assay precedent: --mailto "nobody" is not an e-mail address\n');
    stderr = '';
    expect(await runPrecedent(['CaB6', '--mailto', 'me@example.org'])).toBe(2);
    expect(stderr).toBe('assay precedent: --mailto and --openalex-key-env apply only with --literature\n');
    expect(stdout).toBe('');
    const fetchImpl = (() => Promise.reject(new Error('no network in tests'))) as typeof fetch;
    expect(literatureClients({ literature: true, mailto: 'me@example.org' }, fetchImpl)?.map((client) => client.name)).toEqual([
      'crossref',
      'arxiv',
    ]);
    const env = { OPENALEX_KEY: 'k' };
    expect(
      literatureClients({ literature: true, mailto: 'me@example.org', 'openalex-key-env': 'OPENALEX_KEY' }, fetchImpl, env)?.map(
        (client) => client.name,
      ),
    ).toEqual(['crossref', 'arxiv', 'openalex']);
    expect(literatureClients({}, fetchImpl)).toBeUndefined();
  });

  it('takes the OpenAlex key from the environment variable --openalex-key-env names, never from the command line', async () => {
    // A key typed on the command line is readable in `ps` by every user: refused, saying what to use.
    expect(await runPrecedent(['CaB6', '--literature', '--mailto', 'me@example.org', '--openalex-key', 'secret-key'])).toBe(2);
    expect(stderr).toMatch(
      /^assay precedent: --openalex-key is not accepted: a key on the command line is visible to other users \(ps\).*--openalex-key-env NAME/,
    );
    expect(stderr).not.toContain('secret-key');
    expect(stdout).toBe('');
    stderr = '';
    expect(await runPrecedent(['CaB6', '--literature', '--mailto', 'me@example.org', '--openalex-key-env', 'ASSAY_TEST_UNSET_KEY'])).toBe(
      2,
    );
    expect(stderr).toBe('assay precedent: environment variable ASSAY_TEST_UNSET_KEY (--openalex-key-env) is not set\n');
    // The key goes out as OpenAlex's api_key, read from the variable.
    const urls: string[] = [];
    const fetchImpl = (async (input: RequestInfo | URL) => {
      urls.push(String(input));
      return new Response(JSON.stringify({ meta: { count: 0, next_cursor: null }, results: [] }), { status: 200 });
    }) as typeof fetch;
    const clients = literatureClients({ literature: true, mailto: 'me@example.org', 'openalex-key-env': 'OPENALEX_KEY' }, fetchImpl, {
      OPENALEX_KEY: ' key-from-env ',
    })!;
    await clients.find((client) => client.name === 'openalex')!.search({ material: 'CaB6', property: 'tc', terms: [], rows: 1 });
    expect(new URL(urls[0]!).searchParams.get('api_key')).toBe('key-from-env');
  });

  it('without --reference and without the SuperCon table, says so on stderr and answers from what is given', async () => {
    const empty = join(folder, 'no-data');
    expect(await runPrecedent(['MgB2', '--data', empty, '--json'])).toBe(0);
    expect(stderr).toBe(`assay precedent: no SuperCon table at ${defaultReferencePath(empty)}; answering from what is given\n`);
    expect(JSON.parse(stdout)).toMatchObject({
      answer: 'Unknown',
      searched: [{ source: 'retrieved texts', found: 0, note: 'none given' }],
    });
  });

  const superCon = defaultReferencePath(sharedRoot);
  const skipReason = existsSync(superCon) ? undefined : `skipped: SuperCon table not found at ${superCon} (set ASSAY_DATA)`;
  it.skipIf(skipReason !== undefined)(skipReason ?? 'answers MgB2 from the default SuperCon table', async () => {
    expect(await runPrecedent(['MgB2', '--data', sharedRoot, '--json'])).toBe(0);
    const output = JSON.parse(stdout);
    expect(output.answer).toBe('Yes');
    expect(output.searched[0].source).toBe('SuperCon');
    // SuperCon_Tc_Tcn_no_NA.csv line 9170: PHC4690064,Mg1B2,tc,39.0,K — MgB2's row.
    expect(output.values).toContainEqual(expect.objectContaining({ kind: 'Tc', value: 39, reference: { code: 'PHC4690064' } }));
    expect(output.values[0].quote).toMatch(/^[A-Z0-9]+,(Mg1?B2|B2Mg1?),tc,/);
  });
});
