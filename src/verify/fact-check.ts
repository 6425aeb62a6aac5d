/**
 * The fact check of the gate (issue 26), run on evidence that already grounds (the quote
 * re-anchors and shows the value and unit): is this the paper's fact about this material?
 *
 * On the article's own words at the anchor (never the tool's copy of them):
 * 1. The value's place. In prose, the sentence of the anchored block that prints the value with
 *    its unit; in a table block, the quoted row's cell that prints it, with its column header,
 *    its row label and the table's caption.
 * 2. Value role (`valueRole`): a difference, ratio, part of the value, model parameter,
 *    measurement condition or another quantity of the same unit is not the property's value →
 *    `rejected` (or `needs_review` for the ends of a change, `roleVerdict`), with the reason.
 * 3. Conditions (`conditionsOfValue`, `conditionsOfTableCell`): read from the evidence, each with
 *    its span in `Article.text`. A condition the tool stated (in `triplet.conditions`, or as a
 *    qualifier of its material name, "BPN-GaN (HSE06)") must be among them: one the evidence does
 *    not show is dropped with a reason (a phase or composition qualifier of the name may be what
 *    tells this sample from another of the same compound, so it sends the fact to review instead),
 *    and one that contradicts what the evidence pairs with the value (HSE06 for
 *    the GGA/PBE value of a "respectively" sentence) sends it to review. When the sentence states
 *    competing conditions of one kind and does not say which holds for the value, the fact goes
 *    to review even when it states one of them: a tool's pairing is not the evidence's, one value
 *    under two conditions is two facts, and the reader must say which. A value that is a cell of
 *    a table (or of a table flattened into prose) takes its column header's conditions, so two
 *    columns are not two competing conditions.
 * 4. Provenance (`provenanceOf`): a value the paper cites ("… 0.7 eV [19]") is kept, marked
 *    `cited` with its reference, and sent to review: it is another paper's fact, which the reader
 *    may still save (as cited) but which is not verified as this paper's.
 * 5. Material subject (`materialSubjectProblem`): a model, band, structure type or figure given
 *    as the material → `needs_review`.
 * 6. The paper's name (`paperNameOf`, rules in paper-name.ts): the token of the evidence the
 *    claimed material anchored — in a "respectively" sentence, the one paired with the value —
 *    becomes `FactCheck.material`, what a verified fact stores ("BPN-GaN" for a tool's "Gallium
 *    nitride (BPN-GaN)"; "BPN-GaN" for "GaN" when the evidence writes GaN only inside it), with
 *    the tool's name in the reasons. A claim written only inside several tokens, given by the
 *    sentence to another token than the one it names, or whose name holds words that identify
 *    the material and that the evidence does not write, goes to review and is not renamed.
 */
import type { Article, Block } from '../contracts/article';
import type { Condition, ConditionKind, Provenance } from '../contracts/conditions';
import type { TextPositionSelector } from '../contracts/evidence';
import type { PropertyDefinition } from '../contracts/property';
import type { Triplet } from '../contracts/triplet';
import type { Anchor } from '../text/anchoring';
import type { ArticleIndex } from '../text/article-index';
import { conditionGroup, conditionsOfTableCell, conditionsOfValue, findConditionMentions, methodsCompatible } from '../text/conditions';
import type { TextSpan } from '../contracts/text-span';
import type { ConditionMention } from '../text/conditions/condition-types';
import { materialSubjectProblem } from '../text/conditions/material-subject';
import { provenanceOf } from '../text/conditions/provenance';
import { roleVerdict, valueRole } from '../text/conditions/value-role';
import { findMaterialMentions } from '../text/materials';
import { parseQuantities } from '../text/quantities';
import { loadPropertySchemas } from '../properties';
import { articleIndexFor, cellNumber, defaultAttributionDependencies, type AttributionDependencies } from './attribution';
import { defaultGroundingDependencies, type GroundingDependencies } from './grounding-dependencies';
import { flattenedTableCells, misplacedInColumn } from './flattened-table';
import { materialNames, namesMaterial } from './material-named';
import { paperNameOf } from './paper-name';
import { valueShownBy } from './value-in-quote';

export interface FactCheckDependencies {
  grounding: GroundingDependencies;
  attribution: AttributionDependencies;
  /** The property catalogue (built-in and the reader's own); the triplet's property is looked up by name. */
  schemas: readonly PropertyDefinition[];
}

