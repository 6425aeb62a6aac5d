/**
 * The Materials Science Procedural Text Corpus (Mysore et al., LAW 2019;
 * olivettigroup/annotated-materials-syntheses, MIT; see the dataset's SOURCE.md), the corpus
 * SLM-MATRIX's MatSynTriplet was drawn from (that 115-text set itself is not public). Each of
 * the 230 papers is `data/<id>.txt` (three lines: DOI, title, synthesis procedure) and
 * `data/<id>.ann` in BRAT standoff (`T` entities with offsets into the whole file, `E`
 * operation events with typed arguments, `R` relations).
 *
 * Truths, material–number–unit as MatSynTriplet has them: a `Number_Of` relation (Number →
 * unit entity) whose unit is the first argument of `Amount_Of` (→ the Material it is an amount
 * of: property "amount") or of `Condition_Of` (→ the Operation it conditions: property
 * "condition"; the materials are the event's Material arguments, or the operation word when it
 * has none). The value is the Number read with `parseValueText` (null for a list "0.1; 0.2", a
 * ratio "1:2" or a word), the unit the unit entity's text. The span is the number through its
 * unit when only spaces separate them ("10 g"), else the number alone (list members, "pH 7").
 * Numbers whose unit belongs to an apparatus or a property (`Apparatus-Unit`, `Property-Unit`)
 * are annotated quantities outside this definition: `ignored`.
 *
 * Split: the supervised frame-extraction dev list (`sfex-dev-fnames.txt`, 30 papers), the one
 * made for relations such as these (the corpus has no other "dev" for relations).
 */
import { readRegularFile } from '../../capture/node/regular-file';
import { join } from 'node:path';
import { parseValueText } from '../../text/quantities/value-text';
import type { Offsets } from '../span-score';
import { plainArticle, type ValuePaper, type ValueTruth } from '../value-corpus/value-corpus';

/** The corpus folder under the data root, and the split list read as "dev". */
export const MSPTC_FOLDER = join('datasets', 'msptc');
export const MSPTC_DEV_LIST = 'sfex-dev-fnames.txt';

interface Entity extends Offsets {
  type: string;
  text: string;
}

interface Standoff {
  entities: Map<string, Entity>;
  /** Event id → its trigger entity id and `[role, entity id]` arguments. */
  events: Map<string, { trigger: string; arguments: Array<[string, string]> }>;
  relations: Array<{ type: string; from: string; to: string }>;
}

/** Parse BRAT standoff (`.ann`) text; a discontinuous entity spans its first start to its last end. */
export function parseStandoff(annText: string): Standoff {
  const standoff: Standoff = { entities: new Map(), events: new Map(), relations: [] };
  for (const line of annText.split(/\r?\n/u)) {
    const [id, body, text] = line.split('\t');
    if (!id || body === undefined) continue;
    if (id.startsWith('T')) {
      const [type, ...offsets] = body.split(' ');
      const numbers = offsets.join(' ').split(/[ ;]/u).map(Number);
      standoff.entities.set(id, { type: type!, start: numbers[0]!, end: numbers[numbers.length - 1]!, text: text ?? '' });
    } else if (id.startsWith('E')) {
      const [trigger, ...rest] = body.trim().split(/\s+/u);
      const pair = (argument: string) => argument.split(':') as [string, string];
      standoff.events.set(id, { trigger: pair(trigger!)[1], arguments: rest.filter(Boolean).map(pair) });
    } else if (id.startsWith('R')) {
      const [type, from, to] = body.trim().split(/\s+/u);
      standoff.relations.push({ type: type!, from: from!.replace(/^Arg1:/u, ''), to: to!.replace(/^Arg2:/u, '') });
    }
  }
  return standoff;
}

/** Targets of the unit relations that make a truth, and the property each gives. */
const UNIT_RELATIONS: Record<string, string> = { Amount_Of: 'amount', Condition_Of: 'condition' };

/** The materials a unit's target stands for: a Material itself, or an operation's Material arguments (else its word). */
function targetMaterials(targetId: string, standoff: Standoff): string[] {
  const entity = standoff.entities.get(targetId);
  if (entity?.type === 'Material') return [entity.text];
  const event = standoff.events.get(targetId) ?? [...standoff.events.values()].find((candidate) => candidate.trigger === targetId);
  if (!event) return entity ? [entity.text] : [''];
  const materials = event.arguments
    .map(([, id]) => standoff.entities.get(id))
    .filter((argument): argument is Entity => argument?.type === 'Material')
    .map((argument) => argument.text);
  return materials.length > 0 ? [...new Set(materials)] : [standoff.entities.get(event.trigger)?.text ?? ''];
}

/** The truths and ignored spans of one paper (module comment) from its `.txt` and `.ann` texts. */
export function msptcPaper(id: string, fileText: string, annText: string): ValuePaper {
  const standoff = parseStandoff(annText);
  const targetOfUnit = new Map<string, { property: string; target: string }>();
  for (const relation of standoff.relations) {
    const property = UNIT_RELATIONS[relation.type];
    if (property) targetOfUnit.set(relation.from, { property, target: relation.to });
  }
  const truths: ValueTruth[] = [];
  const ignored: Offsets[] = [];
  for (const relation of standoff.relations) {
    if (relation.type !== 'Number_Of') continue;
    const number = standoff.entities.get(relation.from);
    const unit = standoff.entities.get(relation.to);
    if (!number || !unit) continue;
    const adjacent = unit.start >= number.end && fileText.slice(number.end, unit.start).trim() === '';
    const span = { start: number.start, end: adjacent ? unit.end : number.end };
    const link = targetOfUnit.get(relation.to);
    if (!link) {
      ignored.push(span);
      continue;
    }
    const parsed = parseValueText(number.text);
    truths.push({
      paper: id,
      aliases: targetMaterials(link.target, standoff),
      property: link.property,
      value: parsed && parsed.unitText === '' ? parsed.value : null,
      valueText: fileText.slice(span.start, span.end),
      unit: unit.text,
      ...span,
    });
  }
  const [doiLine = '', titleLine = ''] = fileText.split('\n');
  const bodyStart = doiLine.length + 1;
  const titleEnd = bodyStart + titleLine.length;
  return {
    id,
    article: plainArticle(fileText.split('\n').slice(1), { title: titleLine.trim(), doi: doiLine.trim() || null, adapter: 'msptc' }),
    text: fileText,
    // The DOI line is not prose (its "10.1039" is no quantity); the title and procedure are annotated.
    annotated: [
      { start: bodyStart, end: titleEnd },
      { start: titleEnd + 1, end: fileText.length },
    ],
    truths: truths.sort((a, b) => a.start - b.start),
    ignored,
  };
}

/** Load the dev papers (`MSPTC_DEV_LIST`, in list order), the first `limit` of them. Rejects when a file is missing. */
export async function loadMsptc(dataRoot: string, options: { limit?: number } = {}): Promise<ValuePaper[]> {
  const folder = join(dataRoot, MSPTC_FOLDER);
  const ids = (await readRegularFile(join(folder, MSPTC_DEV_LIST), 'utf8'))
    .split(/\r?\n/u)
    .map((line) => line.trim())
    .filter(Boolean)
    .slice(0, options.limit);
  const papers: ValuePaper[] = [];
  for (const id of ids) {
    const [fileText, annText] = await Promise.all(
      ['txt', 'ann'].map((extension) => readRegularFile(join(folder, 'data', `${id}.${extension}`), 'utf8')),
    );
    papers.push(msptcPaper(id, fileText!, annText!));
  }
  return papers;
}
