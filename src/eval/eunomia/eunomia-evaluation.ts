/**
 * `assay eval eunomia-water-stability` (alias `eunomia`): a model classifies the water stability
 * of each MOF of Eunomia case study 3 from the paper's evidence, and the answers are scored per
 * MOF (`eunomia-score.ts`).
 *
 * What the model reads: the full texts are not in the data root, so it reads the paper's
 * justification sentences as Eunomia's annotators recorded them (`EunomiaPaper.evidence`) and,
 * by default, the names of the MOFs the paper studies (`candidates: 'given'`), so every MOF —
 * the "Not provided" ones too, which no sentence mentions — is asked about. What is measured is
 * therefore the classification from the evidence; name pairing still decides which answer meets
 * which truth. With `candidates: 'none'` the model names the MOFs itself from the sentences.
 */
import { readRegularFile } from '../../capture/node/regular-file';
import pLimit from 'p-limit';
import { LlmError } from '../../llm/llm-port';
import type { EvalPrediction, EvalTruth, Prf } from '../rescorable';
import { eunomiaGroundTruthPath, parseEunomiaGroundTruth, type EunomiaPaper } from './eunomia-dataset';
import { scoreEunomia, type Confusion, type EunomiaCase, type EunomiaFigures, type EunomiaPaperScore } from './eunomia-score';
import type { ClassifiedMaterial, WaterStabilityClassification, WaterStabilityInput } from './water-stability-classifier';

/** The property name of the predictions and truths. */
export const WATER_STABILITY = 'water_stability';

/** Load the ground truth of the data root (first `limit` papers). Rejects when the file is missing or malformed. */
export async function loadEunomiaPapers(dataRoot: string, limit?: number): Promise<EunomiaPaper[]> {
  const papers = parseEunomiaGroundTruth(await readRegularFile(eunomiaGroundTruthPath(dataRoot), 'utf8'));
  return limit === undefined ? papers : papers.slice(0, limit);
}

export interface EunomiaEvaluationOptions {
  papers: readonly EunomiaPaper[];
  /** The engine's name for the report, e.g. "openai". */
  engine: string;
  /** One paper's classification (`classifyWaterStability` with the engine's port). */
  classify: (input: WaterStabilityInput) => Promise<WaterStabilityClassification>;
  /** `given` (default): the paper's MOF names are in the prompt; `none`: the model names them. */
  candidates?: 'given' | 'none';
  /** Papers classified at once; default 1. */
  concurrency?: number;
  progress?: (line: string) => void;
}

/** The top-level figures are the strict ones (the headline). */
export interface EunomiaEvaluation extends Prf {
  dataset: 'eunomia-water-stability';
  split: 'dev';
  engine: string;
  /** Papers and ground-truth MOFs scored. */
  n: number;
  mofs: number;
  strict: EunomiaFigures;
  lenient: EunomiaFigures & { threshold: number };
  protocol: { figure: 'lenient.accuracy'; accuracy: number; identifiedShare: number; description: string };
  confusion: Confusion;
  candidates: 'given' | 'none';
  /** Papers whose call failed (their truths still count, with no predictions). */
  failures: Array<{ paper: string; code: string; message: string }>;
  /** Predictions with a quote, and those whose quote is found in the paper's evidence. */
  quotes: { quoted: number; grounded: number };
  llm: { calls: number; promptTokens: number; completionTokens: number };
  scoring: string;
  papers: EunomiaPaperScore[];
  predictions: EvalPrediction[];
  truths: EvalTruth[];
}

const SCORING =
  'Per MOF, per paper. Names are paired greedily in prediction order (Eunomia eunomia/general.py match_MOF_names): strict pairs names ' +
  "equal after normalization (NFKC, dashes, white space, case); lenient pairs fuzzywuzzy token_sort_ratio > 80 (Eunomia's protocol). " +
  "A pair is right when its Stable/Unstable/Not provided label equals the truth. accuracy = right / paired (Eunomia's figure is " +
  'lenient.accuracy, with lenient.identifiedShare = paired / true MOFs); precision = right / predicted MOFs, recall = right / true MOFs.';

/** Text for comparison: NFKC, white space collapsed, lower case. */
const comparable = (text: string) => text.normalize('NFKC').replace(/\s+/g, ' ').trim().toLowerCase();

/** `verified` when the quote is found in the evidence, `needs_review` when not, `extracted` without a quote. */
function quoteStatus(material: ClassifiedMaterial, evidence: string): 'verified' | 'needs_review' | 'extracted' {
  const quote = comparable(material.quote);
  if (quote === '' || quote === 'not provided') return 'extracted';
  return evidence.includes(quote) ? 'verified' : 'needs_review';
}

/**
 * Classify every paper and score the answers. A paper whose call fails with an `LlmError` other
 * than `aborted` is listed in `failures` and scored with no predictions; an abort rejects.
 */
