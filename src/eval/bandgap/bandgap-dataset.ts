/**
 * File layout of `bandgap-200` in the data root, for one version ("pub" = publisher text,
 * "arxiv" = arXiv text): the text folder, the truth CSV and the recorded tool outputs, and the
 * replay names `assay eval bandgap-200 --replay NAME` accepts: the names of docs/EVAL.md, plus
 * `chatextract-<model>-verified` (only rows ChatExtract's own checks confirmed).
 */
import { readdir } from 'node:fs/promises';
import { readRegularFile } from '../../capture/node/regular-file';
import { join } from 'node:path';
import { parseBandgapTruth, type BandgapPaper } from './bandgap-truth';
import { parseChatExtractCsv, type RecordedPrediction } from './recorded-chatextract';
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

/** Suffix of the ChatExtract variants that keep only rows with all three `*_valid` flags at 1. */
const VERIFIED_SUFFIX = '-verified';

/** Every replay name, in display order. */
export const REPLAY_NAMES: readonly string[] = [
  ...Object.keys(CHATEXTRACT_MODELS),
  ...Object.keys(CHATEXTRACT_MODELS).map((name) => name + VERIFIED_SUFFIX),
  ...LANGCHAIN_RUNS.map((run) => `langchain-${run}`),
];

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

/** Paper index → absolute path of its text file (`<index>_<doi with / as _>.txt`). */
export async function bandgapTextFiles(dataRoot: string, version: BandgapVersion): Promise<Map<number, string>> {
  const folder = bandgapPaths(dataRoot, version).texts;
  const files = new Map<number, string>();
  for (const name of await readdir(folder)) {
    const match = /^(\d+)_.+\.txt$/.exec(name);
    if (match) files.set(Number(match[1]), join(folder, name));
  }
  return files;
}

/** The one file in `folder` whose name starts with `prefix` and ends with ".csv"; throws if none or several. */
async function findRecordedFile(folder: string, prefix: string): Promise<string> {
  const matches = (await readdir(folder)).filter((name) => name.startsWith(prefix) && name.endsWith('.csv'));
  if (matches.length !== 1) throw new Error(`expected one ${prefix}*.csv in ${folder}, found ${matches.length}`);
  return join(folder, matches[0]!);
}

/**
 * Recorded predictions of replay `name` for one version, per paper index. Throws an Error whose
 * message lists the valid names when `name` is unknown.
 */
export async function loadReplay(dataRoot: string, version: BandgapVersion, name: string): Promise<Map<number, RecordedPrediction[]>> {
  const recorded = bandgapPaths(dataRoot, version).recorded;
  const requireVerified = name.endsWith(VERIFIED_SUFFIX);
  const model = CHATEXTRACT_MODELS[requireVerified ? name.slice(0, -VERIFIED_SUFFIX.length) : name];
  if (model) {
    const file = await findRecordedFile(join(recorded, '3-ChatExtract'), `2_extracted_${model}_`);
    return parseChatExtractCsv(await readRegularFile(file, 'utf8'), { engine: name, requireVerified });
  }
  const run = /^langchain-(\d+)$/.exec(name)?.[1];
  if (run && LANGCHAIN_RUNS.includes(run)) {
    const file = await findRecordedFile(join(recorded, '4-LangChain'), `output_LC_${run}_`);
    return parseLangChainCsv(await readRegularFile(file, 'utf8'), name);
  }
  throw new Error(`unknown replay "${name}"; known: ${REPLAY_NAMES.join(', ')}`);
}
