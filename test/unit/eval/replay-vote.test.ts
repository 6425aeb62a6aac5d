import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  clusterAnswers,
  evaluateReplayVote,
  MIN_VOTES,
  recordedToTriplet,
  replayVoteRows,
  votePaper,
  type ReplayVoteDependencies,
} from '../../../src/eval/replay-vote';
import { scoreTable } from '../../../src/eval/report-table';
import { createSiConverter } from '../../../src/eval/si-conversion';
import { sameMaterial, sameMaterialStrict } from '../../../src/text/materials';
import { normalizeUnit, toSI } from '../../../src/text/units';
import { ground } from '../../../src/verify/ground';
import { groundAndAttribute } from '../../../src/verify/grounding-gate';
import { articleFromBlocks, paragraph } from '../text/article-from-blocks';

// A two-paper bandgap-200 in miniature, in the dataset's real file layout.
const ZNO = 'The ZnO film shows a direct band gap of 3.4 eV.';
const GAN = 'The GaN layer has a band gap of 3.5 eV.';
const SI = 'Silicon has an indirect gap of 1.12 eV.';
const INVENTED = 'CdS has a band gap of 2.4 eV.';
const TRUTH = [
  'index,doi,material,class,Manual,source',
  `1,10.1000/a,ZnO,semiconductor,3.4,"${ZNO}"`,
  `1,10.1000/a,GaN,semiconductor,3.5,"${GAN}"`,
  `2,10.1000/b,Si;Silicon,semiconductor,1.12,"${SI}"`,
].join('\n');
const HEADER = 'passage,sentence,doi,material,value,unit,material_valid,value_valid,unit_valid';
const row = (paper: string, sentence: string, material: string, value: string, unit: string) =>
  `"p","${sentence}","${paper}","${material}","${value}","${unit}",1,1,1`;
const RECORDED: Record<string, string[]> = {
  'llama2-13b': [
    row('1/10.1000/a', ZNO, 'ZnO', '3.4', 'eV'),
    row('1/10.1000/a', GAN, 'GaN', '3.2', 'eV'),
    row('2/10.1000/b', SI, 'Si', '1.12', 'eV'),
  ],
  'llama3.1-70b': [
    row('1/10.1000/a', ZNO, 'ZnO', '3400', 'meV'),
    row('1/10.1000/a', GAN, 'GaN', '3.5', 'eV'),
    row('1/10.1000/a', INVENTED, 'CdS', '2.4', 'eV'),
    row('2/10.1000/b', '', 'Ge', '0.66', 'eV'),
  ],
  'qwen2.5-14b': [
    row('1/10.1000/a', GAN, 'GaN', '3.5', 'eV'),
    row('1/10.1000/a', INVENTED, 'CdS', '2.4', 'eV'),
    row('2/10.1000/b', '', 'Si', '1.12', 'eV'),
    row('2/10.1000/b', '', 'Ge', '0.66', 'eV'),
  ],
};
const NAMES = ['chatextract-llama2-13b', 'chatextract-llama3.1-70b', 'chatextract-qwen2.5-14b'];

let dataRoot: string;
const captured: string[] = [];
const dependencies: ReplayVoteDependencies = {
  scorer: { convert: createSiConverter({ toSI, normalizeUnit }, []), sameMaterial, sameMaterialStrict },
  capture: async (path) => {
    captured.push(path);
    return articleFromBlocks([paragraph(await readFile(path, 'utf8'))]);
  },
  ground: (triplet, article) => ground(triplet, article),
  sameMaterial: (a, b) => sameMaterial(a, b),
  toSI,
};

beforeAll(async () => {
  dataRoot = await mkdtemp(join(tmpdir(), 'replay-vote-'));
  const folder = join(dataRoot, 'datasets', 'bandgap-200');
  await mkdir(join(folder, 'text-pub'), { recursive: true });
  await mkdir(join(folder, 'recorded-pub', '3-ChatExtract'), { recursive: true });
  await writeFile(join(folder, 'manual_pub__manual.csv'), TRUTH);
  await writeFile(join(folder, 'text-pub', '1_10.1000_a.txt'), `${ZNO} ${GAN}`);
  await writeFile(join(folder, 'text-pub', '2_10.1000_b.txt'), SI);
  for (const [model, rows] of Object.entries(RECORDED))
    await writeFile(join(folder, 'recorded-pub', '3-ChatExtract', `2_extracted_${model}_CE_x.csv`), [HEADER, ...rows].join('\n'));
});
afterAll(async () => {
  await rm(dataRoot, { recursive: true, force: true });
});

describe('clusterAnswers', () => {
  const answer = (material: string, value: number, unit: string, engine: string) =>
    recordedToTriplet({ material, property: 'band_gap', value: { kind: 'number', value }, unit, engine, valueText: String(value) });
  it('counts each tool once per cluster and matches across units', () => {
    const clusters = clusterAnswers(
      [answer('ZnO', 3.4, 'eV', 'a'), answer('ZnO', 3.4, 'eV', 'a'), answer('ZnO', 3400, 'meV', 'b'), answer('ZnO', 3.3, 'eV', 'c')],
      { sameMaterial: (x, y) => sameMaterial(x, y), toSI },
    );
    expect(clusters.map((cluster) => [cluster.members.length, cluster.votes])).toEqual([
      [3, ['a', 'b']],
      [1, ['c']],
    ]);
  });

  it('turns a ChatExtract sentence into the evidence quote', () => {
    const triplet = recordedToTriplet({
      material: 'ZnO',
      property: 'band_gap',
      value: { kind: 'number', value: 3.4 },
      unit: 'eV',
      engine: 'a',
      valueText: '3.4',
      sentence: ` ${ZNO}\n`,
    });
    expect(triplet.evidence?.quote.exact).toBe(ZNO);
    expect(MIN_VOTES).toBe(2);
  });
});