export async function evaluateEunomia(options: EunomiaEvaluationOptions): Promise<EunomiaEvaluation> {
  const candidates = options.candidates ?? 'given';
  const limit = pLimit(Math.max(1, options.concurrency ?? 1));
  const failures: EunomiaEvaluation['failures'] = [];
  const llm = { calls: 0, promptTokens: 0, completionTokens: 0 };
  let done = 0;
  const answers = await Promise.all(
    options.papers.map((paper) =>
      limit(async (): Promise<ClassifiedMaterial[]> => {
        try {
          const classification = await options.classify({
            doi: paper.doi,
            evidence: paper.evidence,
            candidates: candidates === 'given' ? paper.mofs.map((mof) => mof.name) : [],
          });
          llm.calls += classification.calls;
          llm.promptTokens += classification.usage.promptTokens;
          llm.completionTokens += classification.usage.completionTokens;
          return classification.materials;
        } catch (error) {
          if (!(error instanceof LlmError) || error.code === 'aborted') throw error;
          llm.calls += 1;
          llm.promptTokens += error.details.usage?.promptTokens ?? 0;
          llm.completionTokens += error.details.usage?.completionTokens ?? 0;
          failures.push({ paper: paper.id, code: error.code, message: error.message.split('\n')[0]! });
          return [];
        } finally {
          done += 1;
          options.progress?.(`[${done}/${options.papers.length}] ${paper.id}`);
        }
      }),
    ),
  );

  const order = new Map(options.papers.map((paper, index) => [paper.id, index]));
  failures.sort((a, b) => order.get(a.paper)! - order.get(b.paper)!);
  const cases: EunomiaCase[] = options.papers.map((paper, index) => ({
    paper: paper.id,
    predictions: answers[index]!.map((material) => ({ name: material.name, label: material.waterStability })),
    truths: paper.mofs,
  }));
  const score = scoreEunomia(cases);
  const predictions: EvalPrediction[] = options.papers.flatMap((paper, index) => {
    const evidence = comparable(paper.evidence.join(' '));
    return answers[index]!.map((material) => ({
      paper: paper.id,
      material: material.name,
      property: WATER_STABILITY,
      value: material.waterStability,
      unit: '',
      quote: material.quote === '' ? null : material.quote,
      status: quoteStatus(material, evidence),
    }));
  });
  const truths: EvalTruth[] = options.papers.flatMap((paper) =>
    paper.mofs.map((mof) => ({ paper: paper.id, aliases: [mof.name], property: WATER_STABILITY, value: mof.label, unit: '' })),
  );
  const quoted = predictions.filter((prediction) => prediction.status !== 'extracted');
  return {
    dataset: 'eunomia-water-stability',
    split: 'dev',
    engine: options.engine,
    n: options.papers.length,
    mofs: truths.length,
    precision: score.strict.precision,
    recall: score.strict.recall,
    f1: score.strict.f1,
    strict: score.strict,
    lenient: score.lenient,
    protocol: {
      figure: 'lenient.accuracy',
      accuracy: score.lenient.accuracy,
      identifiedShare: score.lenient.identifiedShare,
      description: "Eunomia's figures: ternary accuracy over MOFs paired by token_sort_ratio > 80, and the share of MOFs paired",
    },
    confusion: score.confusion,
    candidates,
    failures,
    quotes: { quoted: quoted.length, grounded: quoted.filter((prediction) => prediction.status === 'verified').length },
    llm,
    scoring: SCORING,
    papers: score.papers,
    predictions,
    truths,
  };
}

const percent = (ratio: number) => `${(100 * ratio).toFixed(1)}%`;

/** The Markdown report of `assay eval eunomia-water-stability` without `--json`: one row per scoring, and the protocol figure. */
export function eunomiaTable(result: EunomiaEvaluation): string {
  const row = (name: string, figures: EunomiaFigures) =>
    `| ${name} | ${percent(figures.accuracy)} | ${figures.matched}/${figures.identified} | ${percent(figures.identifiedShare)} | ` +
    `${percent(figures.precision)} | ${percent(figures.recall)} | ${percent(figures.f1)} |`;
  return [
    `eunomia-water-stability (dev), engine ${result.engine}: ${result.n} papers, ${result.mofs} MOFs, ${result.failures.length} failed calls`,
    '',
    '| scoring | accuracy | right/paired | identified | precision | recall | F1 |',
    '|---|---|---|---|---|---|---|',
    row('strict (exact name)', result.strict),
    row(`lenient (token_sort_ratio > ${result.lenient.threshold}, Eunomia)`, result.lenient),
    '',
    `Eunomia's figure: lenient accuracy ${percent(result.protocol.accuracy)} over ${percent(result.protocol.identifiedShare)} of MOFs identified.`,
    '',
  ].join('\n');
}
