/**
 * `assay eval cornell-tc`: answer each dev-set material from a local reference table (by
 * default the full SuperCon Tc/Tcn export) and score the answers 0/1/2 (docs/EVAL.md).
 *
 * The dev set's rows are rows of that same SuperCon table, so answering from the whole table is
 * an oracle (mean score 2.00). Two setups, named in the result's `setup`:
 * - `leave-one-out` (default): each question is answered without its own row(s) — the rows
 *   written exactly as its material (SuperCon writes each material once, so this is the row the
 *   question was drawn from) — and without every row of its reference code (`refno`, the paper
 *   the question came from), so a same-paper row written differently cannot answer either. What
 *   is left is precedent from other papers. The table is parsed and indexed once; each question
 *   only filters the rows its lookup finds (`skipRow`).
 * - `oracle-full-table`: the whole table; it measures the lookup (material matching, class and
 *   value reading, grounding), not precedent search.
 * `ownRowsOnly` gives the figures with only the question's own row(s) left out (its reference
 * kept): the gap to the headline is what same-paper rows would leak. The `variants` figures ask
 * each question again with its material rewritten as papers write them (`materialVariants`:
 * element order, Unicode subscripts, 1 subscripts, dopant variable) under the same setup: they
 * measure whether the matching holds up, one figure per way of writing.
 */
import { readRegularFile } from '../../capture/node/regular-file';
import { parse } from 'csv-parse/sync';
import { answerFromReferenceTable } from '../../precedent/answer-from-reference-table';
import { parseReferenceTable, tableLines, type ReferenceRow, type ReferenceTable } from '../../precedent/reference-table';
import type { PrecedentAnswer } from '../../precedent/precedent-answer';
import type { Prf, PrfFigures, StrictAndLenient } from '../rescorable';
import { cornellTcFolder, defaultReferencePath, parseCornellTcDevSet, type CornellTcQuestion } from './cornell-tc-dataset';
import { answerGrounded, CORNELL_TC_TOLERANCES, scorePrecedent, type PrecedentScore } from './cornell-tc-score';
import { MATERIAL_VARIANT_KINDS, materialVariants, type MaterialVariantKind } from './material-variants';
import {
  precedentPrediction,
  precedentStrictAndLenient,
  precedentTruth,
  type PrecedentPrediction,
  type PrecedentTruth,
} from './precedent-rescorable';
import { join } from 'node:path';

/** Which rows may answer a question (module comment). */
export type CornellTcSetup = 'leave-one-out' | 'oracle-full-table';

export interface CornellTcOptions {
  dataRoot: string;
  limit?: number;
  /** Another Tc/Tcn table (same columns); default the SuperCon table of the data root. */
  referencePath?: string;
  /** Material equality passed to the answerer (default: `sameMaterial` at rtol 1e-3). */
  sameMaterial?: (a: string, b: string) => boolean;
  /** Default `leave-one-out` (module comment). */
  setup?: CornellTcSetup;
}

/**
 * Figures of one way of answering. Means are over all questions; `groundedShare` is over answered
 * ones; `strict`/`lenient` are `precedentStrictAndLenient` (score 2 / score ≥ 1 as a match).
 */
export interface CornellTcFigures extends StrictAndLenient {
  /** Mean 0/1/2 score at 0.1%, any reported value of the class's kind may match. */
  meanScore: number;
  scoreCounts: Record<PrecedentScore, number>;
  /** Mean score at 0.1%, 1%, 10% (keys `0.1%`, `1%`, `10%`). */
  meanScoreAt: Record<string, number>;
  /** Mean score at 0.1% when only the headline value (highest Tc / lowest Tcn) counts. */
  meanScoreHeadline: number;
  /** Share of answers that are not Unknown. */
  coverage: number;
  /** Share of answered (not Unknown) answers whose every value quotes a real table row holding it, with its reference code. */
  groundedShare: number;
  /** Share of answered answers whose every value is grounded and cites a DOI (SuperCon rows carry none: 0 for the table). */
  groundedDoiShare: number;
  /** Share of answered answers whose every value is grounded and cites a reference code (SuperCon `refno`). */
  groundedCodeShare: number;
}

/** One way of rewriting the materials: the figures over the questions it applies to. */
export interface CornellTcVariantFigures extends CornellTcFigures {
  kind: MaterialVariantKind | 'all';
  /** Questions whose material this rewriting applies to (the means and shares are over these). */
  applicable: number;
  /** Of those, answered (not Unknown) when asked rewritten, and when asked as written. */
  found: number;
  plainFound: number;
  /** Mean 0/1/2 score over the same questions asked as written. */
  plainMeanScore: number;
  /** The rewritten materials that got no answer. */
  missed: string[];
}

