/**
 * `assay eval supermat-chain`: the whole chain from PDFs to a precedent answer, with no oracle.
 * 1. An engine (`--engine`, default rules) extracts Tc from the SuperMat PDFs of the data root
 *    (`fixtures/pdf/supercon/supermat__<stem>.pdf`, the papers `assay eval supermat` scores);
 *    the triplets become the reader's dataset rows (`chainRows`: DOI or title, material, Tc,
 *    evidence quote; verified when grounded).
 * 2. Each SuperMat 2.0 material of those papers (`chainQuestions`) is asked "has it been
 *    reported to be superconducting, at what Tc?" with `checkPrecedent` — the function behind
 *    `assay precedent` — given that dataset alone (no table, no literature, no model).
 * 3. The answers are scored 0/1/2 as cornell-tc scores them (docs/EVAL.md, "Precedent (0/1/2)":
 *    the truth is Yes; 2 when a cited Tc is within 0.1% of one the paper annotates), with
 *    coverage, strict/lenient (`precedentStrictAndLenient`) and the share of answers citing the
 *    right paper: a SuperMat paper that annotates the material.
 * A value cites its paper by DOI when the capture found one, else by title; it is traced back to
 * the PDF by that DOI or title.
 */
import { readdir } from 'node:fs/promises';
import { readRegularFile } from '../../capture/node/regular-file';
import { join } from 'node:path';
import type { Article } from '../../contracts/article';
import type { DatasetTriplet } from '../../contracts/dataset';
import { checkPrecedent, type CheckedValue, type PrecedentCheck } from '../../precedent/check-precedent';
import type { PrecedentAnswer, PrecedentValue } from '../../precedent/precedent-answer';
import { CORNELL_TC_TOLERANCES, scorePrecedent, type PrecedentScore } from '../cornell-tc/cornell-tc-score';
import {
  precedentPrediction,
  precedentStrictAndLenient,
  precedentTruth,
  type PrecedentPrediction,
  type PrecedentTruth,
} from '../cornell-tc/precedent-rescorable';
import type { EngineSetup } from '../extractor';
import type { Prf, StrictAndLenient } from '../rescorable';
import { parseSupermatTruth, TC, type SupermatPaper } from '../supermat/supermat-truth';
import { chainQuestions, chainRows, type ChainQuestion } from './supermat-chain-dataset';

export interface SupermatChainOptions {
  dataRoot: string;
  engine: { name: string } & EngineSetup;
  capture: (path: string) => Promise<Article>;
  /** First N papers (by file stem); the questions are those papers' materials. */
  limit?: number;
  progress?: (line: string) => void;
  /** Dates the dataset rows (default now). */
  now?: () => Date;
}

/** Figures over the questions; shares marked "answered" are over answers that are not Unknown. */
export interface SupermatChainFigures extends StrictAndLenient {
  meanScore: number;
  scoreCounts: Record<PrecedentScore, number>;
  /** Mean score at 0.1%, 1%, 10%. */
  meanScoreAt: Record<string, number>;
  coverage: number;
  /** Answered: some value cites a SuperMat paper that annotates the material. */
  rightPaperShare: number;
  /** Answered: the headline (highest) Tc cites such a paper. */
  rightPaperHeadlineShare: number;
  /** Answered: every value's quote is in the text of the paper it cites. */
  groundedShare: number;
  /** Answered: every value cites a DOI (else it cites a title). */
  doiShare: number;
}

export interface SupermatChainQuestionResult {
  material: string;
  papers: string[];
  values: number[];
  answer: PrecedentCheck['answer'];
  /** Headline Tc in K, when answered. */
  value?: number;
  score: PrecedentScore;
  /** Stems of the papers the values cite (traced by DOI or title). */
  cited: string[];
  rightPaper: boolean;
}

export interface SupermatChainEvaluation extends SupermatChainFigures, Prf {
  dataset: 'supermat-chain';
  split: 'dev';
  engine: string;
  /** Questions. */
  n: number;
  /** The dataset the engine built. */
  extracted: { papers: number; papersWithDoi: number; triplets: number; verifiedRows: number };
  /** Answer values dropped from scoring because their unit is not K. */
  valuesNotInKelvin: number;
  /** Truth records whose Tc text holds no number, and those whose unit is not a temperature. */
  unreadableRecords: number;
  unconvertedRecords: number;
  seconds: { extraction: number; answering: number };
  perQuestion: SupermatChainQuestionResult[];
  /** One per question (paper = the material, the question's id), paired with `truths`. */
  predictions: PrecedentPrediction[];
  truths: PrecedentTruth[];
}

