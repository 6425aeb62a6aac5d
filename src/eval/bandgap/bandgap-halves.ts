/**
 * `assay eval bandgap-200 --engine NAME --halves`: one engine scored on two disjoint halves of
 * the dev split side by side, so that a change tuned on one half can be checked on the other.
 *
 * The split is fixed and data-independent: a paper belongs to the `odd` half when its index in
 * the dataset (the `index` column of the truth file, whose text file is joined to it by DOI, 1 to
 * 100 in DOIs.csv order) is odd, and to the `even` half otherwise. It depends on nothing a run
 * produces or a paper says, so it cannot drift towards easy papers, and it is the same for
 * every engine, version and run. Papers with no band gap stay in their half (they count for
 * precision).
 *
 * The engine runs once over all papers (`evaluateBandgap`, unchanged); this module records what
 * the engine produced per paper on the way through, and each half is then scored by the same
 * scorer on its own papers (`scoreTriplets`: strict headline and lenient, as in the whole run).
 * Counts are micro-averaged sums over papers, so the two halves' predictions, truths and
 * matches add up to the whole run's; the result is checked for that and an Error is thrown when
 * they do not.
 */
import type { Article } from '../../contracts/article';
import type { Triplet } from '../../contracts/triplet';
import type { DefinedAlias } from '../../text/materials/index';
import { definedAliasesOf, predictionFromTriplet, scoreTriplets, type RecordedCase } from '../scored-triplets';
import { bandgapTextFiles, loadBandgapTruth } from './bandgap-dataset';
import { evaluateBandgap, type BandgapEvaluation, type BandgapEvaluationOptions, type BandgapSource } from './bandgap-evaluation';
import { BAND_GAP } from './bandgap-truth';

/** The two halves, by paper index parity (see the module comment). */
export const HALVES = [
  { name: 'odd', includes: (index: number) => index % 2 === 1 },
  { name: 'even', includes: (index: number) => index % 2 === 0 },
] as const;

export type HalfName = (typeof HALVES)[number]['name'];

/** How the split is made, in words, as the JSON reports it. */
export const HALVING = 'paper index parity: odd = papers 1, 3, 5, …; even = papers 2, 4, 6, … (fixed, data-independent)';

/** One half: the shape of a whole-run result (`BandgapEvaluation`) on the half's papers, with its name. */
export interface BandgapHalf extends BandgapEvaluation {
  name: HalfName;
}

export interface BandgapHalves {
  dataset: 'bandgap-200';
  /** As the whole run's (`bandgapSplit`). */
  split: string;
  version: BandgapEvaluation['version'];
  engine: string;
  halving: string;
  /** The whole run's headline figures (strict at the top, `strict`, `lenient`), for comparison. */
  all: Omit<BandgapEvaluation, 'papers' | 'predictions' | 'truths'>;
  halves: [BandgapHalf, BandgapHalf];
}

/** What the engine produced for one paper, seen on the way through `evaluateBandgap`. */
interface PaperRun {
  triplets: Triplet[];
  definedAliases: DefinedAlias[];
  produced: number;
  grounded: number;
}

/**
 * The engine wrapped so that its captures, triplets and grounding checks are recorded per truth
 * paper index; `paperOfText` maps a text file's path to the truth paper it was joined to.
 */
