/**
 * `assay eval bandgap-200 --replay-vote A,B,C`: the recorded outputs of several replayed tools
 * act as the proposers of dual cross-verification (SLM-MATRIX Methods), and the grounding gate
 * decides what is verified — no model calls. The vote, defined:
 * 1. Per paper, each tool's answers are clustered by `tripletsAgree` (same property, material
 *    equivalent by `sameMaterial`, value equal within 0.1% after SI conversion, same SI unit).
 *    A tool votes at most once per cluster (a tool repeating itself is not agreement).
 * 2. A cluster with votes from at least `minVotes` (default 2) distinct tools is a candidate;
 *    fewer votes → `needs_review` (recorded output cannot be re-run, so the paper's K
 *    refinement rounds do not apply; such clusters go straight to adjudication).
 * 3. A candidate is `verified` only if the grounding gate passes on the evidence quote of one
 *    of its members: ChatExtract rows carry the sentence the answer came from (`sentence`
 *    column), used as the quote and re-anchored in the paper text captured with `capture`
 *    (`captureFile`); the quote must show the value and unit. A candidate none of whose
 *    members has a quote (LangChain and ChemDataExtractor rows carry none; BERT-PSIE rows carry
 *    their sentence like ChatExtract) is `rejected`: it cannot be verified.
 * 4. When the gate reports attribution (`groundAndAttribute`), a candidate whose grounded
 *    quotes do not name its material or property is `needs_review` instead of `verified`.
 * 5. When the gate reports the fact check (`gateFact`, issue 26), a candidate whose number is
 *    another quantity (a difference, a parameter, a condition) is `rejected`, one whose
 *    conditions the evidence cannot pair with the value is `needs_review`, and a verified one
 *    carries the conditions read from the evidence (scored against the truths' qualifiers).
 * The verified set is scored like any bandgap-200 evaluation, beside each tool alone, the
 * agreed-but-ungrounded set (to separate the effect of agreement from that of grounding) and
 * the verified set without step 4 (to separate the effect of the attribution check) and without
 * step 5 (the gate before issue 26).
 */
import { readRegularFile } from '../capture/node/regular-file';
import type { Article } from '../contracts/article';
import type { Triplet } from '../contracts/triplet';
import { tripletsAgree, type CrossVerifyDependencies } from '../matrix/cross-verify';
import { groundCandidates, type GroundCheck } from '../matrix/cross-verify-refine';
import { definedAliasesOf, predictionFromTriplet, scoreTriplets, type RecordedCase } from './scored-triplets';
import { bandgapSplit, bandgapTextFiles, loadBandgapTruth, loadReplay, type BandgapVersion } from './bandgap/bandgap-dataset';
import { evaluateBandgap, type BandgapEvaluation } from './bandgap/bandgap-evaluation';
import type { RecordedPrediction } from './bandgap/recorded-chatextract';
import type { ScoreRow } from './report-table';
import type { ScorerDependencies } from './triplet-scorer-types';
import type { VerificationRecord } from '../contracts/verification';

/** Default number of distinct tools that must agree on a triplet ("≥ 2 of 3"). */
export const MIN_VOTES = 2;

/** One cluster of equivalent answers from several tools. */
export interface VoteCluster {
  /** The first answer of the cluster (what is scored). */
  triplet: Triplet;
  members: Triplet[];
  /** Distinct tools (engines) that gave a member, in the order given. */
  votes: string[];
}

/** A recorded answer as a contract triplet; the ChatExtract sentence becomes the evidence quote. */
export function recordedToTriplet(prediction: RecordedPrediction): Triplet {
  const sentence = prediction.sentence?.trim();
  return {
    material: prediction.material,
    property: prediction.property,
    value: prediction.value,
    unit: prediction.unit,
    valueText: prediction.valueText,
    engine: prediction.engine,
    ...(sentence ? { evidence: { quote: { type: 'TextQuoteSelector' as const, exact: sentence, prefix: '', suffix: '' } } } : {}),
  };
}

/** Cluster the answers of several tools for one paper (step 1 above); clusters in first-seen order. */
export function clusterAnswers(answers: readonly Triplet[], dependencies: CrossVerifyDependencies): VoteCluster[] {
  const clusters: VoteCluster[] = [];
  for (const triplet of answers) {
    const cluster = clusters.find((candidate) => tripletsAgree(candidate.triplet, triplet, dependencies));
    if (!cluster) {
      clusters.push({ triplet, members: [triplet], votes: [triplet.engine] });
      continue;
    }
    cluster.members.push(triplet);
    if (!cluster.votes.includes(triplet.engine)) cluster.votes.push(triplet.engine);
  }
  return clusters;
}