/** The SuperMat papers with a PDF in the data root, by stem; rejects when the CSV or folder is missing. */
async function papersWithPdf(dataRoot: string): Promise<{ papers: SupermatPaper[]; pdfFolder: string }> {
  const truth = parseSupermatTruth(await readRegularFile(join(dataRoot, 'datasets', 'supermat', 'SuperMat-2.0.csv'), 'utf8'));
  const pdfFolder = join(dataRoot, 'fixtures', 'pdf', 'supercon');
  const stems = new Set((await readdir(pdfFolder)).filter((name) => /^supermat__.+\.pdf$/.test(name)).map((name) => name.slice(10, -4)));
  return { papers: truth.filter((paper) => stems.has(paper.stem)).sort((a, b) => a.stem.localeCompare(b.stem)), pdfFolder };
}

/** The check as a scorable `PrecedentAnswer`: its Tc/Tcn values in K (others dropped). */
function toPrecedentAnswer(check: PrecedentCheck): PrecedentAnswer {
  const values: PrecedentValue[] = check.values.flatMap((value) =>
    (value.kind === 'Tc' || value.kind === 'Tcn') && value.unit === 'K'
      ? [
          {
            kind: value.kind,
            value: value.value,
            unit: 'K' as const,
            reference: value.reference.doi ? { doi: value.reference.doi } : {},
            quote: value.quote,
          },
        ]
      : [],
  );
  return { answer: check.answer, values, sources: check.sources };
}

/** The best score over the question's Tc values (any may match, as cornell-tc's scorer allows); 1 or 0 by class when it has none. */
function scoreQuestion(answer: PrecedentAnswer, question: ChainQuestion, tolerance: number): PrecedentScore {
  const base = { material: question.material, refno: '', truth: 'Yes' as const, kind: 'Tc' as const };
  if (question.values.length === 0) return answer.answer === 'Yes' ? 1 : 0;
  return Math.max(...question.values.map((value) => scorePrecedent(answer, { ...base, value }, tolerance))) as PrecedentScore;
}

/**
 * Run the chain. Rejects when the SuperMat CSV or the PDF folder is missing, or when a capture or
 * the engine fails (a partial dataset is never scored as complete).
 */
