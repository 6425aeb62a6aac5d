/**
 * File layout of `bandgap-200` in the data root, for one version ("pub" = publisher text,
 * "arxiv" = arXiv text): the text folder, the truth CSV and the recorded tool outputs, and the
 * replay names `assay eval bandgap-200 --replay NAME` accepts: the names of docs/EVAL.md,
 * `chatextract-<model>-verified` (only rows ChatExtract's own checks confirmed),
 * `chemdataextractor` and `bert-psie`. Texts and recorded outputs are joined to the truth papers
 * by DOI, by index only where a DOI is missing or names no truth paper (paper-join.ts).
 */
import { readdir } from 'node:fs/promises';
import { readRegularFile } from '../../capture/node/regular-file';
import { join } from 'node:path';
import { parseBandgapTruth, type BandgapPaper } from './bandgap-truth';
import { joinPapers, parsePaperReference } from './paper-join';
import { parseBertPsieCsv } from './recorded-bert-psie';
import { parseChatExtractCsv, type RecordedByReference, type RecordedPrediction } from './recorded-chatextract';
import { parseChemDataExtractorCsv } from './recorded-chemdataextractor';
import { parseLangChainCsv } from './recorded-langchain';

export type BandgapVersion = 'pub' | 'arxiv';
export const BANDGAP_VERSIONS: readonly BandgapVersion[] = ['pub', 'arxiv'];

/** ChatExtract runs: replay name → model tag in `2_extracted_<model>_CE_*.csv`. */
const CHATEXTRACT_MODELS: Record<string, string> = {
  'chatextract-llama2-13b': 'llama2-13b',
  'chatextract-llama3.1-70b': 'llama3.1-70b',
  'chatextract-qwen2.5-14b': 'qwen2.5-14b',
};
const LANGCHAIN_RUNS = ['11', '12', '13', '21', '22', '23'];
/** The rule-based and fine-tuned baselines: replay name → folder and file of `recorded-<version>/`. */
const BASELINES = {
  chemdataextractor: { folder: '1-ChemDataExtractor', prefix: 'cde_1-raw', parse: parseChemDataExtractorCsv },
  'bert-psie': { folder: '2-BERT-PSIE', prefix: 'psie_1-raw', parse: parseBertPsieCsv },
} as const;

/** Suffix of the ChatExtract variants that keep only rows with all three `*_valid` flags at 1. */
const VERIFIED_SUFFIX = '-verified';

/** Every replay name, in display order. */
export const REPLAY_NAMES: readonly string[] = [
  ...Object.keys(CHATEXTRACT_MODELS),
  ...Object.keys(CHATEXTRACT_MODELS).map((name) => name + VERIFIED_SUFFIX),
  ...LANGCHAIN_RUNS.map((run) => `langchain-${run}`),
  ...Object.keys(BASELINES),
];

/** Last paper index of upstream's dev half; the shared data holds only papers 1–100 (SOURCE.md). */
export const DEV_LAST_INDEX = 100;

/**
 * The split that `papers` (truth papers, after any `--limit`) make up, for a result's `split`:
 * "dev" when every index is ≤ 100 (the shared data as it stands), "test" when every index is
 * above, "dev+test" when both; "none" for no papers.
 */
export function bandgapSplit(papers: readonly { index: number }[]): string {
  const dev = papers.some((paper) => paper.index <= DEV_LAST_INDEX);
  const test = papers.some((paper) => paper.index > DEV_LAST_INDEX);
  return dev && test ? 'dev+test' : dev ? 'dev' : test ? 'test' : 'none';
}

/** Paths of one version of the dataset under `dataRoot`. */
export function bandgapPaths(dataRoot: string, version: BandgapVersion) {
  const folder = join(dataRoot, 'datasets', 'bandgap-200');
  return {
    folder,
    texts: join(folder, `text-${version}`),
    truth: join(folder, `manual_${version}__manual.csv`),
    recorded: join(folder, `recorded-${version}`),
  };
}

/** Load the ground truth of one version (papers in index order). */
export async function loadBandgapTruth(dataRoot: string, version: BandgapVersion): Promise<BandgapPaper[]> {
  return parseBandgapTruth(await readRegularFile(bandgapPaths(dataRoot, version).truth, 'utf8'));
}

/**
 * Truth paper index → absolute path of its text file (`<index>_<doi with / as _>.txt`), joined
 * by DOI (`joinPapers`; the truth is loaded when `papers` is not given). A truth paper without
 * a text file is absent; a text file that joins no paper is left out; of two that join one paper,
 * the first by name is kept.
 */
