/**
 * `assay eval bandgap-200`: one recorded tool (`--replay NAME`) or engine (`--engine NAME`), every
 * recorded tool and engine (`--all-replays`), a vote of recorded tools through the gate
 * (`--replay-vote A,B,C`), or one engine on the odd- and even-indexed halves (`--halves`), on the
 * pub or arXiv texts (`--version`), scored as triplets (src/eval/triplet-scorer.ts).
 */
import type { Article } from '../../contracts/article';
import type { Triplet } from '../../contracts/triplet';
import { defineEvaluator, EvalUsageError, type EvalReport, type EvaluatorContext } from '../evaluator';
import type { ScoreRow } from '../report-table';
import type { ScorerDependencies } from '../triplet-scorer-types';
import { BANDGAP_VERSIONS, REPLAY_NAMES, type BandgapVersion } from './bandgap-dataset';
import type { BandgapEvaluation, BandgapSource } from './bandgap-evaluation';

/**
 * The versions `--version` names (default `pub`); `both` only where `allowBoth` (a run over every
 * tool). Throws `EvalUsageError` on another value.
 */
export function parseBandgapVersions(text: string | undefined, allowBoth: boolean): BandgapVersion[] {
  const value = text ?? 'pub';
  if (value === 'both' && allowBoth) return [...BANDGAP_VERSIONS];
  if ((BANDGAP_VERSIONS as readonly string[]).includes(value)) return [value as BandgapVersion];
  throw new EvalUsageError(`--version must be pub or arxiv${allowBoth ? ' (or both, with --all-replays)' : ''}, got "${value}"`);
}

/** The distinct `split`s of several results, joined by "," ("dev"). */
function splitsOf(results: readonly { split: string }[]): string {
  return [...new Set(results.map((result) => result.split))].join(',');
}

function toRow(result: BandgapEvaluation): ScoreRow {
  return { name: result.replay ?? result.engine ?? '?', ...result };
}

/** A result without its per-paper rows and tolerance table, as the runs over several tools print it. */
function summary(evaluation: BandgapEvaluation) {
  const { papers: _papers, at: _at, ...rest } = evaluation;
  return rest;
}

const FLAGS = {
  version: {
    type: 'string',
    value: 'pub|arxiv|both',
    help: 'which texts the tools read (default pub; both with --all-replays or --replay-vote)',
  },
  replay: {
    type: 'string',
    value: 'NAME',
    help: `a recorded tool's output: ${REPLAY_NAMES.join(', ')}`,
    refusal: 'has no recorded tools to replay',
  },
  'all-replays': { type: 'boolean', help: 'every recorded tool and engine, one row each', refusal: 'has no recorded tools to replay' },
  'replay-vote': { type: 'string', value: 'A,B,C', help: 'two or more recorded tools voting, their agreed answers through the gate' },
  halves: { type: 'boolean', help: 'one engine run scored on the odd- and even-indexed papers side by side' },
} as const;

type BandgapContext = EvaluatorContext<typeof FLAGS>;

export const bandgapEvaluator = defineEvaluator({
  name: 'bandgap-200',
  summary: 'band gaps of 200 papers (pub and arXiv texts) with recorded tools to replay, scored as triplets',
  flags: FLAGS,
  needs: { engine: 'extractor', texts: 'data-root' },
  async run(context): Promise<EvalReport> {
    const { values } = context;
    const scorer = await context.scorer();
    if (values.halves) return runHalves(context, scorer);
    if (values['replay-vote'] !== undefined) return runReplayVote(context, scorer);
    if (values['all-replays']) return runAllReplays(context, scorer);
    const [version] = parseBandgapVersions(values.version, false) as [BandgapVersion];
    if (values.replay && values.engine) throw new EvalUsageError('give --replay or --engine, not both');
    let source: BandgapSource;
    if (values.replay) {
      if (!REPLAY_NAMES.includes(values.replay))
        throw new EvalUsageError(`unknown replay "${values.replay}"; known: ${REPLAY_NAMES.join(', ')}`);
      source = { kind: 'replay', name: values.replay };
    } else {
      const name = values.engine ?? 'rules';
      const load = context.engines[name];
      if (!load)
        throw new EvalUsageError(`engine "${name}" is not available in this build; use --replay NAME (${REPLAY_NAMES.join(', ')})`);
      source = { kind: 'engine', name, ...(await load()), capture: context.capture };
    }
    const [{ evaluateBandgap }, { scoreTable }] = await Promise.all([import('./bandgap-evaluation'), import('../report-table')]);
    const result = await evaluateBandgap({
      dataRoot: context.dataRoot,
      version,
      source,
      limit: context.limit,
      dependencies: scorer,
      progress: context.progress,
    });
    return { json: { ...result, ...context.matrixTotals() }, markdown: scoreTable([toRow(result)]) };
  },
});