describe('evaluateReplayVote', () => {
  it('verifies what ≥ 2 tools agree on and what grounds; scores it beside each tool alone', async () => {
    const result = await evaluateReplayVote({ dataRoot, version: 'pub', names: NAMES, dependencies });
    // Paper 1: ZnO 3.4 (llama2 + llama3.1 as 3400 meV) verified; GaN 3.5 (llama3.1 + qwen) verified;
    //          GaN 3.2 (llama2 alone) needs review; CdS 2.4 (two tools, invented sentence) rejected.
    // Paper 2: Si 1.12 (llama2 with a sentence, qwen without) verified through llama2's quote;
    //          Ge 0.66 (two tools, neither with a quote) rejected.
    expect(result.counts).toEqual({ clusters: 6, candidates: 5, verified: 3, rejected: 2, unattributed: 0, needsReview: 1 });
    expect(result.minVotes).toBe(2);
    expect([
      result.verified.strict.predictions,
      result.verified.strict.truths,
      result.verified.matched,
      result.verified.precision,
      result.verified.recall,
    ]).toEqual([3, 3, 3, 1, 1]);
    expect([result.agreed.strict.predictions, result.agreed.matched, result.agreed.precision]).toEqual([5, 3, 0.6]);
    expect(result.verified.replay).toBe(`vote(${NAMES.join(',')})`);
    expect(result.verified.dataset).toBe('bandgap-200');
    // Alone: llama2 3 answers, 2 right (ZnO, Si); llama3.1 4 answers, 2 right (ZnO, GaN); qwen 4 answers, 2 right (GaN, Si).
    expect(result.tools.map((tool) => [tool.replay, tool.strict.predictions, tool.matched])).toEqual([
      ['chatextract-llama2-13b', 3, 2],
      ['chatextract-llama3.1-70b', 4, 2],
      ['chatextract-qwen2.5-14b', 4, 2],
    ]);
    expect(result.verified.papers.map((paper) => [paper.paper, paper.predictions, paper.matched])).toEqual([
      ['1/10.1000/a', 2, 2],
      ['2/10.1000/b', 1, 1],
    ]);
  });

  it('captures only papers with a candidate, honours limit, and refuses a single name', async () => {
    captured.length = 0;
    const limited = await evaluateReplayVote({ dataRoot, version: 'pub', names: NAMES, limit: 1, dependencies });
    expect(limited.verified.n).toBe(1);
    expect(captured.map((path) => path.endsWith('1_10.1000_a.txt'))).toEqual([true]);
    await expect(evaluateReplayVote({ dataRoot, version: 'pub', names: NAMES.slice(0, 1), dependencies })).rejects.toThrow('at least two');
  });

  it('with all three tools required, only the unanimous triplets are candidates', async () => {
    const result = await evaluateReplayVote({ dataRoot, version: 'pub', names: NAMES, minVotes: 3, dependencies });
    expect(result.counts).toEqual({ clusters: 6, candidates: 0, verified: 0, rejected: 0, unattributed: 0, needsReview: 6 });
  });
});

describe('replayVoteRows', () => {
  it('lists each tool, then the agreed, the verified-without-attribution, the verified-without-fact-check and the verified sets, for scoreTable', async () => {
    const result = await evaluateReplayVote({ dataRoot, version: 'pub', names: NAMES, dependencies });
    const rows = replayVoteRows(result);
    expect(rows.map((row) => [row.name, row.strict.predictions, row.strict.matched])).toEqual([
      ['chatextract-llama2-13b', 3, 2],
      ['chatextract-llama3.1-70b', 4, 2],
      ['chatextract-qwen2.5-14b', 4, 2],
      [`vote(${NAMES.join(',')}) agreed, ungrounded`, 5, 3],
      [`vote(${NAMES.join(',')}) without attribution`, 3, 3],
      [`vote(${NAMES.join(',')}) without fact check`, 3, 3],
      [`vote(${NAMES.join(',')})`, 3, 3],
    ]);
    expect(scoreTable(rows)).toContain(`| vote(${NAMES.join(',')}) | pub | 2 | 3 | 3 | 3 | 100.0 | 100.0 |`);
  });
});

describe('votePaper through the attribution gate', () => {
  const answer = (material: string, engine: string) =>
    recordedToTriplet({
      material,
      property: 'band_gap',
      value: { kind: 'number', value: 3.5 },
      unit: 'eV',
      engine,
      valueText: '3.5',
      sentence: GAN,
    });
  const article = async () => articleFromBlocks([paragraph(`${ZNO} ${GAN}`)]);
  const cross = { sameMaterial: (a: string, b: string) => sameMaterial(a, b), toSI, ground: groundAndAttribute };

  it('sends an agreed, grounded triplet whose quote is about another material to review, and keeps it verified without the check', async () => {
    const vote = await votePaper([answer('AlN', 'a'), answer('AlN', 'b')], article, cross);
    expect(vote.records.map((record) => [record.status, record.reasons])).toEqual([['needs_review', ['material not in the evidence']]]);
    expect(vote.withoutAttribution.map((record) => record.status)).toEqual(['verified']);
  });

  it('verifies an agreed triplet whose quote names its material and property', async () => {
    const vote = await votePaper([answer('GaN', 'a'), answer('GaN', 'b')], article, cross);
    expect(vote.records.map((record) => record.status)).toEqual(['verified']);
  });
});