export async function bandgapTextFiles(
  dataRoot: string,
  version: BandgapVersion,
  papers?: readonly BandgapPaper[],
): Promise<Map<number, string>> {
  const folder = bandgapPaths(dataRoot, version).texts;
  const names = (await readdir(folder)).filter((name) => /^\d+_.+\.txt$/.test(name)).sort();
  const joined = joinPapers(
    papers ?? (await loadBandgapTruth(dataRoot, version)),
    names.map((name) => [parsePaperReference(name.slice(0, -'.txt'.length)), join(folder, name)] as const),
  );
  return new Map([...joined.byPaper].map(([index, paths]) => [index, paths[0]!]));
}

/** The one file in `folder` whose name starts with `prefix` and ends with ".csv"; throws if none or several. */
async function findRecordedFile(folder: string, prefix: string): Promise<string> {
  const matches = (await readdir(folder)).filter((name) => name.startsWith(prefix) && name.endsWith('.csv'));
  if (matches.length !== 1) throw new Error(`expected one ${prefix}*.csv in ${folder}, found ${matches.length}`);
  return join(folder, matches[0]!);
}

/** A replay's answers joined to the truth papers, and what did not join. */
export interface JoinedReplay {
  /** Truth paper index → answers, in file order. */
  byPaper: Map<number, RecordedPrediction[]>;
  /** Recorded papers (distinct references) joined by index, their DOI missing or naming no truth paper. */
  joinedByIndex: number;
  /** Recorded papers joined to no truth paper (their answers are not scored). */
  unjoined: number;
  /** ChemDataExtractor and BERT-PSIE only: rows with no usable answer (see their readers). */
  skippedRows?: number;
}

/** The recorded file of replay `name`, parsed, per paper reference; throws on an unknown name. */
async function readReplay(recorded: string, name: string): Promise<{ byReference: RecordedByReference; skippedRows?: number }> {
  const requireVerified = name.endsWith(VERIFIED_SUFFIX);
  const model = CHATEXTRACT_MODELS[requireVerified ? name.slice(0, -VERIFIED_SUFFIX.length) : name];
  if (model) {
    const file = await findRecordedFile(join(recorded, '3-ChatExtract'), `2_extracted_${model}_`);
    return { byReference: parseChatExtractCsv(await readRegularFile(file, 'utf8'), { engine: name, requireVerified }) };
  }
  const run = /^langchain-(\d+)$/.exec(name)?.[1];
  if (run && LANGCHAIN_RUNS.includes(run)) {
    const file = await findRecordedFile(join(recorded, '4-LangChain'), `output_LC_${run}_`);
    return { byReference: parseLangChainCsv(await readRegularFile(file, 'utf8'), name) };
  }
  const baseline = Object.hasOwn(BASELINES, name) ? BASELINES[name as keyof typeof BASELINES] : undefined;
  if (baseline) {
    const file = await findRecordedFile(join(recorded, baseline.folder), baseline.prefix);
    const rows = baseline.parse(await readRegularFile(file, 'utf8'), name);
    return { byReference: rows.byPaper, skippedRows: rows.skipped };
  }
  throw new Error(`unknown replay "${name}"; known: ${REPLAY_NAMES.join(', ')}`);
}

/**
 * Recorded predictions of replay `name` for one version, joined to the truth `papers` (loaded
 * when not given) by DOI (`joinPapers`), with the join's counts. Throws an Error whose message
 * lists the valid names when `name` is unknown.
 */
export async function loadJoinedReplay(
  dataRoot: string,
  version: BandgapVersion,
  name: string,
  papers?: readonly BandgapPaper[],
): Promise<JoinedReplay> {
  const { byReference, skippedRows } = await readReplay(bandgapPaths(dataRoot, version).recorded, name);
  const joined = joinPapers(
    papers ?? (await loadBandgapTruth(dataRoot, version)),
    [...byReference].map(([reference, answers]) => [parsePaperReference(reference), answers] as const),
  );
  return {
    byPaper: new Map([...joined.byPaper].map(([index, lists]) => [index, lists.flat()])),
    joinedByIndex: joined.byIndex,
    unjoined: joined.unmatched,
    ...(skippedRows === undefined ? {} : { skippedRows }),
  };
}

/** Recorded predictions of replay `name` for one version, per truth paper index (`loadJoinedReplay`). */
export async function loadReplay(
  dataRoot: string,
  version: BandgapVersion,
  name: string,
  papers?: readonly BandgapPaper[],
): Promise<Map<number, RecordedPrediction[]>> {
  return (await loadJoinedReplay(dataRoot, version, name, papers)).byPaper;
}