export interface CornellTcMaterialResult {
  material: string;
  truth: { answer: 'Yes' | 'No'; kind: 'Tc' | 'Tcn'; value: number; refno: string };
  answer: 'Yes' | 'No' | 'Unknown';
  /** Headline value in K, when answered. */
  value?: number;
  /** Rows that answered. */
  rows: number;
  score: PrecedentScore;
  scoreHeadline: PrecedentScore;
  grounded: boolean;
  /** Table rows this question could not be answered from (0 under the oracle). */
  excludedRows: number;
  /** The answer with only the question's own row(s) left out. */
  ownRowsOnly: { answer: 'Yes' | 'No' | 'Unknown'; value?: number; score: PrecedentScore };
}

/** The top-level figures are the strict ones again (the headline), as every scoring run carries them. */
export interface CornellTcEvaluation extends CornellTcFigures, Prf {
  dataset: 'cornell-tc';
  split: 'dev';
  engine: 'reference-table';
  setup: CornellTcSetup;
  reference: string;
  n: number;
  tableRows: number;
  /** Rows left out per question under the setup: total over questions and the most for one. */
  excludedRows: { total: number; max: number };
  /** The same figures with only each question's exactly-written row(s) left out (its reference kept). */
  ownRowsOnly: CornellTcFigures;
  /** One per question (paper = question id `<refno>/<material>`), paired with `truths`. */
  predictions: PrecedentPrediction[];
  truths: PrecedentTruth[];
  /** Per way of rewriting (then `all` pooled), under the same setup. */
  variants: CornellTcVariantFigures[];
  perMaterial: CornellTcMaterialResult[];
}

function percentKey(tolerance: number): string {
  return `${Number((tolerance * 100).toPrecision(3))}%`;
}

/** Figures over paired questions and answers. */
export function cornellTcFigures(
  questions: readonly CornellTcQuestion[],
  answers: readonly PrecedentAnswer[],
  grounded: readonly boolean[],
): CornellTcFigures {
  const n = questions.length;
  const mean = (scores: number[]) => (n === 0 ? 0 : scores.reduce((total, score) => total + score, 0) / n);
  const scores = questions.map((question, index) => scorePrecedent(answers[index], question));
  const scoreCounts: Record<PrecedentScore, number> = { 0: 0, 1: 0, 2: 0 };
  const strictAndLenient = precedentStrictAndLenient(answers, scores);
  for (const score of scores) scoreCounts[score] += 1;
  const meanScoreAt: Record<string, number> = {};
  for (const tolerance of CORNELL_TC_TOLERANCES) {
    meanScoreAt[percentKey(tolerance)] = mean(questions.map((question, index) => scorePrecedent(answers[index], question, tolerance)));
  }
  const answered = answers
    .map((answer, index) => ({ answer, grounded: grounded[index] === true }))
    .filter(({ answer }) => answer.answer !== 'Unknown');
  const share = (cites: (value: PrecedentAnswer['values'][number]) => boolean) =>
    answered.length === 0 ? 0 : answered.filter((item) => item.grounded && item.answer.values.every(cites)).length / answered.length;
  return {
    meanScore: mean(scores),
    scoreCounts,
    meanScoreAt,
    meanScoreHeadline: mean(questions.map((question, index) => scorePrecedent(answers[index], question, CORNELL_TC_TOLERANCES[0], true))),
    coverage: n === 0 ? 0 : answered.length / n,
    groundedShare: answered.length === 0 ? 0 : answered.filter((item) => item.grounded).length / answered.length,
    groundedDoiShare: share((value) => value.reference.doi !== undefined),
    groundedCodeShare: share((value) => value.reference.code !== undefined),
    ...strictAndLenient,
  };
}

/** The question's own row(s): the rows written exactly as its material. */
function isOwnRow(question: CornellTcQuestion): (row: ReferenceRow) => boolean {
  return (row) => row.material === question.material;
}

/**
 * The rows `question` may not be answered from under `setup`: none for the oracle; for
 * leave-one-out its own row(s) and every row of its reference code (`refno`), when it has one.
 */
export function leftOutRows(question: CornellTcQuestion, setup: CornellTcSetup): ((row: ReferenceRow) => boolean) | undefined {
  if (setup === 'oracle-full-table') return undefined;
  const own = isOwnRow(question);
  return (row) => own(row) || (question.refno !== '' && row.code === question.refno);
}