export interface PaperVote {
  /**
   * Candidates after the grounding gate (`verified`, `rejected`, or `needs_review` when grounded
   * but not attributed) and clusters below the vote threshold (`needs_review`).
   */
  records: VerificationRecord[];
  /** The same without the attribution check (step 4) nor the fact check: what grounding alone would verify. */
  withoutAttribution: VerificationRecord[];
  /** The same without the fact check (step 5): the gate before issue 26. */
  withoutFactCheck: VerificationRecord[];
}

/** `ground` with its fact check dropped: the gate of steps 1–4. */
function withoutFactCheck(ground: GroundCheck): GroundCheck {
  return (triplet, article) => {
    const { fact: _fact, ...result } = ground(triplet, article);
    return result;
  };
}

/** `ground` with its attribution verdict and fact check dropped: the gate of steps 1–3 only. */
function withoutAttribution(ground: GroundCheck): GroundCheck {
  return (triplet, article) => {
    const { grounded, reasons } = ground(triplet, article);
    return { grounded, reasons };
  };
}

/**
 * Steps 2–3 for one paper. `article` is only needed when there is a candidate (pass a getter,
 * so papers without candidates are not captured).
 */
export async function votePaper(
  answers: readonly Triplet[],
  article: () => Promise<Article>,
  dependencies: CrossVerifyDependencies & { ground: GroundCheck },
  minVotes = MIN_VOTES,
): Promise<PaperVote> {
  const clusters = clusterAnswers(answers, dependencies);
  const candidates = clusters.filter((cluster) => cluster.votes.length >= minVotes);
  const records: VerificationRecord[] = clusters
    .filter((cluster) => cluster.votes.length < minVotes)
    .map((cluster) => ({
      status: 'needs_review',
      triplet: cluster.triplet,
      votes: cluster.votes,
      reasons: [`only ${cluster.votes.join(', ')} gave this triplet`],
    }));
  if (candidates.length === 0) return { records, withoutAttribution: records, withoutFactCheck: records };
  const memberQuotes = new Map<Triplet, Triplet[]>(candidates.map((cluster) => [cluster.triplet, cluster.members.slice(1)]));
  const captured = await article();
  const gate = (ground: GroundCheck) =>
    groundCandidates(
      candidates.map((cluster) => ({ status: 'needs_review', triplet: cluster.triplet, votes: cluster.votes, reasons: [] })),
      captured,
      ground,
      (record) => memberQuotes.get(record.triplet) ?? [],
    );
  return {
    records: [...gate(dependencies.ground), ...records],
    withoutAttribution: [...gate(withoutAttribution(dependencies.ground)), ...records],
    withoutFactCheck: [...gate(withoutFactCheck(dependencies.ground)), ...records],
  };
}

export interface ReplayVoteDependencies {
  scorer: ScorerDependencies;
  /** Capture a paper's text file (`captureFile`). */
  capture: (path: string) => Promise<Article>;
  /** The gate (`gateFact` of `src/verify/grounding-gate.ts`, or `groundAndAttribute`, or `ground` alone). */
  ground: GroundCheck;
  /** Material equality for the vote (`sameMaterial`), and SI conversion (`toSI`). */
  sameMaterial: CrossVerifyDependencies['sameMaterial'];
  toSI: CrossVerifyDependencies['toSI'];
}

export interface ReplayVoteOptions {
  dataRoot: string;
  version: BandgapVersion;
  /** Replay names (`REPLAY_NAMES`), at least two. */
  names: readonly string[];
  limit?: number;
  minVotes?: number;
  dependencies: ReplayVoteDependencies;
  progress?: (line: string) => void;
}

export interface ReplayVoteEvaluation {
  /** The verified set, scored (`replay` is "vote(A,B,C)"). */
  verified: BandgapEvaluation;
  /** The verified set without the attribution check (step 4) nor the fact check (ablation). Equal to `verified` when the gate reports neither. */
  verifiedWithoutAttribution: BandgapEvaluation;
  /** The verified set without the fact check (step 5; ablation): the gate before issue 26. */
  verifiedWithoutFactCheck: BandgapEvaluation;
  /** Candidates with enough votes, before the grounding gate (ablation). */
  agreed: BandgapEvaluation;
  /** Each tool alone, in `names` order. */
  tools: BandgapEvaluation[];
  /**
   * `candidates` = verified + rejected + unattributed; `needsReview` counts clusters below the
   * vote threshold; `unattributed` candidates grounded but did not name material or property.
   */
  counts: { clusters: number; candidates: number; verified: number; rejected: number; unattributed: number; needsReview: number };
  minVotes: number;
}

