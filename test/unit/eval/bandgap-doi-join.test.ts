/**
 * bandgap-200 joins truths, texts and recorded outputs by DOI, not by paper index (issue 30):
 * upstream, the truth files' index disagrees with the texts' and recorded outputs' index for 42
 * papers. A four-paper data root of our own is misaligned the same way — the truth row indexed 1
 * is the DOI whose text and recorded rows are numbered 2, and the other way round — with a text
 * whose DOI names no truth paper (as upstream's `70_10.1016_j.jmps.2019.02.003.003.txt`) and a
 * truth row without a DOI, both joined by index. The new replays (`chemdataextractor`,
 * `bert-psie`) are read through `assay eval`, as `--replay` and as `--replay-vote` voters.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { runEval, type EvalCommandDependencies } from '../../../src/cli/eval-command';
import { bandgapTextFiles, loadBandgapTruth } from '../../../src/eval/bandgap/bandgap-dataset';
import { doiJoinKey, joinPapers, parsePaperReference } from '../../../src/eval/bandgap/paper-join';
import { testDependencies } from './scorer-doubles';

const ZNO = 'The ZnO band gap is 3.4 eV.';
const GAN = 'The GaN band gap is 3.5 eV.';
const STO = 'SrTiO3 has a band gap of 3.2 eV.';
const SI = 'Silicon has an indirect band gap of 1.12 eV.';

const TRUTH = `index,doi,material,Error Class,,Position Class,,Value Class,,Manual,source,,
1,10.1000/alpha,ZnO,,,1,,1,,3.4,"${ZNO}",,
2,10.1000/beta,GaN,,,1,,1,,3.5,"${GAN}",,
3,10.1000/gamma,SrTiO3,,,1,,1,,3.2,"${STO}",,
4,,Si,,,1,,1,,1.12,"${SI}",,
`;
// Recorded rows numbered as the texts are: GaN's paper is 1 here, ZnO's 2. The CdS row names a
// DOI of no truth paper and an index that another row reaches by DOI: it joins nothing.
const CDE = `doi,material,value,unit
1/10.1000/beta,GaN,3.5,eV
2/10.1000/alpha,ZnO,3.4,eV
3/10.1000/gamma.3,SrTiO3,3.2,eV
4/10.1000/delta,Si,1.12,eV
1/10.1000/unknown,CdS,2.4,eV
`;
const PSIE = `sentence,doi,material,value
"${GAN}",1_10.1000_beta,GaN,3 . 5 eV
"${ZNO}",2_10.1000_alpha,ZnO,3 . 4 eV
"s",2_10.1000_alpha,ZnO,eV
`;

let dataRoot = '';
let textFolder = '';
beforeAll(() => {
  dataRoot = mkdtempSync(join(tmpdir(), 'assay-doi-join-'));
  const folder = join(dataRoot, 'datasets', 'bandgap-200');
  textFolder = join(folder, 'text-pub');
  mkdirSync(textFolder, { recursive: true });
  mkdirSync(join(folder, 'recorded-pub', '1-ChemDataExtractor'), { recursive: true });
  mkdirSync(join(folder, 'recorded-pub', '2-BERT-PSIE'), { recursive: true });
  writeFileSync(join(folder, 'manual_pub__manual.csv'), TRUTH);
  writeFileSync(join(folder, 'recorded-pub', '1-ChemDataExtractor', 'cde_1-raw.csv'), CDE);
  writeFileSync(join(folder, 'recorded-pub', '2-BERT-PSIE', 'psie_1-raw.csv'), PSIE);
  // Capture refuses very short texts, so each paper gets a title and a filler paragraph.
  const paperText = (sentence: string) =>
    `A test paper\n\n${sentence}\n\n${'The samples were prepared and measured as described in the methods section. '.repeat(8)}\n`;
  writeFileSync(join(textFolder, '1_10.1000_beta.txt'), paperText(GAN));
  writeFileSync(join(textFolder, '2_10.1000_alpha.txt'), paperText(ZNO));
  writeFileSync(join(textFolder, '3_10.1000_gamma.3.txt'), paperText(STO));
  writeFileSync(join(textFolder, '4_10.1000_delta.txt'), paperText(SI));
});
afterAll(() => rmSync(dataRoot, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

describe('doiJoinKey', () => {
  it('compares DOIs strictly normalized, with "/" and "_" alike as file names write them', () => {
    expect(doiJoinKey('10.1088/0953-8984/27/11/115503')).toBe(doiJoinKey('10.1088_0953-8984_27_11_115503'));
    expect(doiJoinKey('https://doi.org/10.1016/J.APSUSC.2007.07.100')).toBe(doiJoinKey('10.1016_j.apsusc.2007.07.100'));
    expect(doiJoinKey('10.1016/j.jmps.2019.02.003')).not.toBe(doiJoinKey('10.1016_j.jmps.2019.02.003.003'));
    expect(doiJoinKey('10.1/a')).toBeNull(); // not a DOI (strict: 4–9 digit prefix)
    expect(doiJoinKey('')).toBeNull();
  });
});

describe('joining bandgap-200 files to the truth papers', () => {
  it('pairs each truth paper with the text of its DOI, where an index join pairs the wrong one', async () => {
    const papers = await loadBandgapTruth(dataRoot, 'pub');
    const names = ['1_10.1000_beta', '2_10.1000_alpha', '3_10.1000_gamma.3', '4_10.1000_delta'];
    // What joining by index did: truth paper 1 (ZnO, 10.1000/alpha) got the GaN paper's text.
    const byIndex = joinPapers(
      papers,
      names.map((name) => [{ index: parsePaperReference(name).index, doi: null }, name] as const),
    );
    expect(byIndex.byPaper.get(1)).toEqual(['1_10.1000_beta']);
    expect(byIndex.byPaper.get(2)).toEqual(['2_10.1000_alpha']);

    const texts = await bandgapTextFiles(dataRoot, 'pub');
    expect(Object.fromEntries([...texts].map(([index, path]) => [index, basename(path)]))).toEqual({
      1: '2_10.1000_alpha.txt',
      2: '1_10.1000_beta.txt',
      3: '3_10.1000_gamma.3.txt', // its DOI names no truth paper: by index
      4: '4_10.1000_delta.txt', // the truth row has no DOI: by index
    });
  });

  it('an item whose DOI names no paper joins by index only when the list does not number that paper otherwise', () => {
    const papers = [
      { index: 1, doi: '10.1000/alpha' },
      { index: 2, doi: '10.1000/beta' },
      { index: 3, doi: '10.1000/gamma' },
      { index: 4, doi: '10.1000/delta' },
    ];
    const joined = joinPapers(papers, [
      [parsePaperReference('1/10.1000/beta'), 'beta'],
      [parsePaperReference('1/10.1000/unknown'), 'x'], // this list's 1 is beta (paper 2): not paper 1
      [parsePaperReference('2/10.1000/unknown'), 'y'], // paper 2 is beta, reached by DOI
      [parsePaperReference('7/10.1000/other'), 'z'], // no paper 7
      [parsePaperReference('3/10.1000/gamma.3'), 'gamma'], // paper 3 by index
      [parsePaperReference('4'), 'delta'], // no DOI: paper 4 by index
    ]);
    expect(Object.fromEntries(joined.byPaper)).toEqual({ 2: ['beta'], 3: ['gamma'], 4: ['delta'] });
    expect(joined).toMatchObject({ byDoi: 1, byIndex: 2, unmatched: 3 });
  });
});

describe('assay eval bandgap-200 --replay chemdataextractor | bert-psie on misaligned files', () => {
  const dependencies: EvalCommandDependencies = { scorerDependencies: async () => testDependencies, engines: {} };
  const run = async (argv: string[]) => {
    const stdout: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (stdout.push(String(chunk)), true));
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const code = await runEval(['bandgap-200', '--data', dataRoot, ...argv, '--json'], dependencies);
    return { code, result: JSON.parse(stdout.join('')) };
  };

  it('ChemDataExtractor: every answer scores against its own paper; the unjoinable row is counted, not scored', async () => {
    const { code, result } = await run(['--replay', 'chemdataextractor']);
    expect(code).toBe(0);
    expect(result).toMatchObject({ dataset: 'bandgap-200', split: 'dev', replay: 'chemdataextractor' });
    expect(result.strict).toMatchObject({ predictions: 4, truths: 4, matched: 4 });
    expect(result.lenient).toMatchObject({ predictions: 4, truths: 4, matched: 4 });
    expect(result.recorded).toEqual({ joinedByIndex: 2, unjoined: 1, skippedRows: 0 });
    const zno = result.predictions.find((prediction: { material: string }) => prediction.material === 'ZnO');
    expect(zno.paper).toBe('1/10.1000/alpha');
  });

  it('BERT-PSIE: "<index>_<doi>" references join by DOI; a row without a number is skipped and counted', async () => {
    const { code, result } = await run(['--replay', 'bert-psie']);
    expect(code).toBe(0);
    expect(result.strict).toMatchObject({ predictions: 2, truths: 4, matched: 2 });
    expect(result.recorded).toEqual({ joinedByIndex: 0, unjoined: 0, skippedRows: 1 });
  });

  it('both vote: ZnO and GaN agree and ground on the BERT-PSIE sentence', async () => {
    const { code, result } = await run(['--replay-vote', 'chemdataextractor,bert-psie']);
    expect(code).toBe(0);
    expect(result.split).toBe('dev');
    const [pub] = result.results;
    expect(pub.tools.map((tool: { replay: string }) => tool.replay)).toEqual(['chemdataextractor', 'bert-psie']);
    expect(pub.agreed.strict).toMatchObject({ predictions: 2, matched: 2 });
    expect(pub.verified.strict).toMatchObject({ predictions: 2, matched: 2 });
  });
});