/** How many rows of `table` `leftOut` removes for each question, from indexes built once (by code, by material). */
function excludedRowCounts(
  table: ReferenceTable,
  questions: readonly CornellTcQuestion[],
  leftOut: (question: CornellTcQuestion) => ((row: ReferenceRow) => boolean) | undefined,
): number[] {
  const byCode = new Map<string, ReferenceRow[]>();
  const byMaterial = new Map<string, ReferenceRow[]>();
  const add = (map: Map<string, ReferenceRow[]>, key: string, row: ReferenceRow) => {
    const list = map.get(key);
    if (list) list.push(row);
    else map.set(key, [row]);
  };
  for (const row of table.rows) {
    add(byCode, row.code, row);
    add(byMaterial, row.material, row);
  }
  return questions.map((question) => {
    const skip = leftOut(question);
    if (!skip) return 0;
    // Every row a leave-one-out predicate can remove shares the question's code or material.
    const candidates = new Set([...(byCode.get(question.refno) ?? []), ...(byMaterial.get(question.material) ?? [])]);
    return [...candidates].filter(skip).length;
  });
}

/**
 * Run the evaluation under `options.setup` (default leave-one-out). Rejects when the dev set or
 * the reference table is missing or malformed (messages from `parseCornellTcDevSet` /
 * `parseReferenceTable`).
 */
export async function evaluateCornellTc(options: CornellTcOptions): Promise<CornellTcEvaluation> {
  const setup = options.setup ?? 'leave-one-out';
  const devText = await readRegularFile(join(cornellTcFolder(options.dataRoot), 'SuperCon_Tc_Tcn_dev-set.csv'), 'utf8');
  let questions = parseCornellTcDevSet(devText);
  if (options.limit !== undefined) questions = questions.slice(0, options.limit);
  const referencePath = options.referencePath ?? defaultReferencePath(options.dataRoot);
  const tableText = await readRegularFile(referencePath, 'utf8');
  const table: ReferenceTable = parseReferenceTable(tableText);
  const lines = tableLines(tableText);
  const header = Object.keys((parse(tableText, { columns: true, to_line: 2 }) as Array<Record<string, string>>)[0] ?? {});
  const answerOptions = { source: 'SuperCon', ...(options.sameMaterial ? { sameMaterial: options.sameMaterial } : {}) };
  const ask = (material: string, skip: ((row: ReferenceRow) => boolean) | undefined) =>
    answerFromReferenceTable(material, table, skip ? { ...answerOptions, skipRow: skip } : answerOptions);
  const isGrounded = (answer: PrecedentAnswer) => answer.answer !== 'Unknown' && answerGrounded(answer, lines, header);

  const answers = questions.map((question) => ask(question.material, leftOutRows(question, setup)));
  const grounded = answers.map(isGrounded);
  const ownOnly = questions.map((question) => ask(question.material, isOwnRow(question)));
  const excluded = excludedRowCounts(table, questions, (question) => leftOutRows(question, setup));
  const ids = questions.map((question) => `${question.refno}/${question.material}`);

  const perMaterial = questions.map((question, index): CornellTcMaterialResult => {
    const answer = answers[index]!;
    const own = ownOnly[index]!;
    return {
      material: question.material,
      truth: { answer: question.truth, kind: question.kind, value: question.value, refno: question.refno },
      answer: answer.answer,
      ...(answer.values[0] ? { value: answer.values[0].value } : {}),
      rows: answer.values.length,
      score: scorePrecedent(answer, question),
      scoreHeadline: scorePrecedent(answer, question, CORNELL_TC_TOLERANCES[0], true),
      grounded: grounded[index]!,
      excludedRows: excluded[index]!,
      ownRowsOnly: { answer: own.answer, ...(own.values[0] ? { value: own.values[0].value } : {}), score: scorePrecedent(own, question) },
    };
  });
  const figures = cornellTcFigures(questions, answers, grounded);
  const headline: PrfFigures = figures.strict;
  return {
    dataset: 'cornell-tc',
    split: 'dev',
    engine: 'reference-table',
    setup,
    reference: referencePath,
    n: questions.length,
    tableRows: table.rows.length,
    excludedRows: { total: excluded.reduce((total, count) => total + count, 0), max: Math.max(0, ...excluded) },
    precision: headline.precision,
    recall: headline.recall,
    f1: headline.f1,
    ...figures,
    ownRowsOnly: cornellTcFigures(questions, ownOnly, ownOnly.map(isGrounded)),
    variants: variantFigures(questions, answers, (material, question) => ask(material, leftOutRows(question, setup)), isGrounded),
    perMaterial,
    predictions: questions.map((question, index) => precedentPrediction(ids[index]!, question.material, answers[index]!)),
    truths: questions.map((question, index) =>
      precedentTruth(ids[index]!, [question.material], question.truth, question.kind, [question.value]),
    ),
  };
}

