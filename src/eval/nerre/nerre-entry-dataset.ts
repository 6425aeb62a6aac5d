/**
 * The LLM-NERRE general-materials and MOF sets (lbnlp/NERRE `general_and_mofs/data/`, shared copy
 * `datasets/llm-nerre/general_and_mofs/`, see its SOURCE.md): JSONL lines `{ prompt: abstract +
 * "\n\n###\n\n", completion: " [entries as JSON]\n\nEND\n\n" }`, an entry being one material with
 * its fields (general: acronym, applications, name, formula, structure_or_phase, description; MOF:
 * name_of_mof, mof_formula, mof_description, guest_species, applications), each a string or a list
 * of strings, "" meaning none. The files carry no DOI: a record's id is `<task>/<line>` (0-based
 * line of the annotations file). `experiments_*` hold the five cross-validation folds' `val.jsonl`
 * (the paper's evaluation records; folds overlap).
 */
import { readRegularFile } from '../../capture/node/regular-file';
import { join } from 'node:path';
import { z } from 'zod';

export type NerreTaskName = 'general' | 'mof';

/** What `general_and_mofs/results.py` (lbnlp/NERRE) fixes per task, and where the files are. */
export interface NerreTask {
  name: NerreTaskName;
  /** Entity fields in upstream's order (`ENTS_FROZEN`). */
  fields: readonly string[];
  /** The field every link starts from (`ROOT`): general `formula`; MOF `name_of_mof` (SOURCE.md; see below). */
  root: string;
  /** Fields whose entities are formulas, matched whole (docs/EVAL.md "NERRE"). */
  formulaFields: readonly string[];
  /** Fields upstream fills with "" (one string) when a prediction lacks them; the others get [""]. */
  stringFields: readonly string[];
  /** Where an engine's material goes: a formula, or else a name. */
  materialFields: { formula: string; name: string };
  annotationsFile: string;
  foldFolder: string;
}

/**
 * The two tasks. MOF links hang from `name_of_mof`, as results.py has it at lbnlp/NERRE
 * e159a260 and as SOURCE.md describes the scoring; a later revision (10cbc70b) roots them at
 * `mof_formula` instead.
 */
export const NERRE_TASKS: Record<NerreTaskName, NerreTask> = {
  general: {
    name: 'general',
    fields: ['acronym', 'applications', 'name', 'formula', 'structure_or_phase', 'description'],
    root: 'formula',
    formulaFields: ['formula'],
    stringFields: ['acronym', 'name', 'formula'],
    materialFields: { formula: 'formula', name: 'name' },
    annotationsFile: 'general_materials_information_annotations.jsonl',
    foldFolder: 'experiments_general',
  },
  mof: {
    name: 'mof',
    fields: ['name_of_mof', 'mof_formula', 'mof_description', 'guest_species', 'applications'],
    root: 'name_of_mof',
    formulaFields: ['mof_formula'],
    stringFields: ['name_of_mof', 'mof_formula'],
    materialFields: { formula: 'mof_formula', name: 'name_of_mof' },
    annotationsFile: 'mof_annotations.jsonl',
    foldFolder: 'experiments_mof_gpt3',
  },
};

/** Number of cross-validation folds in `experiments_*` (fold_0 … fold_4). */
export const NERRE_FOLDS = 5;

/** One entry: each known field as written (a string or strings); absent fields are left out. */
export type NerreEntry = Readonly<Record<string, string | readonly string[]>>;

/** One annotated abstract. */
export interface NerreEntryRecord {
  /** `<task>/<line>`, e.g. `general/0`. */
  id: string;
  /** The abstract (MOF: title line, then abstract), without upstream's `###` separator. */
  text: string;
  entries: NerreEntry[];
}

const fieldValue = z.union([z.string(), z.array(z.string()), z.null()]).optional();

/** An entry's schema for `task`: the known fields, each a string, strings or null; other keys dropped (as upstream drops them). */
function entrySchema(task: NerreTask) {
  return z.object(Object.fromEntries(task.fields.map((field) => [field, fieldValue]))).transform((entry): NerreEntry => {
    const kept: Record<string, string | readonly string[]> = {};
    for (const field of task.fields) {
      const value = entry[field];
      if (typeof value === 'string' || Array.isArray(value)) kept[field] = value;
    }
    return kept;
  });
}

