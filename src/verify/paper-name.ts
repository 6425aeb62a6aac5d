/**
 * The paper's own name for a claimed material. A tool's material string is a descriptor it
 * wrote — "Gallium nitride (BPN-GaN)", "VCClBr (GGA + SOC, increased)", "GaN" for the paper's
 * "BPN-GaN" — and the attribution check (`material-named.ts`) only asks whether the evidence
 * names it. When the gate verifies a fact, the material it keeps is the mention of the evidence
 * that the claim anchored: the whole material token as the paper writes it there.
 *
 * Rules, on the article's own words (the value's sentence or table row first, then the rest of
 * the quote, then the sentence before it):
 * 1. A mention names the claim when one of its names (`materialNames`) is written there, or a
 *    material mention equals one (`sameMaterial`). The mention is then widened to its whole
 *    token: letters and digits joined by hyphens or glued slashes ("α-P/H-MoSe2", "BPN-GaN", and
 *    "BPN- AlN", a PDF line break after a hyphen, read as "BPN-AlN"); a hyphen before a
 *    lower-case word ends it ("GaN-based").
 * 2. The token is the claim's own name (`same`: equal under `sameMaterialStrict` to a name of the
 *    claim), or larger — the claim is only part of it: after a phase or polymorph label the
 *    condition reader knows ("2H-MoS2", "wz-GaN": `phase`, the same compound in a stated phase),
 *    after a label it does not know ("BPN-GaN", "H-MoSe2": `prefixed`, which may name a phase or
 *    another material), or inside a composite (`other`: the heterostructure "α-P/H-MoSe2" for
 *    "MoSe2") —, or narrower than the claim (`narrower`: "TiO2" for "mesoporous TiO2").
 * 3. Which token: the one a "respectively" sentence pairs with the value, when it pairs one
 *    (unless it is larger than the claim and the sentence also writes the claim itself: the
 *    sentence then gives the value to another material). Else, piece by piece in the order
 *    above, the first token of the claim's own name; else, when the claim is written there only
 *    inside larger tokens, the larger token if there is one, and none when there are several
 *    ("MoSe2" inside both "α-P/H-MoSe2" and "β-P/H-MoSe2": which material is meant is for a
 *    person to say). A narrower token only when no piece has another.
 * 4. What the claim says beyond the token. The claim is cut into its name part and asides (its
 *    trailing parenthesised groups, or the outer name when the token anchored a parenthesis, as
 *    in "Gallium nitride (BPN-GaN)"). Condition words (`findConditionMentions`: the fact check
 *    makes them conditions, or drops them), property words ("bandgap") and connectives are not
 *    the material. Other words of an aside are the tool's comment ("increased", "Gallium
 *    nitride"): dropped, and said so. Other words of the name part identify the material
 *    ("mesoporous" in "mesoporous TiO2", the label "BPN" of "BPN-AlN"): when the evidence does not
 *    write them, the paper's token would name a broader material than the claim, so nothing is
 *    renamed and the fact goes to review; when it writes them (apart from the token), the
 *    claim's name part is kept as the name.
 * Pure: no state, offsets are `Article.text` offsets given with each piece of evidence.
 */
import type { PropertyDefinition } from '../contracts/property';
import { findPropertyMentions } from '../properties';
import { findConditionMentions } from '../text/conditions';
import { isConditionConnective } from '../text/conditions/condition-connectives';
import { findMaterialMentions, parseMaterial, sameMaterial, sameMaterialStrict, type AbbreviationDefinition } from '../text/materials';
import { cleanFormulaText, joinSpacedFormula } from '../text/materials/formula-text';
import { elementSpellings, materialNames, nameParts, spacedFormulaRuns, type NamePart } from './material-named';
import type { ArticleIndex } from '../text/article-index';

/** A piece of evidence: its text and where it starts in `Article.text`. */
export interface EvidencePiece {
  text: string;
  start: number;
}

/** How a token of the evidence relates to the claimed material (rule 2 of the module comment). */
export type NameRelation = 'same' | 'phase' | 'prefixed' | 'other' | 'narrower';