/**
 * Ask every question again under each rewriting of its material (`materialVariants`) with
 * `answer`, and give one `CornellTcVariantFigures` per rewriting kind, then `all` pooled (a
 * question counts once per applicable kind there). `plainAnswers` are the answers to the
 * materials as written, paired with `questions`; `answer` gets the question asked, so a setup can
 * leave its rows out.
 */
export function variantFigures(
  questions: readonly CornellTcQuestion[],
  plainAnswers: readonly PrecedentAnswer[],
  answer: (material: string, question: CornellTcQuestion) => PrecedentAnswer,
  grounded: (answer: PrecedentAnswer) => boolean,
): CornellTcVariantFigures[] {
  const asked = questions.flatMap((question, index) =>
    materialVariants(question.material).map((variant) => ({
      kind: variant.kind,
      material: variant.material,
      question,
      plain: plainAnswers[index]!,
      answer: answer(variant.material, question),
    })),
  );
  const figures = (kind: MaterialVariantKind | 'all', items: typeof asked): CornellTcVariantFigures => {
    const answers = items.map((item) => item.answer);
    const plain = items.map((item) => item.plain);
    const qs = items.map((item) => item.question);
    return {
      kind,
      applicable: items.length,
      found: answers.filter((item) => item.answer !== 'Unknown').length,
      plainFound: plain.filter((item) => item.answer !== 'Unknown').length,
      plainMeanScore: cornellTcFigures(qs, plain, plain.map(grounded)).meanScore,
      missed: items.filter((item) => item.answer.answer === 'Unknown').map((item) => item.material),
      ...cornellTcFigures(qs, answers, answers.map(grounded)),
    };
  };
  return [
    ...MATERIAL_VARIANT_KINDS.map((kind) =>
      figures(
        kind,
        asked.filter((item) => item.kind === kind),
      ),
    ),
    figures('all', asked),
  ];
}

/**
 * Markdown tables: the headline figures (the setup, then only the own row(s) left out; "grounded"
 * split into answers citing DOIs and answers citing reference codes; strict and lenient
 * precision / recall), then one row per rewriting of the materials, with the same questions
 * asked as written beside it and the rewritings missed.
 */
export function cornellTcTable(result: CornellTcEvaluation): string {
  const percent = (ratio: number) => `${(ratio * 100).toFixed(1)}%`;
  const prf = (figures: PrfFigures) => `${percent(figures.precision)} / ${percent(figures.recall)}`;
  const counts = (figures: CornellTcFigures) => `${figures.scoreCounts[0]} / ${figures.scoreCounts[1]} / ${figures.scoreCounts[2]}`;
  const row = (name: string, figures: CornellTcFigures) =>
    `| ${name} | ${result.n} | ${figures.meanScore.toFixed(2)} | ${figures.meanScoreHeadline.toFixed(2)} | ${Object.values(
      figures.meanScoreAt,
    )
      .map((score) => score.toFixed(2))
      .join(
        ' / ',
      )} | ${counts(figures)} | ${percent(figures.coverage)} | ${percent(figures.groundedShare)} | ${percent(figures.groundedDoiShare)} / ${percent(figures.groundedCodeShare)} | ${prf(figures.strict)} | ${prf(figures.lenient)} |`;
  const variantRow = (figures: CornellTcVariantFigures) =>
    `| ${figures.kind} | ${figures.applicable} | ${figures.found} (${figures.plainFound}) | ${figures.meanScore.toFixed(2)} (${figures.plainMeanScore.toFixed(2)}) | ${counts(figures)} | ${percent(figures.coverage)} | ${percent(figures.groundedShare)} | ${figures.kind === 'all' ? '' : figures.missed.join(', ')} |`;
  return [
    '| cornell-tc (dev) | n | mean score | headline only | at 0.1% / 1% / 10% | scores 0 / 1 / 2 | coverage | grounded | grounded by DOI / by reference code | strict P / R | lenient P / R |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    row(result.setup, result),
    row('own row(s) only left out', result.ownRowsOnly),
    '',
    `Materials rewritten as papers write them, ${result.setup} (as written in brackets):`,
    '',
    '| rewriting | applicable | found (as written) | mean score (as written) | scores 0 / 1 / 2 | coverage | grounded | missed |',
    '|---|---|---|---|---|---|---|---|',
    ...result.variants.map(variantRow),
    '',
  ].join('\n');
}
