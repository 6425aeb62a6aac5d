/**
 * `assay eval cornell-tc`: answer each dev-set material from a local reference table (by
 * default the full SuperCon Tc/Tcn export) and score the answers 0/1/2 (docs/EVAL.md).
 *
 * Caution on meaning: the dev set's rows are rows of that same SuperCon table, so the lookup is
 * close to an oracle; the figures measure the lookup (material matching, class and value
 * reading, grounding), not precedent search. The `leaveOut` variant removes, for each question,
 * the table row(s) written exactly as the question's material, so only rows written differently
 * (element order, `-d` oxygen suffix) can answer: it measures how much the material matching
 * adds, and is not comparable to a search over papers either.
 */
import { readFile } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import { answerFromReferenceTable } from '../../precedent/answer-from-reference-table';
import { parseReferenceTable, tableLines, type ReferenceTable } from '../../precedent/reference-table';
import type { PrecedentAnswer } from '../../precedent/precedent-answer';
import { cornellTcFolder, defaultReferencePath, parseCornellTcDevSet, type CornellTcQuestion } from './cornell-tc-dataset';
import { answerGrounded, CORNELL_TC_TOLERANCES, scorePrecedent, type PrecedentScore } from './cornell-tc-score';
import { join } from 'node:path';

export interface CornellTcOptions {
  dataRoot: string;
  limit?: number;
  /** Another Tc/Tcn table (same columns); default the SuperCon table of the data root. */
  referencePath?: string;
  /** Material equality passed to the answerer (default: `sameMaterial` at rtol 1e-3). */
  sameMaterial?: (a: string, b: string) => boolean;
}

/** Figures of one way of answering. Means are over all questions; `groundedShare` is over answered ones. */
export interface CornellTcFigures {
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
  leaveOut: { answer: 'Yes' | 'No' | 'Unknown'; value?: number; score: PrecedentScore };
}

export interface CornellTcEvaluation extends CornellTcFigures {
  dataset: 'cornell-tc';
  split: 'dev';
  engine: 'reference-table';
  reference: string;
  n: number;
  tableRows: number;
  /** The same figures with each question's exactly-written truth row(s) removed from the table. */
  leaveOut: CornellTcFigures;
  perMaterial: CornellTcMaterialResult[];
}

function percentKey(tolerance: number): string {
  return `${Number((tolerance * 100).toPrecision(3))}%`;
}

/** Figures over paired questions and answers. */
export function cornellTcFigures(questions: readonly CornellTcQuestion[], answers: readonly PrecedentAnswer[], grounded: readonly boolean[]): CornellTcFigures {
  const n = questions.length;
  const mean = (scores: number[]) => (n === 0 ? 0 : scores.reduce((total, score) => total + score, 0) / n);
  const scores = questions.map((question, index) => scorePrecedent(answers[index], question));
  const scoreCounts: Record<PrecedentScore, number> = { 0: 0, 1: 0, 2: 0 };
  for (const score of scores) scoreCounts[score] += 1;
  const meanScoreAt: Record<string, number> = {};
  for (const tolerance of CORNELL_TC_TOLERANCES) {
    meanScoreAt[percentKey(tolerance)] = mean(questions.map((question, index) => scorePrecedent(answers[index], question, tolerance)));
  }
  const answered = answers.map((answer, index) => ({ answer, grounded: grounded[index] === true })).filter(({ answer }) => answer.answer !== 'Unknown');
  return {
    meanScore: mean(scores),
    scoreCounts,
    meanScoreAt,
    meanScoreHeadline: mean(questions.map((question, index) => scorePrecedent(answers[index], question, CORNELL_TC_TOLERANCES[0], true))),
    coverage: n === 0 ? 0 : answered.length / n,
    groundedShare: answered.length === 0 ? 0 : answered.filter((item) => item.grounded).length / answered.length,
  };
}

/**
 * Run the evaluation. Rejects when the dev set or the reference table is missing or malformed
 * (messages from `parseCornellTcDevSet` / `parseReferenceTable`).
 */
export async function evaluateCornellTc(options: CornellTcOptions): Promise<CornellTcEvaluation> {
  const devText = await readFile(join(cornellTcFolder(options.dataRoot), 'SuperCon_Tc_Tcn_dev-set.csv'), 'utf8');
  let questions = parseCornellTcDevSet(devText);
  if (options.limit !== undefined) questions = questions.slice(0, options.limit);
  const referencePath = options.referencePath ?? defaultReferencePath(options.dataRoot);
  const tableText = await readFile(referencePath, 'utf8');
  const table: ReferenceTable = parseReferenceTable(tableText);
  const lines = tableLines(tableText);
  const header = Object.keys((parse(tableText, { columns: true, to_line: 2 }) as Array<Record<string, string>>)[0] ?? {});
  const answerOptions = { source: 'SuperCon', ...(options.sameMaterial ? { sameMaterial: options.sameMaterial } : {}) };

  const answers = questions.map((question) => answerFromReferenceTable(question.material, table, answerOptions));
  const grounded = answers.map((answer) => answer.answer !== 'Unknown' && answerGrounded(answer, lines, header));
  const heldOut = questions.map((question) =>
    answerFromReferenceTable(question.material, table, { ...answerOptions, skipRow: (row) => row.material === question.material }),
  );
  const heldOutGrounded = heldOut.map((answer) => answer.answer !== 'Unknown' && answerGrounded(answer, lines, header));

  const perMaterial = questions.map((question, index): CornellTcMaterialResult => {
    const answer = answers[index]!;
    const held = heldOut[index]!;
    return {
      material: question.material,
      truth: { answer: question.truth, kind: question.kind, value: question.value, refno: question.refno },
      answer: answer.answer,
      ...(answer.values[0] ? { value: answer.values[0].value } : {}),
      rows: answer.values.length,
      score: scorePrecedent(answer, question),
      scoreHeadline: scorePrecedent(answer, question, CORNELL_TC_TOLERANCES[0], true),
      grounded: grounded[index]!,
      leaveOut: { answer: held.answer, ...(held.values[0] ? { value: held.values[0].value } : {}), score: scorePrecedent(held, question) },
    };
  });
  return {
    dataset: 'cornell-tc',
    split: 'dev',
    engine: 'reference-table',
    reference: referencePath,
    n: questions.length,
    tableRows: table.rows.length,
    ...cornellTcFigures(questions, answers, grounded),
    leaveOut: cornellTcFigures(questions, heldOut, heldOutGrounded),
    perMaterial,
  };
}

/** Markdown table of the headline figures (full table and truth row left out). */
export function cornellTcTable(result: CornellTcEvaluation): string {
  const percent = (ratio: number) => `${(ratio * 100).toFixed(1)}%`;
  const row = (name: string, figures: CornellTcFigures) =>
    `| ${name} | ${result.n} | ${figures.meanScore.toFixed(2)} | ${figures.meanScoreHeadline.toFixed(2)} | ${Object.values(figures.meanScoreAt).map((score) => score.toFixed(2)).join(' / ')} | ${figures.scoreCounts[0]} / ${figures.scoreCounts[1]} / ${figures.scoreCounts[2]} | ${percent(figures.coverage)} | ${percent(figures.groundedShare)} |`;
  return [
    '| cornell-tc (dev) | n | mean score | headline only | at 0.1% / 1% / 10% | scores 0 / 1 / 2 | coverage | grounded |',
    '|---|---|---|---|---|---|---|---|',
    row('reference table', result),
    row('truth row left out', result.leaveOut),
    '',
  ].join('\n');
}