/** A token of the evidence that names the claim. */
export interface PaperMention {
  /** The token as the paper writes it, the space of a line break after a hyphen removed ("BPN-AlN"). */
  text: string;
  /** Its span in `Article.text` (end exclusive). */
  start: number;
  end: number;
  relation: NameRelation;
  /** The claim's name found in it (for `narrower`, the name it is a narrower reading of). */
  name: string;
  /** Index of the evidence piece it is in. */
  piece: number;
}

/** The outcome: the name to store, a doubt for a person, or no mention found (the attribution check speaks then). */
export type PaperNaming =
  | {
      kind: 'named';
      mention: PaperMention;
      /** The material to store: the paper's token, or the claim's name part when the evidence writes its words apart. */
      material: string;
      /** Notes in words: what was renamed and what was dropped. */
      reasons: string[];
    }
  | { kind: 'review'; reasons: string[] }
  | { kind: 'unnamed' };

/** What naming needs besides the claim and the evidence. */
export interface PaperNameContext {
  /** The article's index: its abbreviation definitions decide the claim's names and equal names. */
  index: ArticleIndex;
  /** The property catalogue: property words in a descriptor ("bandgap") are not the material. */
  schemas: readonly PropertyDefinition[];
  /** The material mention a "respectively" sentence pairs with the value (its span in `Article.text`), when it pairs one. */
  paired?: { text: string; start: number; end: number };
}