/** The built-in catalogue (or `schemas`) and the real grounding and attribution dependencies. */
export function defaultFactCheckDependencies(schemas: readonly PropertyDefinition[] = loadPropertySchemas()): FactCheckDependencies {
  return { grounding: defaultGroundingDependencies, attribution: defaultAttributionDependencies(schemas), schemas };
}

/** The fact check's verdict: `ok`, `needs_review` (a doubt for a person) or `rejected` (another quantity). */
export interface FactCheck {
  verdict: 'ok' | 'needs_review' | 'rejected';
  /** Why not `ok`, and notes (a dropped condition), in words for a reader. */
  reasons: string[];
  /** The conditions that hold for the value, read from the evidence, with their spans in `Article.text`. */
  conditions: Condition[];
  provenance: Provenance;
  /**
   * The material as the paper names it where the claim anchored (`paperNameOf`): the text to store
   * instead of the tool's descriptor, and the `Article.text` span of the token it was read from.
   * Absent when no token of the evidence names the claim, or when the naming left a doubt.
   */
  material?: { text: string; position: TextPositionSelector };
}

/** Where the value stands: the text it is read in (offsets of `Article.text`) and the value's span there. */
interface ValuePlace {
  /** Mentions that hold for the value, offsets already in `Article.text`. */
  mentions: ConditionMention[];
  ambiguous: string[];
  /** All the text the evidence offers for stated conditions (sentence, or row + header + caption). */
  shown: { text: string; start: number }[];
  role?: ReturnType<typeof valueRole>;
  provenance: Provenance;
  /** A "respectively" sentence's material mention for the value (`respectivelyMaterial`), span in `Article.text`, when it pairs one. */
  pairedMaterial?: { text: string; start: number; end: number };
  /** Where the material is named, in the order to look (the value's sentence; a table row's label, header, caption). */
  naming: { text: string; start: number }[];
}

const shift = (mention: ConditionMention, offset: number): ConditionMention => ({
  ...mention,
  start: mention.start + offset,
  end: mention.end + offset,
});

/** The value's quantity in `text` (a sentence), as a span of it; the first that shows the value. */
function valueSpanIn(text: string, triplet: Triplet): TextSpan | undefined {
  const at = parseQuantities(text).find((quantity) => valueShownBy(triplet.value, quantity.value));
  return at ? { start: at.start, end: at.end } : undefined;
}

/**
 * The material a "respectively" sentence pairs with the value: "Bi2S3 and Sb2S3 … band gap of 1.3 eV
 * and 1.78 eV, respectively" gives 1.78 eV to Sb2S3. Only when the sentence names as many
 * materials (mentions that are not inside a quantity) as it prints values of the value's unit, two
 * or more, in reading order (as the rules extractor pairs them, src/extract/rules/respectively.ts);
 * undefined otherwise.
 */
function respectivelyMaterial(
  sentence: string,
  value: TextSpan,
  index: ArticleIndex,
): { text: string; start: number; end: number } | undefined {
  if (!/\brespectively\b/i.test(sentence)) return undefined;
  const quantities = parseQuantities(sentence);
  const own = quantities.find((quantity) => quantity.start <= value.start && quantity.end >= value.end);
  if (!own) return undefined;
  const values = quantities.filter((quantity) => (own.dimension ? quantity.dimension === own.dimension : quantity.unit === own.unit));
  const overlapsValue = (mention: TextSpan) => quantities.some((quantity) => mention.start < quantity.end && quantity.start < mention.end);
  const materials = findMaterialMentions(sentence, { definitions: index.abbreviations() }).filter((mention) => !overlapsValue(mention));
  if (values.length < 2 || materials.length !== values.length) return undefined;
  const paired = materials[values.indexOf(own)];
  return paired ? { text: paired.text, start: paired.start, end: paired.end } : undefined;
}