/** Run the replay vote on one version. Rejects on missing data, unknown names or fewer than two names. */
export async function evaluateReplayVote(options: ReplayVoteOptions): Promise<ReplayVoteEvaluation> {
  const { dataRoot, version, names, dependencies } = options;
  if (names.length < 2) throw new Error('--replay-vote needs at least two replay names');
  const minVotes = options.minVotes ?? MIN_VOTES;
  const allPapers = await loadBandgapTruth(dataRoot, version);
  const papers = options.limit === undefined ? allPapers : allPapers.slice(0, options.limit);
  const recorded = await Promise.all(names.map((name) => loadReplay(dataRoot, version, name, allPapers)));
  const texts = await bandgapTextFiles(dataRoot, version, allPapers);
  const crossDependencies = { sameMaterial: dependencies.sameMaterial, toSI: dependencies.toSI, ground: dependencies.ground };

  const verifiedCases: RecordedCase[] = [];
  const withoutAttributionCases: RecordedCase[] = [];
  const withoutFactCheckCases: RecordedCase[] = [];
  const agreedCases: RecordedCase[] = [];
  const counts = { clusters: 0, candidates: 0, verified: 0, rejected: 0, unattributed: 0, needsReview: 0 };
  for (const [position, paper] of papers.entries()) {
    const id = `${paper.index}/${paper.doi}`;
    options.progress?.(`[${position + 1}/${papers.length}] ${id}`);
    const answers = recorded.flatMap((byPaper) => (byPaper.get(paper.index) ?? []).map(recordedToTriplet));
    const path = texts.get(paper.index);
    if (!path) throw new Error(`bandgap-200 ${version}: no text file for paper ${paper.index}`);
    const capture = () => dependencies.capture(path);
    const vote = await votePaper(answers, capture, crossDependencies, minVotes);
    const verified = vote.records.filter((record) => record.status === 'verified');
    const rejected = vote.records.filter((record) => record.status === 'rejected');
    // Candidates are the clusters with enough votes, whatever the gate made of them.
    const agreed = vote.withoutAttribution.filter((record) => record.status !== 'needs_review');
    counts.clusters += vote.records.length;
    counts.candidates += agreed.length;
    counts.verified += verified.length;
    counts.rejected += rejected.length;
    counts.unattributed += agreed.length - verified.length - rejected.length;
    counts.needsReview += vote.records.length - agreed.length;
    const predictions = (records: VerificationRecord[]) => records.map((record) => predictionFromTriplet(record.triplet, record.status));
    const definedAliases = definedAliasesOf(await readRegularFile(path, 'utf8'));
    verifiedCases.push({ paper: id, truths: paper.truths, predictions: predictions(verified), definedAliases });
    withoutAttributionCases.push({
      paper: id,
      truths: paper.truths,
      predictions: predictions(vote.withoutAttribution.filter((record) => record.status === 'verified')),
      definedAliases,
    });
    withoutFactCheckCases.push({
      paper: id,
      truths: paper.truths,
      predictions: predictions(vote.withoutFactCheck.filter((record) => record.status === 'verified')),
      definedAliases,
    });
    agreedCases.push({ paper: id, truths: paper.truths, predictions: predictions(agreed), definedAliases });
  }

  const label = `vote(${names.join(',')})`;
  const asEvaluation = (cases: RecordedCase[], replay: string): BandgapEvaluation => ({
    dataset: 'bandgap-200',
    split: bandgapSplit(papers),
    version,
    replay,
    ...scoreTriplets(cases, dependencies.scorer, 'verified'),
  });
  const tools: BandgapEvaluation[] = [];
  for (const name of names) {
    tools.push(
      await evaluateBandgap({
        dataRoot,
        version,
        source: { kind: 'replay', name },
        ...(options.limit === undefined ? {} : { limit: options.limit }),
        dependencies: dependencies.scorer,
      }),
    );
  }
  return {
    verified: asEvaluation(verifiedCases, label),
    verifiedWithoutAttribution: asEvaluation(withoutAttributionCases, `${label} without attribution`),
    verifiedWithoutFactCheck: asEvaluation(withoutFactCheckCases, `${label} without fact check`),
    agreed: asEvaluation(agreedCases, `${label} agreed, ungrounded`),
    tools,
    counts,
    minVotes,
  };
}

/**
 * Rows for `scoreTable` (`src/eval/report-table.ts`): each tool alone, the agreed set before
 * grounding, the verified set without the attribution check, then the verified set — the
 * side-by-side table `--replay-vote` prints.
 */
export function replayVoteRows(result: ReplayVoteEvaluation): ScoreRow[] {
  return [...result.tools, result.agreed, result.verifiedWithoutAttribution, result.verifiedWithoutFactCheck, result.verified].map(
    (evaluation) => ({
      name: evaluation.replay ?? evaluation.engine ?? '?',
      version: evaluation.version,
      n: evaluation.n,
      strict: evaluation.strict,
      lenient: evaluation.lenient,
      conditions: evaluation.conditions,
    }),
  );
}
