/**
 * SOFC-Exp (Friedrich et al., ACL 2020; boschresearch/sofc-exp_textmining_resources, annotations
 * CC BY 4.0; see the dataset's SOURCE.md): 45 solid-oxide fuel cell papers whose experiment
 * frames have slots filled by MATERIAL, VALUE and DEVICE spans. Files under
 * `datasets/sofc-exp/sofc-exp-corpus/`: `texts/<name>.txt`, `SOFC-Exp-Metadata.csv` (tab
 * separated: name, DOI, title, set train/dev/test), `annotations/sentences/<name>.csv`
 * (sentence id, experiment-describing 0/1, begin, end in the text) and
 * `annotations/frames/<name>.csv`: `SPAN id TYPE sentence begin end` (offsets within the
 * sentence), `EXPERIMENT id evoking-span` followed by tab-indented `slot span` lines, and
 * `LINK type span span`.
 *
 * Truths: every VALUE span filling a slot of an experiment frame (working_temperature,
 * power_density, open_circuit_voltage, conductivity, resistance, …), its materials the
 * MATERIAL spans filling the same frame's slots (anode, cathode, electrolyte, interlayer,
 * support material, fuel) — the frame does not say which of them a value belongs to — and
 * every LINK between a MATERIAL and a VALUE span (`thickness`), with that one material. A frame
 * without a material gives a truth with the material "": no triplet matches it, the parser's
 * span scoring counts it like any other.
 *
 * Slots and property schemas (`slotSchemas`): a slot maps to a schema when its name, words
 * spaced, is a whole synonym of one (the rule PolyIE's loader uses). None does today: working
 * temperature, power density, open-circuit voltage, voltage, current density, conductivity,
 * (area-specific) resistance, degradation rate, time of operation and thickness are cell
 * operating conditions and performance figures, and Assay's schemas are material properties
 * (band gap, Tc, moduli, lattice constants, density…). A slot's truths are then scored by unit
 * dimension (see `value-corpus-evaluation.ts`).
 */
import { readRegularFile } from '../../capture/node/regular-file';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import type { PropertyDefinition } from '../../contracts/property';
import { findPropertyMentions } from '../../properties';
import { parseValueText } from '../../text/quantities/value-text';
import type { Offsets } from '../span-score';
import { plainArticle, type ValuePaper, type ValueTruth } from '../value-corpus/value-corpus';

/** The corpus folder under the data root. */
export const SOFC_EXP_FOLDER = join('datasets', 'sofc-exp', 'sofc-exp-corpus');

interface SpanLine {
  type: string;
  start: number;
  end: number;
}

interface Frames {
  spans: Map<string, SpanLine>;
  /** Each frame's `[slot, span id]` fillers. */
  experiments: Array<Array<[string, string]>>;
  links: Array<[string, string, string]>;
}

/** Parse a frames file; span offsets become offsets in the text through `sentenceStart`. Throws on a span in an unknown sentence. */
export function parseFrames(fileText: string, sentenceStart: ReadonlyMap<string, number>): Frames {
  const spans = new Map<string, SpanLine>();
  const experiments: Frames['experiments'] = [];
  const links: Frames['links'] = [];
  for (const line of fileText.split(/\r?\n/u)) {
    const fields = line.split('\t');
    if (fields[0] === 'SPAN') {
      const [, id, type, sentence, begin, end] = fields as [string, string, string, string, string, string];
      const offset = sentenceStart.get(sentence);
      if (offset === undefined) throw new Error(`SOFC-Exp frames: span ${id} lies in unknown sentence ${sentence}`);
      spans.set(id, { type, start: offset + Number(begin), end: offset + Number(end) });
    } else if (fields[0] === 'EXPERIMENT') experiments.push([]);
    else if (fields[0] === '' && fields.length >= 3) experiments[experiments.length - 1]?.push([fields[1]!, fields[2]!]);
    else if (fields[0] === 'LINK') links.push([fields[1]!, fields[2]!, fields[3]!]);
  }
  return { spans, experiments, links };
}

/**
 * The schema each slot maps to, or null: the slot's name with spaces for underscores must be a
 * whole synonym or symbol of the schema (`findPropertyMentions`), as in the PolyIE loader.
 */
export function slotSchemas(slots: Iterable<string>, schemas: readonly PropertyDefinition[]): Record<string, string | null> {
  const mapping: Record<string, string | null> = {};
  for (const slot of slots) {
    const label = slot.replace(/_/gu, ' ');
    mapping[slot] = findPropertyMentions(label, schemas).find((mention) => mention.text.length === label.length)?.property ?? null;
  }
  return mapping;
}

// The PMC plain-text export writes the degree sign of "600 °C" as a letter o or an ordinal sign.
const DEGREE_AS_LETTER = /^[oº˚](?=C\b)/u;