/** The value in prose: the anchored block's sentence that prints it. */
function proseplace(
  triplet: Triplet,
  index: ArticleIndex,
  block: Block,
  anchor: Anchor,
  schema: PropertyDefinition | undefined,
  schemas: readonly PropertyDefinition[],
): ValuePlace | undefined {
  for (const { start, end } of index.sentencesOf(block)) {
    if (end <= anchor.start || start >= anchor.end) continue;
    const text = index.article.text.slice(start, end);
    const found = valueSpanIn(text, triplet);
    if (!found) continue;
    const read = conditionsOfValue(text, found);
    const provenance = provenanceOf(text, found);
    const paired = respectivelyMaterial(text, found, index);
    return {
      ...(paired === undefined ? {} : { pairedMaterial: { ...paired, start: start + paired.start, end: start + paired.end } }),
      naming: [{ text, start }],
      mentions: read.conditions.map((mention) => shift(mention, start)),
      ambiguous: read.ambiguous,
      shown: [{ text, start }],
      ...(schema ? { role: valueRole(text, found, schema, schemas) } : {}),
      provenance: {
        kind: provenance.kind,
        ...(provenance.reference ? { reference: provenance.reference } : {}),
        ...(provenance.cue
          ? {
              text: provenance.cue.text,
              position: { type: 'TextPositionSelector' as const, start: start + provenance.cue.start, end: start + provenance.cue.end },
            }
          : {}),
      },
    };
  }
  return undefined;
}

/**
 * The value in a table block: the quoted data row's cell that prints it (`cellNumber`, a column
 * past the row label), with its column header, its row label and the table's caption
 * (`ArticleIndex.captionOf`: the caption block right before the table).
 */
function tablePlace(triplet: Triplet, index: ArticleIndex, block: Block, anchor: Anchor): ValuePlace | undefined {
  const table = index.tableOf(block);
  if (!table) return undefined;
  for (const row of table.rows.filter((each) => each.end > anchor.start && each.start < anchor.end)) {
    for (const cell of row.cells) {
      const value = cellNumber(cell.text);
      if (cell.column === 0 || value === undefined || !valueShownBy(triplet.value, { kind: 'number', value })) continue;
      const header = table.header.cells[cell.column];
      const headerText = header?.text ?? '';
      // A data row longer than the header: its cell has no header; offsets then stop at the header's end.
      const headerStart = header?.start ?? table.header.end;
      const rowLabel = row.cells[0]!.text;
      const caption = table.caption;
      const read = conditionsOfTableCell(headerText, rowLabel, caption?.text ?? '');
      const base = { header: headerStart, row: row.start, caption: caption?.start ?? 0 } as const;
      return {
        mentions: read.map((mention) => shift(mention, base[mention.from])),
        ambiguous: [],
        shown: [
          { text: headerText, start: headerStart },
          { text: rowLabel, start: row.start },
          ...(caption ? [{ text: caption.text, start: caption.start }] : []),
          { text: cell.text, start: cell.start },
        ],
        naming: [
          { text: rowLabel, start: row.cells[0]!.start },
          { text: headerText, start: headerStart },
          ...(caption ? [{ text: caption.text, start: caption.start }] : []),
        ],
        provenance: { kind: 'unknown' },
      };
    }
  }
  return undefined;
}

/**
 * The value as a bare cell of a table that text extraction flattened into prose
 * (`flattenedTableCells`: "Compound Eg (HSE06+G0W0) [eV] Eg (Exp) [eV] wz-AlN 6.14 6.28 …"): the
 * cell's column header gives its conditions (the header reads as a table's would, so two headers
 * of the table are not two competing conditions of one sentence), and in a column-major table the
 * row label must name the fact's material — the evidence pairs the number with that row, and with
 * no other. Undefined when the value is not such a cell of the quote.
 */
function flattenedPlace(
  triplet: Triplet,
  article: Article,
  anchor: Anchor,
  dependencies: FactCheckDependencies,
): (ValuePlace & { rowLabel?: string }) | undefined {
  const cells = flattenedTableCells(article.text, anchor.start, anchor.end, dependencies.grounding.normalizeUnit);
  const cell = cells.find((each) => valueShownBy(triplet.value, { kind: 'number', value: each.value }));
  if (!cell) return undefined;
  const read = conditionsOfTableCell(cell.header.text, cell.rowLabel?.text ?? '', '');
  const base = { header: cell.header.start, row: cell.rowLabel?.start ?? 0, caption: 0 } as const;
  return {
    mentions: read.filter((mention) => mention.from !== 'caption').map((mention) => shift(mention, base[mention.from])),
    ambiguous: [],
    shown: [
      { text: cell.header.text, start: cell.header.start },
      ...(cell.rowLabel ? [{ text: cell.rowLabel.text, start: cell.rowLabel.start }] : []),
      { text: article.text.slice(cell.start, cell.end), start: cell.start },
    ],
    naming: [
      ...(cell.rowLabel ? [{ text: cell.rowLabel.text, start: cell.rowLabel.start }] : []),
      { text: cell.header.text, start: cell.header.start },
    ],
    provenance: { kind: 'unknown' },
    ...(cell.rowLabel ? { rowLabel: cell.rowLabel.text } : {}),
  };
}