const DASHES = '\\-‐‑–—−';
const JOINER_BEFORE = new RegExp(`(?:[${DASHES}][ \\t\\n]?|/)$`, 'u');
const RUN_BEFORE = /[\p{L}\p{N}'′]+$/u;

/** The whole material token around `[start, end)` of `text` (rule 1). */
export function tokenAround(text: string, start: number, end: number): { start: number; end: number } {
  let from = start;
  for (;;) {
    const joiner = JOINER_BEFORE.exec(text.slice(Math.max(0, from - 3), from));
    if (!joiner) break;
    const joinerStart = from - joiner[0].length;
    // A hyphen and a space before a lower-case word is a suspended hyphen or running text, not a broken token.
    if (/\s$/u.test(joiner[0]) && !/^[\p{Lu}\p{N}]/u.test(text.slice(from))) break;
    const run = RUN_BEFORE.exec(text.slice(Math.max(0, joinerStart - 40), joinerStart));
    if (!run) break;
    from = joinerStart - run[0].length;
  }
  let to = end;
  for (;;) {
    const next = new RegExp(`^(?:/|[${DASHES}](?=[\\p{Lu}\\p{N}]))[\\p{L}\\p{N}'′]+`, 'u').exec(text.slice(to, to + 40));
    if (!next) break;
    to += next[0].length;
  }
  return { start: from, end: to };
}

/** The token's text as the material's name: a line-break space after a hyphen removed. */
function tokenText(text: string): string {
  return text.replace(new RegExp(`([${DASHES}])\\s+`, 'gu'), '$1');
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Where `name` is written in `text` as a whole word (as `nameWritten` reads it: a formula
 * case-sensitively, a name not; any dash for a dash, any white space for a space). Spans of `text`.
 */
function writtenAt(text: string, name: string): { start: number; end: number }[] {
  const cleaned = cleanFormulaText(name).trim();
  if (cleaned.length < 2 && !/^\p{Lu}$/u.test(cleaned)) return [];
  const pattern = cleaned
    .split(/\s+/u)
    .map((word) => escape(word).replace(new RegExp(`[${DASHES}]`, 'gu'), `[${DASHES}]\\s?`))
    .join('\\s+');
  const flags = parseMaterial(cleaned) ? 'gu' : 'giu';
  return [...text.matchAll(new RegExp(`(?<![\\p{L}\\p{N}])${pattern}(?![\\p{L}\\p{N}])`, flags))].map((match) => ({
    start: match.index,
    end: match.index + match[0].length,
  }));
}

/** Equal as material names: strictly (formulas with their phase, lexicon synonyms, the paper's abbreviations). */
function sameName(a: string, b: string, definitions: readonly AbbreviationDefinition[]): boolean {
  return sameMaterialStrict(a, b, [], definitions);
}

/** Rule 2 for a token that holds a written name of the claim at `inner` (offsets of `token`). */
function largerRelation(token: string, inner: { start: number; end: number }): NameRelation {
  const prefix = token.slice(0, inner.start);
  if (inner.end < token.length || !new RegExp(`^[^/${DASHES}]+[${DASHES}]$`, 'u').test(prefix)) return 'other';
  const label = findConditionMentions(token).find((mention) => mention.start === 0 && mention.kind === 'phase');
  return label && label.end >= prefix.length - 1 ? 'phase' : 'prefixed';
}

/** Every token of `piece` that names the claim under `names`, one per token span (rules 1–2). */
function mentionsIn(piece: EvidencePiece, pieceIndex: number, names: readonly string[], definitions: readonly AbbreviationDefinition[]) {
  const found = new Map<string, PaperMention>();
  const rank: Record<NameRelation, number> = { same: 0, phase: 1, prefixed: 1, other: 1, narrower: 2 };
  const add = (span: { start: number; end: number }, name: string, narrowerOnly: boolean) => {
    const token = tokenAround(piece.text, span.start, span.end);
    const text = tokenText(piece.text.slice(token.start, token.end));
    let relation: NameRelation;
    if (names.some((each) => sameName(text, each, definitions))) relation = 'same';
    else if (!narrowerOnly && (token.start < span.start || token.end > span.end))
      relation = largerRelation(piece.text.slice(token.start, token.end), { start: span.start - token.start, end: span.end - token.start });
    else relation = 'narrower';
    const key = `${token.start}:${token.end}`;
    const previous = found.get(key);
    if (previous && rank[previous.relation] <= rank[relation]) return;
    found.set(key, { text, start: piece.start + token.start, end: piece.start + token.end, relation, name, piece: pieceIndex });
  };
  for (const name of names) for (const span of writtenAt(piece.text, name)) add(span, name, false);
  for (const mention of findMaterialMentions(piece.text, { definitions })) {
    const forms = [mention.text, ...(mention.kind === 'abbreviation' && mention.normalized ? [mention.normalized] : [])];
    const name = names.find((each) => forms.some((form) => sameMaterial(form, each)));
    // A mention that holds a written name was read above; one that only equals a name loosely is narrower.
    if (name !== undefined) add(mention, name, true);
  }
  return [...found.values()].sort((a, b) => a.start - b.start);
}

/**
 * The words of `part` (a part of `claim`, `nameParts`) outside the material `mention`, the
 * claim's conditions, property words and connectives, as one phrase per run of such words.
 * Conditions and property words are read on the whole claim ("(indirect)" is a gap character
 * only with its parenthesis).
 */
function wordsBeyond(claim: string, part: NamePart, mention: PaperMention, context: PaperNameContext): string[] {
  const definitions = context.index.abbreviations();
  const text = part.text;
  // The whole part is the paper's token under another spelling (a formula's, an element's, an abbreviation the paper defines).
  const spellings = [text, joinSpacedFormula(text) ?? text, ...elementSpellings(text)];
  if (mention.relation === 'same' && spellings.some((name) => sameName(mention.text, name, definitions))) return [];
  const shift = (span: { start: number; end: number }) => ({ start: span.start - part.start, end: span.end - part.start });
  const covered: { start: number; end: number }[] = [
    ...findConditionMentions(claim).map(shift),
    ...findPropertyMentions(claim, context.schemas).map(shift),
  ];
  const targets = mention.relation === 'narrower' ? [mention.text] : [mention.text, mention.name];
  for (const target of targets) covered.push(...writtenAt(text, target));
  for (const found of findMaterialMentions(text, { definitions }))
    if (targets.some((target) => sameName(found.text, target, definitions))) covered.push(found);
  // A formula the claim spaces out as PDF text does ("Ba 1−x K x BiO 3") is the joined one.
  for (const run of spacedFormulaRuns(text)) if (targets.some((target) => sameName(run.formula, target, definitions))) covered.push(run);
  const phrases: string[][] = [[]];
  for (const match of text.matchAll(/\S+/gu)) {
    let own = '';
    for (let at = match.index; at < match.index + match[0].length; at += 1)
      if (!covered.some((span) => span.start <= at && at < span.end)) own += text[at]!;
    const word = trimmedWord(own);
    if (/[\p{L}\p{N}]/u.test(word) && !isConditionConnective(word) && !SPECIMEN_NOUNS.has(word.toLowerCase())) phrases.at(-1)!.push(word);
    else if (phrases.at(-1)!.length > 0) phrases.push([]);
  }
  return phrases.filter((phrase) => phrase.length > 0).map((phrase) => phrase.join(' '));
}

/** `word` without the punctuation around it; a parenthesis it closes or opens itself stays ("Ar(111)"). */
function trimmedWord(word: string): string {
  let trimmed = word.replace(/^[^\p{L}\p{N}(\[]+|[^\p{L}\p{N})\]]+$/gu, '');
  const opens = (trimmed.match(/[([]/gu) ?? []).length;
  const closes = (trimmed.match(/[)\]]/gu) ?? []).length;
  if (closes > opens) trimmed = trimmed.replace(/[)\]]+$/u, '');
  if (opens > closes) trimmed = trimmed.replace(/^[([]+/u, '');
  return trimmed;
}

/**
 * Nouns for a specimen of whatever material ("LiFeAs crystal", "the SmN sample"): they say that it
 * is a piece of the material, not which material, so they neither identify it nor need dropping
 * notes. The words by which papers refer back to a specimen (`attribution.ts`), less those the
 * condition reader gives a meaning (film, monolayer, layer, phase) and "structure" ("perovskite
 * structure" does say something).
 */
const SPECIMEN_NOUNS: ReadonlySet<string> = new Set([
  'compound',
  'compounds',
  'crystal',
  'crystals',
  'material',
  'materials',
  'sample',
  'samples',
  'specimen',
  'specimens',
  'system',
  'systems',
]);

/** Which part of the claim the token anchored: the part of which it is a name (bare name first), else the one that holds it, else the bare name. */
function anchoredPart(parts: readonly NamePart[], mention: PaperMention, context: PaperNameContext): number {
  const definitions = context.index.abbreviations();
  const named = parts.findIndex((part) =>
    materialNames(part.text, context.index).some((name) => sameName(mention.text, name, definitions)),
  );
  if (named >= 0) return named;
  const holding = parts.findIndex((part) => writtenAt(part.text, mention.name).length > 0 || writtenAt(mention.name, part.text).length > 0);
  return holding >= 0 ? holding : 0;
}

/** Text compared without spaces and with one dash and subscript form: PDF text spaces formulas out ("Bi 2 Sr 2 CaCu 2 O 8"). */
const compact = (text: string) => cleanFormulaText(text).replace(/\s+/gu, '');

/**
 * Is `phrase` written in some piece: each of its words as a whole word, case-insensitively (a
 * word the paper writes apart from the name: "non-doped … SrTiO3"), or the phrase itself once
 * spaces are set aside (a spaced-out formula)?
 */
const shownIn = (pieces: readonly EvidencePiece[], phrase: string) =>
  phrase
    .split(/\s+/u)
    .every((word) => pieces.some((piece) => new RegExp(`(?<![\\p{L}\\p{N}])${escape(word)}(?![\\p{L}\\p{N}])`, 'iu').test(piece.text))) ||
  pieces.some((piece) => compact(piece.text).includes(compact(phrase)));

/** Rule 3: the token to keep, or a doubt, or none. */
function chooseMention(
  claim: string,
  found: readonly PaperMention[],
  context: PaperNameContext,
): PaperMention | { review: string } | undefined {
  const { paired } = context;
  if (paired) {
    const token = found.find((mention) => mention.start <= paired.start && mention.end >= paired.end);
    if (!token) return { review: `the sentence gives this value to ${paired.text} ("respectively"), not to ${claim}` };
    const ownWritten = found.some((mention) => mention.piece === token.piece && mention.relation === 'same');
    if (token.relation !== 'same' && token.relation !== 'narrower' && ownWritten)
      return { review: `the sentence gives this value to ${token.text} ("respectively"), not to ${claim}` };
    return token;
  }
  // The value's own sentence or row first: its token is the value's, even when the rest of the quote writes the claim.
  for (const piece of new Set(found.map((mention) => mention.piece))) {
    const here = found.filter((mention) => mention.piece === piece && mention.relation !== 'narrower');
    const same = here.find((mention) => mention.relation === 'same');
    if (same) return same;
    const distinct = [...new Set(here.map((mention) => mention.text))];
    if (distinct.length > 1)
      return {
        review: `the evidence writes ${claim} only as part of ${distinct.join(', ')}: which material the value belongs to is for a person to say`,
      };
    if (here[0]) return here[0];
  }
  return found.find((mention) => mention.relation === 'narrower');
}

/**
 * The paper's name for `claim` (a tool's material string) in `pieces` of evidence (the value's
 * sentence or row first; see the module comment for the rules). `names` are the claim's names
 * (`materialNames(claim, index)`). Returns `named` with the material to store and notes in words,
 * `review` with the reason when the evidence leaves the material open or the claim says more
 * than the evidence writes, or `unnamed` when no token of the pieces names the claim. Never throws.
 */
export function paperNameOf(
  claim: string,
  names: readonly string[],
  pieces: readonly EvidencePiece[],
  context: PaperNameContext,
): PaperNaming {
  const definitions = context.index.abbreviations();
  const found = pieces.flatMap((piece, index) => mentionsIn(piece, index, names, definitions));
  const chosen = chooseMention(claim, found, context);
  if (chosen === undefined) return { kind: 'unnamed' };
  if ('review' in chosen) return { kind: 'review', reasons: [chosen.review] };

  const { bare, groups } = nameParts(claim);
  const parts = [bare, ...groups];
  const at = anchoredPart(parts, chosen, context);
  const identity = wordsBeyond(claim, parts[at]!, chosen, context);
  const dropped = parts.flatMap((part, index) => (index === at ? [] : wordsBeyond(claim, part, chosen, context)));
  const notes = dropped.length > 0 ? `; ${dropped.map((words) => `"${words}"`).join(', ')} dropped: not part of the material's name` : '';
  if (identity.length > 0) {
    const missing = identity.filter((words) => !shownIn(pieces, words));
    if (missing.length > 0)
      return {
        kind: 'review',
        reasons: [`the material is named "${claim}", but the evidence names it ${chosen.text}, without "${missing.join('", "')}"`],
      };
    const kept = parts[at]!.text;
    const renamed = kept !== claim.trim();
    return {
      kind: 'named',
      mention: chosen,
      material: kept,
      reasons: renamed ? [`named "${claim}" by the tool; kept as ${kept}${notes}`] : [],
    };
  }
  // Only a new name is news: not another dash or space for the same one ("WS2-WSe2", "WS2–WSe2", "Sr 2 RuO 4").
  const comparable = (name: string) => {
    const cleaned = cleanFormulaText(name);
    return (joinSpacedFormula(cleaned) ?? cleaned).replace(/\s+/gu, ' ');
  };
  const renamed = comparable(chosen.text) !== comparable(claim);
  const how = {
    same: '',
    narrower: '',
    phase: ', which the evidence writes with its phase',
    prefixed: `, which the evidence writes only with the label ${chosen.text.slice(0, chosen.text.length - chosen.name.length)}`,
    other: `, which the evidence writes only inside ${chosen.text}, another material's name`,
  }[chosen.relation];
  return {
    kind: 'named',
    mention: chosen,
    material: chosen.text,
    reasons: renamed ? [`named "${claim}" by the tool${how}; the paper calls it ${chosen.text}${notes}`] : [],
  };
}