/** A VALUE span's text as a truth value and unit (`parseValueText`); null value when it holds no number. */
function readValue(text: string): Pick<ValueTruth, 'value' | 'unit'> {
  const parsed = parseValueText(text);
  return parsed ? { value: parsed.value, unit: parsed.unitText.replace(DEGREE_AS_LETTER, '°') } : { value: null, unit: '' };
}

/**
 * The truths of one document (module comment) from its text, sentences file and frames file.
 * `schemaOf` gives a slot's schema. One truth per value span and slot; a span filling the same
 * slot in several frames takes the materials of all of them.
 */
export function sofcExpPaper(
  meta: { name: string; doi: string | null; title: string },
  text: string,
  sentencesText: string,
  framesText: string,
  schemaOf: (slot: string) => string | null,
): ValuePaper {
  const sentences = sentencesText
    .split(/\r?\n/u)
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const [id, label, begin, end] = line.split('\t');
      return { id: id!, experiment: label === '1', start: Number(begin), end: Number(end) };
    });
  const frames = parseFrames(framesText, new Map(sentences.map((sentence) => [sentence.id, sentence.start])));
  const spanText = (span: SpanLine) => text.slice(span.start, span.end);
  const truths = new Map<string, ValueTruth>();
  const add = (spanId: string, property: string, materials: string[]) => {
    const span = frames.spans.get(spanId);
    if (!span || span.type !== 'VALUE') return;
    const key = `${spanId}\u0000${property}`;
    const known = truths.get(key);
    if (known) {
      known.aliases = [...new Set([...known.aliases.filter(Boolean), ...materials])];
      if (known.aliases.length === 0) known.aliases = [''];
      return;
    }
    const schema = schemaOf(property);
    truths.set(key, {
      paper: meta.name,
      aliases: materials.length > 0 ? [...new Set(materials)] : [''],
      property,
      ...readValue(spanText(span)),
      valueText: spanText(span),
      start: span.start,
      end: span.end,
      ...(schema ? { schema } : {}),
    });
  };
  for (const fillers of frames.experiments) {
    const materials = fillers
      .map(([, id]) => frames.spans.get(id))
      .filter((span): span is SpanLine => span?.type === 'MATERIAL')
      .map(spanText);
    for (const [slot, id] of fillers) add(id, slot, materials);
  }
  for (const [type, from, to] of frames.links) {
    const [material, value] = [frames.spans.get(from), frames.spans.get(to)];
    if (material?.type === 'MATERIAL' && value?.type === 'VALUE') add(to, type, [spanText(material)]);
    else if (material?.type === 'VALUE' && value?.type === 'MATERIAL') add(from, type, [spanText(value)]);
  }
  const spans = [...frames.spans.values()];
  const annotated: Offsets[] = sentences
    .filter((sentence) => sentence.experiment || spans.some((span) => span.start >= sentence.start && span.end <= sentence.end))
    .map(({ start, end }) => ({ start, end }));
  return {
    id: meta.name,
    article: plainArticle(text.split('\n'), { title: meta.title, doi: meta.doi, adapter: 'sofc-exp' }),
    text,
    annotated,
    truths: [...truths.values()].sort((a, b) => a.start - b.start),
    ignored: [],
  };
}

/** The value slots of a set of papers (their truths' properties), sorted. */
export function valueSlots(papers: readonly ValuePaper[]): string[] {
  return [...new Set(papers.flatMap((paper) => paper.truths.map((truth) => truth.property)))].sort();
}

/**
 * Load the documents of one set (`dev` by default) under `dataRoot`, in metadata order, the
 * first `limit` of them. Rejects when a file is missing.
 */
export async function loadSofcExp(
  dataRoot: string,
  schemas: readonly PropertyDefinition[],
  options: { set?: string; limit?: number } = {},
): Promise<ValuePaper[]> {
  const folder = join(dataRoot, SOFC_EXP_FOLDER);
  const metadata = parse(await readRegularFile(join(folder, 'SOFC-Exp-Metadata.csv'), 'utf8'), {
    delimiter: '\t',
    columns: true,
    relax_quotes: true,
    relax_column_count: true,
  }) as Record<string, string>[];
  const rows = metadata.filter((row) => row.set === (options.set ?? 'dev')).slice(0, options.limit);
  const mapping = new Map<string, string | null>();
  const schemaOf = (slot: string) => {
    if (!mapping.has(slot)) mapping.set(slot, slotSchemas([slot], schemas)[slot]!);
    return mapping.get(slot)!;
  };
  const papers: ValuePaper[] = [];
  for (const row of rows) {
    const name = row.name!;
    const [text, sentences, frames] = await Promise.all(
      [join('texts', `${name}.txt`), join('annotations', 'sentences', `${name}.csv`), join('annotations', 'frames', `${name}.csv`)].map(
        (path) => readRegularFile(join(folder, path), 'utf8'),
      ),
    );
    papers.push(sofcExpPaper({ name, doi: row.DOI || null, title: row['Document title'] ?? name }, text!, sentences!, frames!, schemaOf));
  }
  return papers;
}