/** Is `stated` (a condition the tool gave) compatible with `read` (one the evidence shows)? */
function compatible(stated: { kind: string; value: string }, read: { kind: string; value: string }): boolean {
  if (stated.kind !== read.kind) return false;
  if (stated.kind === 'method') return methodsCompatible(stated.value, read.value);
  return stated.value.trim().toLowerCase() === read.value.trim().toLowerCase();
}

/** The conditions a tool stated: its structured conditions, and the qualifiers written in its material name. */
function statedConditions(triplet: Triplet): { condition: { kind: ConditionKind; value: string; text?: string }; inMaterial: boolean }[] {
  const listed = (triplet.conditions ?? [])
    .filter((condition) => condition.kind !== 'other')
    .map((condition) => ({ condition, inMaterial: false }));
  const inName = findConditionMentions(triplet.material).map((mention) => ({ condition: mention, inMaterial: true }));
  return [...listed, ...inName];
}

/** Kinds of condition that can tell one material from another of the same compound (see `checkFact`'s stated conditions). */
const IDENTIFYING_KINDS: ReadonlySet<ConditionKind> = new Set(['phase', 'composition']);

/**
 * Where to look for the material's name, in order: the value's own sentence or table cells
 * (`ValuePlace.naming`), the anchored quote, then the sentence before the quote in its block (a
 * quote that refers back: "Its band gap is …").
 */
function namingPieces(place: ValuePlace | undefined, anchor: Anchor, index: ArticleIndex, block: Block | undefined) {
  const { text } = index.article;
  const before = block
    ? index
        .sentencesOf(block)
        .filter((sentence) => sentence.end <= anchor.start)
        .at(-1)
    : undefined;
  return [
    ...(place?.naming ?? []),
    { text: text.slice(anchor.start, anchor.end), start: anchor.start },
    ...(before ? [{ text: text.slice(before.start, before.end), start: before.start }] : []),
  ];
}

const asCondition = (mention: ConditionMention): Condition => ({
  kind: mention.kind,
  value: mention.value,
  text: mention.text,
  position: { type: 'TextPositionSelector', start: mention.start, end: mention.end },
});

/**
 * Check `triplet`, which grounds at `anchor` in `article` (see the module comment for the rules).
 * `anchor` is an `Article.text` span (from `ground()`). Returns the verdict, reasons in words,
 * the conditions read (with `Article.text` positions) and the provenance. A value whose place
 * cannot be found again (a flattened table the sentence reader cannot split) is checked for its
 * stated conditions only. Never throws for a valid triplet and article.
 */
