/**
 * `assay eval <dataset> --context`: context recall of today's passages, the retrieval path and the
 * recall-versus-budget curve (src/eval/context/), on bandgap-200 (`--version pub|arxiv`),
 * supermat, polyie or sofc-exp (all its papers, with properties a reader defines:
 * src/eval/sofc-exp/sofc-exp-evidence.ts). JSON `{ contextRecall, locatable, inContext, truths,
 * promptTokensPerCall, callsPerPaper, retrieval, curve, … }`.
 */
import { parseBandgapVersions } from '../bandgap/bandgap-evaluator';
import type { BandgapVersion } from '../bandgap/bandgap-dataset';
import { CONTEXT_DATASETS } from '../evidence/evidence-dataset-names';
import { defineMeasure, EvalUsageError } from '../evaluator';

/** Chunk tokens per call of the retrieval path by preset: the browser preset's 1,200 keep a call near 1,500 prompt tokens with the instructions; the paper preset's 3,000 match its 12,000-character passage cap. */
const CALL_TOKENS: Record<string, number> = { browser: 1200, paper: 3000 };

/** MMR's k values and per-call token budgets of the recall-versus-budget curve. */
const CURVE_K = [3, 6, 9, 12, 18, Infinity];
const CURVE_TOKENS = [600, 1200, 2400];

export const contextMeasure = defineMeasure({
  flag: 'context',
  summary: 'what the models read: context recall of the passages and the retrieval path (no model)',
  flags: {
    version: { type: 'string', value: 'pub|arxiv', help: 'bandgap-200 only: which texts (default pub)' },
    preset: { type: 'string', value: 'browser|paper', help: 'the preset whose reading is measured (default browser)' },
    k: { type: 'string', value: 'N', help: 'passages MMR picks per call (default 9, as Eunomia)' },
    'call-tokens': { type: 'string', value: 'N', help: 'chunk tokens per call (default 1200 browser, 3000 paper)' },
    'reading-calls': { type: 'string', value: 'N', help: "the preset's cap on reading calls, for a stress test" },
  },
  datasets: CONTEXT_DATASETS,
  async run({ dataset, values, dataRoot, limit, capture, scorer, progress }) {
    if (values.replay || values.engine || values['all-replays'] || values['replay-vote'] || values.attribution)
      throw new EvalUsageError(
        '--context measures what the models would read; --replay, --engine, --all-replays and --attribution do not apply',
      );
    if (values.version !== undefined && dataset !== 'bandgap-200') throw new EvalUsageError('--version applies to bandgap-200 only');
    const [version] = parseBandgapVersions(values.version, false) as [BandgapVersion];
    const presetName = values.preset ?? 'browser';
    const [{ presetByName, retrievalOf }, { loadPropertySchemas }, { tokenCounterFor }, { runContextEvaluation }] = await Promise.all([
      import('../../matrix/presets'),
      import('../../properties'),
      import('../../llm/tokenizers'),
      import('./context-evaluation'),
    ]);
    const named = presetByName(presetName);
    if (!named) throw new EvalUsageError(`unknown preset "${presetName}"; presets: paper, browser`);
    const readingCalls = values['reading-calls'] === undefined ? undefined : Number(values['reading-calls']);
    if (readingCalls !== undefined && !(Number.isInteger(readingCalls) && readingCalls > 0))
      throw new EvalUsageError(`--reading-calls takes a positive integer, not "${values['reading-calls']}"`);
    // A cap of n reading calls reads a paper as the preset's own cap reads one (cap ÷ n) times as long.
    const preset = readingCalls === undefined ? named : { ...named, retrieval: { ...retrievalOf(named), maxReadingCalls: readingCalls } };
    const k = values.k === undefined ? 9 : Number(values.k);
    if (!(Number.isInteger(k) && k > 0)) throw new EvalUsageError(`--k takes a positive integer, not "${values.k}"`);
    const callTokens = values['call-tokens'] === undefined ? CALL_TOKENS[preset.name]! : Number(values['call-tokens']);
    if (!(Number.isInteger(callTokens) && callTokens > 0))
      throw new EvalUsageError(`--call-tokens takes a positive integer, not "${values['call-tokens']}"`);
    const counter = await tokenCounterFor('Qwen2.5-1.5B-Instruct-q4f16_1-MLC');
    const report = await runContextEvaluation({
      dataset: dataset as (typeof CONTEXT_DATASETS)[number],
      dataRoot,
      version,
      limit,
      capture,
      schemas: loadPropertySchemas(),
      progress,
      preset,
      convert: (await scorer()).convert,
      count: counter,
      budget: { k, maxTokensPerCall: callTokens },
      curve: [
        ...CURVE_K.map((curveK) => ({ k: curveK, maxTokensPerCall: callTokens })),
        ...CURVE_TOKENS.map((tokens) => ({ k, maxTokensPerCall: tokens })),
      ],
    });
    return { json: report, markdown: '```json\n' + JSON.stringify(report, null, 2) + '\n```\n' };
  },
});
