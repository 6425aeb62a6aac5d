/**
 * The "Define your own property" form as plain strings, and its translation to a `PropertyDefinition`
 * validated by the same `PropertySchema` as the built-in schemas (zod's messages, named by
 * field). The stored list and its reader (`readUserProperties`, untrusted: another version may
 * have written it) are declared in src/extension/stored-settings.ts. Pure.
 */
import { userPropertiesSetting } from '../../extension/stored-settings';
import { PropertyDimensionSchema, PropertySchema, type PropertyDefinition, type PropertyDimension } from '../../contracts/property';
import { builtInQuestions } from '../../properties';
import { convertUnit } from '../../text/units';

/** The `browser.storage.local` key of the reader's properties (a JSON array of `PropertyDefinition`). */
export const USER_PROPERTIES_KEY = userPropertiesSetting.key;

/** The dimensions offered in the form's select, in `PropertyDimensionSchema`'s order. */
export const PROPERTY_DIMENSIONS: readonly PropertyDimension[] = PropertyDimensionSchema.options;

/** One verification question as the form holds it (Eunomia's user-defined CoV questions). */
export interface QuestionDraft {
  /** The question about one fact and its evidence, e.g. "Was the value measured at room temperature?" */
  question: string;
  /** Comma-separated answers, e.g. "yes, no"; blank: a free-text answer. */
  choices: string;
  /** Comma-separated answers among the choices that the reader's dataset expects; blank: none. */
  expected: string;
}

export const EMPTY_QUESTION_DRAFT: QuestionDraft = { question: '', choices: '', expected: '' };

/** What the form's inputs hold. */
export interface PropertyDraft {
  name: string;
  label: string;
  /** Comma-separated. */
  synonyms: string;
  /** The canonical unit, e.g. "eV". */
  unit: string;
  /** The unit values are shown in (dataset table, plot, CSV), e.g. "eV" for a unit of "meV"; blank: the unit above. */
  displayUnit?: string;
  min: string;
  max: string;
  dimension: PropertyDimension;
  /** Verification questions asked of every verified triplet, besides the built-in ones; blank ones are ignored. */
  questions: QuestionDraft[];
}

export const EMPTY_PROPERTY_DRAFT: PropertyDraft = {
  name: '',
  label: '',
  synonyms: '',
  unit: '',
  displayUnit: '',
  min: '',
  max: '',
  dimension: 'energy',
  questions: [],
};

/** The note stored with a reader's property (`PropertySchema.note` must not be blank). */
export const USER_PROPERTY_NOTE = 'Added by the reader in the side panel; the plausible range is theirs.';

const fieldNames: Record<string, string> = {
  name: 'Name',
  label: 'Label',
  synonyms: 'Synonyms',
  canonicalUnit: 'Unit',
  displayUnit: 'Display unit',
  units: 'Unit',
  plausibleRange: 'Plausible range',
  dimension: 'Dimension',
};

/**
 * One zod issue in words: "Name: name must be lower-case snake case, e.g. "band_gap""; a
 * question's issue names it by its place in the form: "Question 2: expected answer "x" is not one
 * of the choices".
 */
function issueText(issue: { path: readonly PropertyKey[]; message: string }): string {
  if (issue.path[0] === 'questions' && typeof issue.path[1] === 'number') return `Question ${issue.path[1] + 1}: ${issue.message}`;
  const field = fieldNames[String(issue.path[0] ?? '')] ?? 'Property';
  return `${field}: ${issue.message}`;
}

const splitList = (text: string) =>
  text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');

/**
 * An id for a reader's question: its first four words in lower-case snake case ("was_the_value_measured"),
 * else "question"; never a built-in question's id (which it would silently replace) nor one already
 * given, which get "_2", "_3", ….
 */
function questionId(question: string, taken: Set<string>): string {
  const words = question.toLowerCase().match(/[a-z0-9]+/g) ?? [];
  const slug = words.slice(0, 4).join('_');
  const base = /^[a-z]/.test(slug) ? slug : 'question';
  let id = base;
  for (let suffix = 2; taken.has(id); suffix += 1) id = `${base}_${suffix}`;
  taken.add(id);
  return id;
}

/** The form's questions as schema input: blank drafts dropped, lists split on commas, ids made up (`questionId`). */
function questionsFromDrafts(drafts: readonly QuestionDraft[]): { id: string; question: string; choices: string[]; expected: string[] }[] {
  const taken = new Set(builtInQuestions({ label: '' }).map((question) => question.id));
  return drafts
    .filter((draft) => `${draft.question}${draft.choices}${draft.expected}`.trim() !== '')
    .map((draft) => ({
      id: questionId(draft.question, taken),
      question: draft.question.trim(),
      choices: splitList(draft.choices),
      expected: splitList(draft.expected),
    }));
}

function parseNumber(text: string): number | null {
  const trimmed = text.trim().replace('−', '-');
  if (trimmed === '') return null;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : null;
}

/**
 * The property the form describes, or its problems in words (one line per problem).
 * Synonyms are split on commas and trimmed, blanks dropped; the unit is both the canonical unit
 * and the only listed unit; a display unit, when given, must be one the unit converts to
 * (`convertUnit`: same dimension), and is left out when blank (values then show in the unit); min and max must be numbers ("−" accepted for minus); verification
 * questions are read by `questionsFromDrafts` (choices and expected answers comma-separated).
 * Checked with `PropertySchema` (snake-case name, non-blank label, a synonym, min ≤ max, each
 * question non-blank with its expected answers among its choices). A name already in
 * `takenNames` (built-in or already added) is refused, so a reader's property never silently
 * replaces another.
 */
export function propertyFromDraft(
  draft: PropertyDraft,
  takenNames: readonly string[],
): { ok: true; property: PropertyDefinition } | { ok: false; problems: string[] } {
  const problems: string[] = [];
  const min = parseNumber(draft.min);
  const max = parseNumber(draft.max);
  if (min === null) problems.push('Plausible range: give the minimum as a number, e.g. 0.');
  if (max === null) problems.push('Plausible range: give the maximum as a number, e.g. 10.');
  const name = draft.name.trim();
  if (takenNames.includes(name)) problems.push(`Name: a property named "${name}" already exists; choose another name.`);
  const unit = draft.unit.trim();
  const displayUnit = draft.displayUnit?.trim() ?? '';
  if (displayUnit !== '' && unit !== '' && displayUnit !== unit && convertUnit(1, unit, displayUnit) === null)
    problems.push(`Display unit: "${displayUnit}" is not a unit "${unit}" converts to; leave it blank to show values in ${unit}.`);
  const parsed = PropertySchema.safeParse({
    name,
    label: draft.label.trim(),
    synonyms: splitList(draft.synonyms),
    dimension: draft.dimension,
    canonicalUnit: unit,
    units: unit === '' ? [] : [unit],
    ...(displayUnit !== '' && { displayUnit }),
    plausibleRange: { min: min ?? 0, max: max ?? 0 },
    note: USER_PROPERTY_NOTE,
    questions: questionsFromDrafts(draft.questions),
  });
  if (!parsed.success) {
    // With "unit" blank, zod also reports the empty unit list; one line about the unit is enough.
    const lines = parsed.error.issues.map(issueText);
    problems.push(
      ...lines.filter((line, index) => !(line.startsWith('Unit:') && lines.findIndex((other) => other.startsWith('Unit:')) !== index)),
    );
  }
  if (problems.length > 0 || !parsed.success) return { ok: false, problems };
  return { ok: true, property: parsed.data };
}