export function checkFact(triplet: Triplet, article: Article, anchor: Anchor, dependencies: FactCheckDependencies): FactCheck {
  const reasons: string[] = [];
  let verdict: FactCheck['verdict'] = 'ok';
  const lower = (to: 'needs_review' | 'rejected') => {
    if (to === 'rejected' || verdict === 'ok') verdict = to;
  };
  const index = articleIndexFor(article, { ...dependencies.attribution, schemas: dependencies.schemas });
  const block = index.blockAt(anchor.start);
  const schema = dependencies.schemas.find((candidate) => candidate.name === triplet.property);
  const flattened = block && block.kind !== 'table' ? flattenedPlace(triplet, article, anchor, dependencies) : undefined;
  const place = !block
    ? undefined
    : block.kind === 'table'
      ? tablePlace(triplet, index, block, anchor)
      : (flattened ?? proseplace(triplet, index, block, anchor, schema, dependencies.schemas));
  const names = materialNames(triplet.material, index);
  const naming = paperNameOf(triplet.material, names, namingPieces(place, anchor, index, block), {
    index,
    schemas: dependencies.schemas,
    ...(place?.pairedMaterial ? { paired: place.pairedMaterial } : {}),
  });
  if (naming.kind !== 'unnamed') reasons.push(...naming.reasons);
  if (naming.kind === 'review') lower('needs_review');
  if (flattened?.rowLabel !== undefined && !namesMaterial(flattened.rowLabel, names)) {
    reasons.push(`in the table the value stands in the row of ${flattened.rowLabel}, not of ${triplet.material}`);
    lower('needs_review');
  }
  // In a row-major flattened table, the value's position in its row names its column's material.
  const column = flattened
    ? misplacedInColumn(
        article.text,
        flattenedTableCells(article.text, anchor.start, anchor.end, dependencies.grounding.normalizeUnit),
        (cell) => valueShownBy(triplet.value, { kind: 'number', value: cell.value }),
        materialNames(triplet.material, article),
        triplet.material,
      )
    : undefined;
  if (column) {
    reasons.push(column);
    lower('needs_review');
  }

  const subject = materialSubjectProblem(triplet.material);
  if (subject) {
    reasons.push(subject);
    lower('needs_review');
  }
  if (place?.role && place.role.role !== 'value') {
    const judged = roleVerdict(place.role);
    if (judged !== 'ok') {
      reasons.push(place.role.reason ?? `the number is not the ${schema?.label.toLowerCase() ?? triplet.property} itself`);
      lower(judged);
    }
  }

  const read = place?.mentions ?? [];
  // A stated condition re-anchors in what the reader sees: the value's sentence, row, header and
  // caption, and the whole anchored quote (a caption "LSDA+U band structure of SmN. … gap of 1.04 eV").
  const quoted = { text: article.text.slice(anchor.start, anchor.end), start: anchor.start };
  const evidenceText = [...(place?.shown ?? []), quoted];
  const kept: ConditionMention[] = [...read];
  const stated = statedConditions(triplet);
  // A fact that states two conditions of one group that exclude one another ("wz-AlN" claimed
  // under zinc blende, HSE06 in the name and GGA/PBE in the conditions) is no one fact, even
  // when the evidence shows both (a table with a column for each).
  const clash = stated.find(({ condition }, index) =>
    stated.some(
      (other, later) =>
        later > index && conditionGroup(other.condition) === conditionGroup(condition) && !compatible(other.condition, condition),
    ),
  );
  if (clash) {
    const group = conditionGroup(clash.condition);
    const labels = stated
      .filter(({ condition }) => conditionGroup(condition) === group)
      .map(({ condition }) => condition.text?.trim() || condition.value);
    reasons.push(`the fact states ${labels.join(' and ')}, which exclude one another`);
    lower('needs_review');
  }
  for (const { condition, inMaterial } of stated) {
    const label = condition.text?.trim() || condition.value;
    if (read.some((mention) => compatible(condition, mention))) continue;
    if (read.some((mention) => mention.kind === condition.kind)) {
      reasons.push(
        `${label} is stated, but the evidence gives ${read
          .filter((mention) => mention.kind === condition.kind)
          .map((mention) => mention.text)
          .join(', ')} for this value`,
      );
      lower('needs_review');
      continue;
    }
    // Not paired with the value by the reader: shown anywhere in the evidence (a competing
    // condition of an ambiguous sentence, a header of the flattened table)?
    const shown = evidenceText.flatMap((piece) =>
      findConditionMentions(piece.text)
        .filter((mention) => compatible(condition, mention))
        .map((mention) => shift(mention, piece.start)),
    );
    if (shown.length > 0) {
      kept.push(shown[0]!);
      continue;
    }
    // A phase or composition in the name may be what tells this sample from another of the same
    // compound (monolayer or bulk, x = 0.1 or 0.2): the fact stays for a person. A method, a
    // quantity or a direction does not change which material it is: dropped, as a listed one is.
    const identifies = inMaterial && IDENTIFYING_KINDS.has(condition.kind);
    reasons.push(
      identifies
        ? `the material name states ${label}, which the evidence does not show`
        : inMaterial
          ? `the material name states ${label}, which the evidence does not show: dropped`
          : `condition ${label} is not in the evidence: dropped`,
    );
    if (identifies) lower('needs_review');
  }
  if (place && place.ambiguous.length > 0) {
    reasons.push(...place.ambiguous);
    lower('needs_review');
  }

  const provenance = place?.provenance ?? { kind: 'unknown' as const };
  if (provenance.kind === 'cited') {
    reasons.push(
      `cited${provenance.reference ? ` ${provenance.reference}` : ''}: a value the paper quotes from elsewhere, not its own result`,
    );
    lower('needs_review');
  }
  const unique = kept.filter(
    (mention, index) => kept.findIndex((other) => other.kind === mention.kind && other.value === mention.value) === index,
  );
  return {
    verdict,
    reasons,
    conditions: unique.map(asCondition),
    provenance,
    ...(naming.kind === 'named'
      ? {
          material: {
            text: naming.material,
            position: { type: 'TextPositionSelector' as const, start: naming.mention.start, end: naming.mention.end },
          },
        }
      : {}),
  };
}