/** `--all-replays`: every recorded tool, then every engine of this build, per version. */
async function runAllReplays(context: BandgapContext, scorer: ScorerDependencies): Promise<EvalReport> {
  const { values, dataRoot, limit, progress } = context;
  const [{ evaluateBandgap }, { scoreTable }] = await Promise.all([import('./bandgap-evaluation'), import('../report-table')]);
  const results: BandgapEvaluation[] = [];
  for (const version of parseBandgapVersions(values.version, true)) {
    for (const name of REPLAY_NAMES) {
      progress(`assay eval: ${version} ${name}`);
      results.push(await evaluateBandgap({ dataRoot, version, source: { kind: 'replay', name }, limit, dependencies: scorer }));
    }
    for (const [name, load] of Object.entries(context.engines)) {
      results.push(
        await evaluateBandgap({
          dataRoot,
          version,
          source: { kind: 'engine', name, ...(await load()), capture: context.capture },
          limit,
          dependencies: scorer,
          progress,
        }),
      );
    }
  }
  return {
    json: { dataset: context.dataset, split: splitsOf(results), results: results.map(summary) },
    markdown: scoreTable(results.map(toRow)),
  };
}

/** `--replay-vote A,B,C`: the recorded tools' answers clustered, voted and put through the whole gate. */
async function runReplayVote(context: BandgapContext, scorer: ScorerDependencies): Promise<EvalReport> {
  const { values, dataRoot, limit, progress } = context;
  if (values.replay || values.engine || values['all-replays'])
    throw new EvalUsageError('give --replay-vote A,B,C on its own, without --replay, --engine or --all-replays');
  const names = (values['replay-vote'] ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const unknown = names.filter((name) => !REPLAY_NAMES.includes(name));
  if (unknown.length || names.length < 2)
    throw new EvalUsageError(`--replay-vote takes two or more replay names from: ${REPLAY_NAMES.join(', ')}`);
  const [{ evaluateReplayVote, replayVoteRows }, { scoreTable }] = await Promise.all([import('../replay-vote'), import('../report-table')]);
  const voteDependencies = await replayVoteDependencies();
  const results = [];
  for (const version of parseBandgapVersions(values.version, true)) {
    progress(`assay eval: ${version} vote(${names.join(',')})`);
    results.push(
      await evaluateReplayVote({
        dataRoot,
        version,
        names,
        limit,
        dependencies: { scorer, capture: context.capture, ...voteDependencies },
        progress,
      }),
    );
  }
  return {
    json: {
      dataset: context.dataset,
      split: splitsOf(results.map((result) => result.verified)),
      replayVote: names,
      results: results.map((result) => ({
        verified: summary(result.verified),
        verifiedWithoutAttribution: summary(result.verifiedWithoutAttribution),
        verifiedWithoutFactCheck: summary(result.verifiedWithoutFactCheck),
        agreed: summary(result.agreed),
        tools: result.tools.map(summary),
        counts: result.counts,
        minVotes: result.minVotes,
      })),
    },
    markdown: scoreTable(results.flatMap(replayVoteRows)),
  };
}

/** The whole gate (grounding, attribution, fact check), material equality and SI conversion for `--replay-vote`, loaded on use. */
async function replayVoteDependencies() {
  const [{ gateFact }, { defaultFactCheckDependencies }, { sameMaterial }, { toSI }] = await Promise.all([
    import('../../verify/grounding-gate'),
    import('../../verify/fact-check'),
    import('../../text/materials'),
    import('../../text/units'),
  ]);
  // One catalogue and one article index cache for the whole replay: each paper is indexed once.
  const gate = defaultFactCheckDependencies();
  return {
    ground: (triplet: Triplet, article: Article) => gateFact(triplet, article, gate),
    sameMaterial: (a: string, b: string) => sameMaterial(a, b),
    toSI,
  };
}

/**
 * `--halves`: one engine (`--engine NAME`, default `rules`) on the odd- and even-indexed halves
 * of the dev split side by side (src/eval/bandgap/bandgap-halves.ts). JSON `{ dataset, split,
 * version, engine, halving, all, halves: [{ name: 'odd', …result }, { name: 'even', … }] }`.
 */
async function runHalves(context: BandgapContext, scorer: ScorerDependencies): Promise<EvalReport> {
  const { values } = context;
  if (values.replay || values['all-replays'] || values['replay-vote'] !== undefined)
    throw new EvalUsageError('--halves scores one engine run (--engine NAME); --replay, --all-replays and --replay-vote do not apply');
  const [version] = parseBandgapVersions(values.version, false) as [BandgapVersion];
  const { name, load } = context.engine();
  const [{ evaluateBandgapHalves }, { scoreTable }] = await Promise.all([import('./bandgap-halves'), import('../report-table')]);
  const result = await evaluateBandgapHalves({
    dataRoot: context.dataRoot,
    version,
    source: { kind: 'engine', name, ...(await load()), capture: context.capture },
    limit: context.limit,
    dependencies: scorer,
    progress: context.progress,
  });
  return {
    json: { ...result, ...context.matrixTotals() },
    markdown: scoreTable([
      { ...result.all, name: `${name} (all)` },
      ...result.halves.map((half) => ({ ...half, name: `${name} (${half.name})` })),
    ]),
  };
}
