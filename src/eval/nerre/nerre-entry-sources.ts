/**
 * Predictions for the LLM-NERRE general and MOF sets that Assay makes itself:
 * - the mention floors (`mentionFloor`): every distinct formula written in the abstract
 *   (`findMaterialMentions`) as one entry holding only the task's formula field (general
 *   `formula`, MOF `mof_formula`), and optionally every material name in the name field —
 *   reference figures computable without a model, not methods;
 * - an engine's triplets: the engine reads the abstract rebuilt as an `Article`, and each distinct
 *   material of its triplets becomes one entry, in the formula field when the material parses as
 *   a formula, else in the name field (general `name`, MOF `name_of_mof`). Triplets carry a
 *   numeric property and value, which no field of these schemas holds: acronym, applications,
 *   structure_or_phase, description, mof_description and guest_species are never produced, nor,
 *   therefore, any link.
 */
import { ArticleBuilder } from '../../capture/article-builder';
import type { Article } from '../../contracts/article';
import type { Triplet } from '../../contracts/triplet';
import { findMaterialMentions } from '../../text/materials';
import type { Extractor } from '../extractor';
import type { NerreEntry, NerreEntryRecord, NerreTask } from './nerre-entry-dataset';
import type { NerreEntryPrediction } from './nerre-entry-predictions';
import { normalizeEntity } from './nerre-items';
import { materialsFormulaCore, type FormulaCore } from './nerre-words';

/** The abstract as an `Article`: one paragraph block per non-empty line (MOF records put the title on the first line). */
export function abstractArticle(record: NerreEntryRecord): Article {
  const builder = new ArticleBuilder();
  for (const line of record.text.split('\n')) builder.add('paragraph', line);
  const { text, blocks } = builder.build();
  return {
    doi: null,
    doiOrigin: null,
    title: `LLM-NERRE ${record.id}`,
    authors: [],
    journal: null,
    year: null,
    url: null,
    source: 'text',
    adapter: 'llm-nerre',
    blocks,
    text,
    abstractOnly: true,
    warnings: [],
  };
}

/** The floors: `formula-mentions` takes formula mentions only; `material-mentions` also lexicon and framework names. */
export const NERRE_FLOORS = ['formula-mentions', 'material-mentions'] as const;
export type NerreFloor = (typeof NERRE_FLOORS)[number];

/**
 * A mention floor for each record (key `id:<id>`): each distinct formula mention
 * (`findMaterialMentions`, kind `formula`, as written) becomes an entry holding only the formula
 * field; with `material-mentions`, each distinct name mention (kind `name`: lexicon names such as
 * "perovskite", framework names such as "UiO-66") also becomes an entry holding only the name
 * field. Abbreviations are left out (their long forms are not the material's name).
 */
export function mentionFloor(records: readonly NerreEntryRecord[], task: NerreTask, floor: NerreFloor): NerreEntryPrediction[] {
  return records.map((record) => {
    const entries = new Map<string, NerreEntry>();
    for (const mention of findMaterialMentions(record.text)) {
      const field =
        mention.kind === 'formula'
          ? task.materialFields.formula
          : mention.kind === 'name' && floor === 'material-mentions'
            ? task.materialFields.name
            : null;
      if (field && !entries.has(`${field}\u0000${mention.text}`)) entries.set(`${field}\u0000${mention.text}`, { [field]: mention.text });
    }
    return { key: `id:${record.id}`, entries: [...entries.values()] };
  });
}

/** One entry per distinct material (under `normalizeEntity`), in the formula field when `formulaCore` reads it, else the name field. */
export function entriesFromTriplets(
  triplets: readonly Triplet[],
  task: NerreTask,
  formulaCore: FormulaCore = materialsFormulaCore,
): NerreEntry[] {
  const materials = new Map<string, string>();
  for (const { material } of triplets) if (!materials.has(normalizeEntity(material))) materials.set(normalizeEntity(material), material);
  return [...materials.values()].map((material) => ({
    [formulaCore(material) === null ? task.materialFields.name : task.materialFields.formula]: material,
  }));
}

/** What an engine run over the records gives: predictions, and the records whose extraction failed (scored as empty). */
export interface EngineEntries {
  predictions: NerreEntryPrediction[];
  failures: Array<{ id: string; error: string }>;
}

/**
 * Run `extractor` on every record's abstract for `properties`, one record at a time, mapping the
 * triplets with `entriesFromTriplets`. A rejection is recorded in `failures` (the record then
 * predicts nothing) and the run goes on.
 */
export async function engineEntries(
  records: readonly NerreEntryRecord[],
  task: NerreTask,
  extractor: Extractor,
  properties: string[],
  progress?: (line: string) => void,
): Promise<EngineEntries> {
  const predictions: NerreEntryPrediction[] = [];
  const failures: EngineEntries['failures'] = [];
  for (const [position, record] of records.entries()) {
    progress?.(`[${position + 1}/${records.length}] ${record.id}`);
    try {
      const triplets = await extractor(abstractArticle(record), { properties });
      predictions.push({ key: `id:${record.id}`, entries: entriesFromTriplets(triplets, task) });
    } catch (error) {
      failures.push({ id: record.id, error: (error as Error).message });
      predictions.push({ key: `id:${record.id}`, entries: [] });
    }
  }
  return { predictions, failures };
}
