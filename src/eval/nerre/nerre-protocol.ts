/**
 * LLM-NERRE's own figures for the general and MOF sets, computed as lbnlp/NERRE
 * `general_and_mofs/results.py` computes them (Dagdelen et al., Nat. Commun. 15, 1418 (2024)),
 * so that a run can be set beside the paper's tables:
 * - words: `ent_str_to_words` — split on " ", each piece stripped, empty pieces dropped; no
 *   formula is kept whole (unlike `nerre-entry-score.ts`' lenient figures) and nothing is normalized.
 * - entities, per type: per record the set of words of the type (gold G, test T); tp = |G ∩ T|,
 *   fn = |G \ T|, fp = |T \ G|, summed over the records of a run; precision, recall and F1 are
 *   sklearn's on those labels (0 where a denominator is 0).
 * - links, per `<root>|||<field>` type: for an entry whose root field is a non-empty string, the
 *   set of `root|||word` for every word of the field's entities, a word equal to the root left
 *   out; precision = correct / predicted, recall = correct / gold; a run with no predicted or no
 *   gold link of a type has no figure for it (upstream skips that fold); F1 = 0 when nothing is correct.
 * - exact match: the entries, sorted by `formula` and with sorted keys, equal as a whole (missing
 *   predicted fields filled as upstream fills them: "" or [""]; extra keys were dropped on parsing).
 * - `byFold`: the mean over the five folds' validation records of each figure (skipped folds left
 *   out, null when none remains), as results.py averages its per-fold runs; `allRecords`: one run
 *   over every scored abstract.
 * Not computed: Jaro–Winkler similarity, and upstream's "% parsable" (see `unparsablePredictions`).
 */
import type { Prf } from '../rescorable';
import type { NerreEntry, NerreTask } from './nerre-entry-dataset';
import { fieldEntities, LINK_DELIMITER } from './nerre-entry-score';

/** Precision, recall and F1 of one type, in [0, 1]. */
export type ProtocolFigure = Prf;

/** One run's (or the fold mean's) figures: per entity type, per link type (null: no figure), exact-match share. */
export interface ProtocolFigures {
  records: number;
  entities: Record<string, ProtocolFigure>;
  links: Record<string, ProtocolFigure | null>;
  exactMatchAccuracy: number;
}

/** `ent_str_to_words`. */
function words(entity: string): string[] {
  return entity
    .split(' ')
    .map((word) => word.trim())
    .filter((word) => word.length > 0);
}

/** `ent_json_to_word_basis_sets`: word sets by entity type and by link type. */
export function protocolWordSets(entries: readonly NerreEntry[], task: NerreTask): Map<string, Set<string>> {
  const others = task.fields.filter((field) => field !== task.root);
  const sets = new Map<string, Set<string>>([
    ...task.fields.map((field) => [field, new Set<string>()] as const),
    ...others.map((field) => [`${task.root}${LINK_DELIMITER}${field}`, new Set<string>()] as const),
  ]);
  for (const entry of entries) {
    for (const field of task.fields)
      for (const entity of fieldEntities(entry, field)) for (const word of words(entity)) sets.get(field)!.add(word);
    const root = entry[task.root];
    if (typeof root !== 'string' || !root) continue;
    for (const field of others)
      for (const entity of fieldEntities(entry, field))
        for (const word of words(entity))
          if (word !== root) sets.get(`${task.root}${LINK_DELIMITER}${field}`)!.add(`${root}${LINK_DELIMITER}${word}`);
  }
  return sets;
}

