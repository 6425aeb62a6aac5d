/**
 * Strict and lenient scoring of the LLM-NERRE general and MOF sets (the dataset's own protocol,
 * verbatim, is `nerre-protocol.ts`).
 *
 * What is scored, per record: every non-empty entity of every field (type = the field), and the
 * links of `general_and_mofs/results.py` (lbnlp/NERRE; Dagdelen et al., Nat. Commun. 15, 1418
 * (2024)): from an entry's root entity (general `formula`, MOF `name_of_mof`) to every entity of
 * each other field of the same entry, type `<root>|||<field>`, a link to itself left out.
 * - strict (`nerre-items.ts`): whole entities and whole (root, linked entity) pairs after
 *   `normalizeEntity`, sets per record, micro over records.
 * - lenient: upstream's word basis. Per record and type, the set of words of its entities (split
 *   on whitespace; a formula field's entity is one word, whole — docs/EVAL.md "NERRE"; a formula
 *   written across spaces inside another field merges, `entityWords`), and for links the set of
 *   `root|||word` pairs (root whole). tp = truth words also predicted, micro over records and types.
 *   Texts are normalized as in strict (NFKC), so lenient never misses what strict matches for spelling.
 * A root given as a list (six MOF annotations write `name_of_mof: ["UiO-66"]`) is a root here;
 * upstream links only string roots (kept so in `nerre-protocol.ts`).
 */
import { prfFigures, type PrfFigures } from '../rescorable';
import type { NerreEntry, NerreTask } from './nerre-entry-dataset';
import { normalizeEntity, type NerreItem } from './nerre-items';
import { entityWords, materialsFormulaCore, type FormulaCore } from './nerre-words';

/** Link type name: upstream's `<root>|||<field>`. */
export const LINK_DELIMITER = '|||';

/** The non-empty strings of one field of an entry, as written. */
export function fieldEntities(entry: NerreEntry, field: string): string[] {
  const value = entry[field];
  const strings = typeof value === 'string' ? [value] : (value ?? []);
  return strings.filter((text) => text.trim().length > 0);
}

/** The entity and link types of a task, entities first, in upstream's order. */
export function entryTypes(task: NerreTask): string[] {
  return [...task.fields, ...linkFields(task).map((field) => `${task.root}${LINK_DELIMITER}${field}`)];
}

function linkFields(task: NerreTask): string[] {
  return task.fields.filter((field) => field !== task.root);
}

/** Every entity (value null) and root link (value = linked entity) of the entries, unique under `normalizeEntity`. */
export function entryItems(entries: readonly NerreEntry[], task: NerreTask): NerreItem[] {
  const items: NerreItem[] = [];
  for (const entry of entries) {
    for (const field of task.fields)
      for (const entity of fieldEntities(entry, field)) items.push({ property: field, material: entity, value: null });
    for (const root of fieldEntities(entry, task.root))
      for (const field of linkFields(task))
        for (const linked of fieldEntities(entry, field))
          if (normalizeEntity(linked) !== normalizeEntity(root))
            items.push({ property: `${task.root}${LINK_DELIMITER}${field}`, material: root, value: linked });
  }
  return items;
}

/** The lenient words of one entity of `field`: whole for a formula field, else `entityWords`. */
function fieldWords(entity: string, field: string, task: NerreTask, formulaCore: FormulaCore): string[] {
  const text = normalizeEntity(entity);
  return task.formulaFields.includes(field) ? [text] : entityWords(text, formulaCore);
}

/** Lenient word sets of one record by type (entity fields and `<root>|||<field>` link types). */
export function entryWordSets(
  entries: readonly NerreEntry[],
  task: NerreTask,
  formulaCore: FormulaCore = materialsFormulaCore,
): Map<string, Set<string>> {
  const sets = new Map(entryTypes(task).map((type) => [type, new Set<string>()]));
  for (const entry of entries) {
    for (const field of task.fields)
      for (const entity of fieldEntities(entry, field))
        for (const word of fieldWords(entity, field, task, formulaCore)) sets.get(field)!.add(word);
    for (const root of fieldEntities(entry, task.root).map(normalizeEntity))
      for (const field of linkFields(task))
        for (const entity of fieldEntities(entry, field))
          for (const word of fieldWords(entity, field, task, formulaCore))
            if (word !== root) sets.get(`${task.root}${LINK_DELIMITER}${field}`)!.add(`${root}${LINK_DELIMITER}${word}`);
  }
  return sets;
}

/** Lenient figures over all types, and per type. */
export interface LenientScores {
  overall: PrfFigures;
  byType: Record<string, PrfFigures>;
}

/**
 * Micro-averaged word-level figures over records: per type, predictions = predicted words,
 * truths = truth words, matched = words in both; the overall figure sums every type's counts.
 */
export function scoreLenient(
  records: Iterable<{ truth: readonly NerreEntry[]; predicted: readonly NerreEntry[] }>,
  task: NerreTask,
  formulaCore: FormulaCore = materialsFormulaCore,
): LenientScores {
  const types = entryTypes(task);
  const counts = new Map(types.map((type) => [type, { predictions: 0, truths: 0, matched: 0 }]));
  for (const { truth, predicted } of records) {
    const truthSets = entryWordSets(truth, task, formulaCore);
    const predictedSets = entryWordSets(predicted, task, formulaCore);
    for (const type of types) {
      const gold = truthSets.get(type)!;
      const test = predictedSets.get(type)!;
      const count = counts.get(type)!;
      count.truths += gold.size;
      count.predictions += test.size;
      count.matched += [...gold].filter((word) => test.has(word)).length;
    }
  }
  const byType: Record<string, PrfFigures> = {};
  for (const [type, count] of counts) byType[type] = prfFigures(count.predictions, count.truths, count.matched);
  const sum = (key: 'predictions' | 'truths' | 'matched') => [...counts.values()].reduce((total, count) => total + count[key], 0);
  return { overall: prfFigures(sum('predictions'), sum('truths'), sum('matched')), byType };
}