/** The abstract of a prompt: upstream's `prompt.replace("\n\n###\n\n", "").strip()`. */
export function promptText(prompt: string): string {
  return prompt.replace('\n\n###\n\n', '').trim();
}

/**
 * Entries of a completion: a JSON list of entries, as text (upstream's format, with or without
 * the trailing `END` marker) or already parsed. Returns null when it is not JSON or not a list of
 * entries (upstream then scores the prediction as empty).
 */
export function parseCompletion(completion: unknown, task: NerreTask): NerreEntry[] | null {
  let data = completion;
  if (typeof completion === 'string') {
    try {
      data = JSON.parse(completion.replace(/\s*END\s*$/u, '').trim());
    } catch {
      return null;
    }
  }
  const parsed = z.array(entrySchema(task)).safeParse(data);
  return parsed.success ? parsed.data : null;
}

/** An annotations or fold file, parsed. */
export interface NerreEntryFile {
  /** Records in file order, once per abstract (the first annotation of a repeated prompt). */
  records: NerreEntryRecord[];
  /** Lines that were not JSON `{prompt, completion}` with a parsable completion. */
  malformed: number;
  /** Lines whose abstract an earlier line already annotated (left out). */
  duplicates: number;
}

const lineSchema = z.object({ prompt: z.string(), completion: z.string() });

/** Parse JSONL text of `{prompt, completion}` lines; ids are `<task>/<line index>`. Never throws on a bad line. */
export function parseNerreEntryLines(text: string, task: NerreTask): NerreEntryFile {
  const records: NerreEntryRecord[] = [];
  const seen = new Set<string>();
  let malformed = 0;
  let duplicates = 0;
  text.split('\n').forEach((line, index) => {
    if (!line.trim()) return;
    let data: unknown;
    try {
      data = JSON.parse(line);
    } catch {
      malformed++;
      return;
    }
    const parsed = lineSchema.safeParse(data);
    const entries = parsed.success ? parseCompletion(parsed.data.completion, task) : null;
    if (!parsed.success || !entries) {
      malformed++;
      return;
    }
    const abstract = promptText(parsed.data.prompt);
    if (seen.has(abstract)) {
      duplicates++;
      return;
    }
    seen.add(abstract);
    records.push({ id: `${task.name}/${index}`, text: abstract, entries });
  });
  return { records, malformed, duplicates };
}

/** The folder of the general and MOF sets under a data root. */
export function nerreEntryFolder(dataRoot: string): string {
  return join(dataRoot, 'datasets', 'llm-nerre', 'general_and_mofs');
}

/** Read and parse a task's annotations file. File errors propagate. */
export async function loadNerreEntries(dataRoot: string, task: NerreTask): Promise<NerreEntryFile> {
  return parseNerreEntryLines(await readRegularFile(join(nerreEntryFolder(dataRoot), task.annotationsFile), 'utf8'), task);
}

/**
 * The five folds' validation records (`<foldFolder>/fold_<k>/val.jsonl`), each fold's gold as
 * that file writes it; ids are the annotations file's ids of the same abstract (`byText`), or
 * `<task>/fold_<k>/<line>` for an abstract the annotations lack. File errors propagate.
 */
export async function loadNerreFolds(
  dataRoot: string,
  task: NerreTask,
  byText: ReadonlyMap<string, string>,
): Promise<NerreEntryRecord[][]> {
  const folds: NerreEntryRecord[][] = [];
  for (let fold = 0; fold < NERRE_FOLDS; fold++) {
    const text = await readRegularFile(join(nerreEntryFolder(dataRoot), task.foldFolder, `fold_${fold}`, 'val.jsonl'), 'utf8');
    const { records } = parseNerreEntryLines(text, task);
    folds.push(records.map((record) => ({ ...record, id: byText.get(record.text) ?? record.id.replace('/', `/fold_${fold}/`) })));
  }
  return folds;
}