/** `check_equivalence_of_entries`, after upstream's filling of the prediction's missing fields. */
export function exactMatch(gold: readonly NerreEntry[], predicted: readonly NerreEntry[], task: NerreTask): boolean {
  const filled = predicted.map((entry) =>
    Object.fromEntries(task.fields.map((field) => [field, entry[field] ?? (task.stringFields.includes(field) ? '' : [''])])),
  );
  const canonical = (entries: readonly NerreEntry[]) =>
    JSON.stringify(
      [...entries]
        .sort((a, b) => {
          const [x, y] = [typeof a.formula === 'string' ? a.formula : '', typeof b.formula === 'string' ? b.formula : ''];
          return x < y ? -1 : x > y ? 1 : 0;
        })
        .map((entry) => Object.fromEntries(Object.entries(entry).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)))),
    );
  return canonical(gold) === canonical(filled);
}

const ratio = (numerator: number, denominator: number) => (denominator === 0 ? 0 : numerator / denominator);

/** One run of results.py over (gold, predicted) pairs. */
export function protocolRun(
  pairs: ReadonlyArray<{ truth: readonly NerreEntry[]; predicted: readonly NerreEntry[] }>,
  task: NerreTask,
): ProtocolFigures {
  const others = task.fields.filter((field) => field !== task.root).map((field) => `${task.root}${LINK_DELIMITER}${field}`);
  const counts = new Map([...task.fields, ...others].map((type) => [type, { tp: 0, fp: 0, fn: 0 }]));
  let exact = 0;
  for (const { truth, predicted } of pairs) {
    if (exactMatch(truth, predicted, task)) exact++;
    const gold = protocolWordSets(truth, task);
    const test = protocolWordSets(predicted, task);
    for (const [type, count] of counts) {
      const goldWords = gold.get(type)!;
      const testWords = test.get(type)!;
      const tp = [...goldWords].filter((word) => testWords.has(word)).length;
      count.tp += tp;
      count.fn += goldWords.size - tp;
      count.fp += testWords.size - tp;
    }
  }
  const entities: Record<string, ProtocolFigure> = {};
  for (const field of task.fields) {
    const { tp, fp, fn } = counts.get(field)!;
    entities[field] = { precision: ratio(tp, tp + fp), recall: ratio(tp, tp + fn), f1: ratio(2 * tp, 2 * tp + fp + fn) };
  }
  const links: Record<string, ProtocolFigure | null> = {};
  for (const type of others) {
    const { tp, fp, fn } = counts.get(type)!;
    if (tp + fp === 0 || tp + fn === 0) {
      links[type] = null;
      continue;
    }
    const precision = tp / (tp + fp);
    const recall = tp / (tp + fn);
    links[type] = { precision, recall, f1: tp === 0 ? 0 : (2 * precision * recall) / (precision + recall) };
  }
  return { records: pairs.length, entities, links, exactMatchAccuracy: ratio(exact, pairs.length) };
}

function meanFigure(figures: ReadonlyArray<ProtocolFigure | null | undefined>): ProtocolFigure | null {
  const present = figures.filter((figure): figure is ProtocolFigure => figure != null);
  if (present.length === 0) return null;
  const mean = (key: keyof ProtocolFigure) => present.reduce((total, figure) => total + figure[key], 0) / present.length;
  return { precision: mean('precision'), recall: mean('recall'), f1: mean('f1') };
}

/** The fold mean of runs, as results.py averages its folds (`records` = the runs' records summed). */
export function averageRuns(runs: readonly ProtocolFigures[], task: NerreTask): ProtocolFigures {
  const others = task.fields.filter((field) => field !== task.root).map((field) => `${task.root}${LINK_DELIMITER}${field}`);
  const entities: Record<string, ProtocolFigure> = {};
  for (const field of task.fields) {
    const mean = meanFigure(runs.map((run) => run.entities[field]));
    if (mean) entities[field] = mean;
  }
  const links: Record<string, ProtocolFigure | null> = {};
  for (const type of others) links[type] = meanFigure(runs.map((run) => run.links[type]));
  return {
    records: runs.reduce((total, run) => total + run.records, 0),
    entities,
    links,
    exactMatchAccuracy: runs.length === 0 ? 0 : runs.reduce((total, run) => total + run.exactMatchAccuracy, 0) / runs.length,
  };
}