export async function evaluateSupermatChain(options: SupermatChainOptions): Promise<SupermatChainEvaluation> {
  const { engine } = options;
  const selected = await papersWithPdf(options.dataRoot);
  const papers = options.limit === undefined ? selected.papers : selected.papers.slice(0, options.limit);
  const now = (options.now ?? (() => new Date()))();

  const extractionStart = performance.now();
  const rows: DatasetTriplet[] = [];
  const texts = new Map<string, string>();
  // A value cites a DOI or a title: either leads back to the stem(s) of the PDF it came from.
  const stemsOf = new Map<string, Set<string>>();
  let papersWithDoi = 0;
  let triplets = 0;
  for (const [position, paper] of papers.entries()) {
    options.progress?.(`[${position + 1}/${papers.length}] ${paper.stem}`);
    const article = await options.capture(join(selected.pdfFolder, `supermat__${paper.stem}.pdf`));
    const extracted = (await engine.extractor(article, { properties: [TC] })).filter((triplet) => triplet.property === TC);
    triplets += extracted.length;
    const grounded = (triplet: (typeof extracted)[number]) => engine.isGrounded?.(triplet, article) ?? false;
    rows.push(...chainRows(paper.stem, article, extracted, { engine: engine.name, grounded, now }));
    texts.set(paper.stem, article.text);
    if (article.doi) papersWithDoi += 1;
    for (const key of [article.doi ? `doi:${article.doi}` : undefined, `title:${article.title}`]) {
      if (key) stemsOf.set(key, new Set([...(stemsOf.get(key) ?? []), paper.stem]));
    }
  }
  const extraction = (performance.now() - extractionStart) / 1000;

  const answeringStart = performance.now();
  const questions = chainQuestions(papers);
  const checks: PrecedentCheck[] = [];
  for (const question of questions) checks.push(await checkPrecedent({ material: question.material, property: TC }, { dataset: rows }));
  const answering = (performance.now() - answeringStart) / 1000;

  const citedStems = (value: CheckedValue): string[] => {
    const key = value.reference.doi ? `doi:${value.reference.doi}` : `title:${value.reference.title ?? ''}`;
    return [...(stemsOf.get(key) ?? [])];
  };
  const answers = checks.map(toPrecedentAnswer);
  const scores = questions.map((question, index) => scoreQuestion(answers[index]!, question, CORNELL_TC_TOLERANCES[0]));
  const perQuestion = questions.map((question, index): SupermatChainQuestionResult => {
    const check = checks[index]!;
    const cited = [...new Set(check.values.flatMap(citedStems))];
    return {
      material: question.material,
      papers: question.papers,
      values: question.values,
      answer: check.answer,
      ...(check.values[0] ? { value: check.values[0].value } : {}),
      score: scores[index]!,
      cited,
      rightPaper: cited.some((stem) => question.papers.includes(stem)),
    };
  });

  const n = questions.length;
  const answered = perQuestion.map((item, index) => ({ item, check: checks[index]! })).filter(({ item }) => item.answer !== 'Unknown');
  const shareOfAnswered = (holds: (entry: (typeof answered)[number]) => boolean) =>
    answered.length === 0 ? 0 : answered.filter(holds).length / answered.length;
  const quoteInCitedPaper = (value: CheckedValue) => citedStems(value).some((stem) => texts.get(stem)?.includes(value.quote));
  const scoreCounts: Record<PrecedentScore, number> = { 0: 0, 1: 0, 2: 0 };
  for (const score of scores) scoreCounts[score] += 1;
  const meanAt = (tolerance: number) =>
    n === 0 ? 0 : questions.reduce((total, question, index) => total + scoreQuestion(answers[index]!, question, tolerance), 0) / n;
  const strictAndLenient = precedentStrictAndLenient(answers, scores);
  return {
    dataset: 'supermat-chain',
    split: 'dev',
    engine: engine.name,
    n,
    extracted: { papers: papers.length, papersWithDoi, triplets, verifiedRows: rows.filter((row) => row.status === 'verified').length },
    valuesNotInKelvin: checks.reduce((total, check, index) => total + check.values.length - answers[index]!.values.length, 0),
    unreadableRecords: papers.reduce((total, paper) => total + paper.unreadable, 0),
    unconvertedRecords: questions.reduce((total, question) => total + question.unconverted, 0),
    seconds: { extraction, answering },
    precision: strictAndLenient.strict.precision,
    recall: strictAndLenient.strict.recall,
    f1: strictAndLenient.strict.f1,
    meanScore: meanAt(CORNELL_TC_TOLERANCES[0]),
    scoreCounts,
    meanScoreAt: Object.fromEntries(
      CORNELL_TC_TOLERANCES.map((tolerance) => [`${Number((tolerance * 100).toPrecision(3))}%`, meanAt(tolerance)]),
    ),
    coverage: n === 0 ? 0 : answered.length / n,
    rightPaperShare: shareOfAnswered(({ item }) => item.rightPaper),
    rightPaperHeadlineShare: shareOfAnswered(
      ({ item, check }) => check.values[0] !== undefined && citedStems(check.values[0]).some((stem) => item.papers.includes(stem)),
    ),
    groundedShare: shareOfAnswered(({ check }) => check.values.length > 0 && check.values.every(quoteInCitedPaper)),
    doiShare: shareOfAnswered(({ check }) => check.values.length > 0 && check.values.every((value) => value.reference.doi !== undefined)),
    ...strictAndLenient,
    perQuestion,
    predictions: questions.map((question, index) => precedentPrediction(question.material, question.material, answers[index]!)),
    truths: questions.map((question) => precedentTruth(question.material, question.aliases, 'Yes', 'Tc', question.values)),
  };
}

/** One Markdown table row of the chain's figures, with its header. */
export function supermatChainTable(result: SupermatChainEvaluation): string {
  const percent = (ratio: number) => `${(ratio * 100).toFixed(1)}%`;
  const { strict, lenient } = result;
  return [
    '| supermat-chain (dev) | papers | questions | mean score | at 0.1% / 1% / 10% | scores 0 / 1 / 2 | coverage | right paper (any / headline) | grounded | by DOI | strict P / R | lenient P / R |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
    `| ${result.engine} | ${result.extracted.papers} | ${result.n} | ${result.meanScore.toFixed(2)} | ${Object.values(result.meanScoreAt)
      .map((score) => score.toFixed(2))
      .join(
        ' / ',
      )} | ${result.scoreCounts[0]} / ${result.scoreCounts[1]} / ${result.scoreCounts[2]} | ${percent(result.coverage)} | ${percent(
      result.rightPaperShare,
    )} / ${percent(result.rightPaperHeadlineShare)} | ${percent(result.groundedShare)} | ${percent(result.doiShare)} | ${percent(strict.precision)} / ${percent(
      strict.recall,
    )} | ${percent(lenient.precision)} / ${percent(lenient.recall)} |`,
    '',
  ].join('\n');
}