function recordingSource(
  source: Extract<BandgapSource, { kind: 'engine' }>,
  runs: Map<number, PaperRun>,
  paperOfText: ReadonlyMap<string, number>,
): BandgapSource {
  const indexOf = new WeakMap<Article, number>();
  const runOf = (article: Article) => {
    const index = indexOf.get(article);
    if (index === undefined) throw new Error('bandgap-200 --halves: an article the capture step did not produce');
    let run = runs.get(index);
    if (!run) runs.set(index, (run = { triplets: [], definedAliases: [], produced: 0, grounded: 0 }));
    return run;
  };
  const { isGrounded } = source;
  return {
    ...source,
    capture: async (path) => {
      const article = await source.capture(path);
      const index = paperOfText.get(path);
      if (index === undefined) throw new Error(`bandgap-200 --halves: "${path}" is no truth paper's text`);
      indexOf.set(article, index);
      return article;
    },
    extractor: async (article, options) => {
      const triplets = await source.extractor(article, options);
      const run = runOf(article);
      run.triplets = triplets;
      run.definedAliases = definedAliasesOf(article);
      return triplets;
    },
    ...(isGrounded
      ? {
          isGrounded: (triplet: Triplet, article: Article) => {
            const grounded = isGrounded(triplet, article);
            const run = runOf(article);
            run.produced += 1;
            if (grounded) run.grounded += 1;
            return grounded;
          },
        }
      : {}),
  };
}

/** Throws when the halves' counts under either scoring do not add up to the whole run's. */
function checkSums(all: BandgapEvaluation, halves: readonly BandgapHalf[]): void {
  for (const mode of ['strict', 'lenient'] as const)
    for (const field of ['predictions', 'truths', 'matched'] as const) {
      const sum = halves.reduce((total, half) => total + half[mode][field], 0);
      if (sum !== all[mode][field])
        throw new Error(`bandgap-200 --halves: ${mode} ${field} of the halves add up to ${sum}, the whole run has ${all[mode][field]}`);
    }
}

/**
 * Score `options.source` (an engine; a replay has no run to halve) on the whole dev split once,
 * then on each half (see the module comment). Returns the whole run's summary and the two
 * halves, `odd` first, each with the shape of a whole-run result (`BandgapEvaluation`: strict
 * and lenient figures, per-paper counts, predictions and truths). Rejects like `evaluateBandgap`,
 * with a TypeError for a replay source, and with an Error when the halves do not add up.
 */
export async function evaluateBandgapHalves(options: BandgapEvaluationOptions): Promise<BandgapHalves> {
  const { source } = options;
  if (source.kind !== 'engine') throw new TypeError('bandgap-200 --halves scores an engine run; give --engine NAME');
  const runs = new Map<number, PaperRun>();
  const allPapers = await loadBandgapTruth(options.dataRoot, options.version);
  const texts = await bandgapTextFiles(options.dataRoot, options.version, allPapers);
  const paperOfText = new Map([...texts].map(([index, path]) => [path, index]));
  const all = await evaluateBandgap({ ...options, source: recordingSource(source, runs, paperOfText) });

  const papers = options.limit === undefined ? allPapers : allPapers.slice(0, options.limit);
  const halves = HALVES.map(({ name, includes }): BandgapHalf => {
    const cases: RecordedCase[] = [];
    let produced = 0;
    let grounded = 0;
    for (const paper of papers.filter((candidate) => includes(candidate.index))) {
      const run = runs.get(paper.index);
      if (!run) throw new Error(`bandgap-200 --halves: the engine did not run on paper ${paper.index}`);
      produced += run.produced;
      grounded += run.grounded;
      cases.push({
        paper: `${paper.index}/${paper.doi}`,
        truths: paper.truths,
        predictions: run.triplets
          .filter((triplet) => triplet.property === BAND_GAP)
          .map((triplet) => predictionFromTriplet(triplet, source.status ?? 'extracted')),
        definedAliases: run.definedAliases,
      });
    }
    return {
      name,
      dataset: 'bandgap-200',
      split: all.split,
      version: options.version,
      engine: source.name,
      ...scoreTriplets(cases, options.dependencies, 'recorded'),
      ...(source.isGrounded && produced > 0 ? { groundingRate: grounded / produced } : {}),
    };
  }) as [BandgapHalf, BandgapHalf];
  checkSums(all, halves);

  const { papers: _papers, predictions: _predictions, truths: _truths, ...summary } = all;
  return {
    dataset: 'bandgap-200',
    split: all.split,
    version: options.version,
    engine: source.name,
    halving: HALVING,
    all: summary,
    halves,
  };
}
