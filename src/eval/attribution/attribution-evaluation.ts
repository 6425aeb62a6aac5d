/**
 * `assay eval <dataset> --attribution`: how well the attribution check (`src/verify/attribution.ts`)
 * tells evidence about the claimed material and property from evidence about another.
 *
 * For every locatable truth (`locate-truth.ts`) the located sentence or table row is the
 * evidence, and the claimed material is the truth's FIRST alias (an extractor's name for it need
 * not be the one printed there: the check must resolve aliases and abbreviations itself).
 * - The truth's own triplet must be accepted.
 * - Material swap: the same evidence claimed for another material of the paper — the first other
 *   truth material that is not the same material (`sameMaterial` over all aliases), else the first
 *   material mention of the article (`findMaterialMentions`) that is not — must be rejected.
 * - Property swap: the same evidence claimed as each other property of the same dimension in the
 *   schemas (tc ↔ curie_temperature, neel_temperature) must be rejected.
 * A swap whose material (any alias, written or equal to a mention by `sameMaterial`) or property is named in the evidence
 * (the span or the sentence before it) is no wrong attribution: it is skipped and counted in
 * `skippedSwaps`.
 * - Condition swap (issue 26, `condition-swap.ts`): the truth's value claimed under another
 *   condition the paper states (HSE06 for the GGA/PBE value), judged by the fact check
 *   (`checkFact` at the located anchor), which must drop or contradict it. Counted in
 *   `byKind.condition` and `conditionSwapsRejected`, apart from `swaps`/`swapsRejected`, which
 *   stay the material and property swaps of before so that the figure remains comparable across
 *   issues (and the issue sets a threshold for each); `allKinds` adds them up. A condition read
 *   with no incompatible counterpart of its group in the paper is `skippedSwaps.condition`.
 * - The fact check on the truths themselves (`factCheck`): how often the gate's value-role and
 *   condition reader accept the true triplet (`ok`), doubt it or reject it; a false `rejected`
 *   is recall lost by every engine.
 */
import type { Article } from '../../contracts/article';
import type { Triplet } from '../../contracts/triplet';
import { findPropertyMentions } from '../../properties';
import { describeQuote } from '../../text/anchoring';
import { findMaterialMentions, sameMaterial } from '../../text/materials';
import type { ArticleIndex } from '../../text/article-index';
import type { Condition } from '../../contracts/conditions';
import { conditionGroup, findConditionMentions, methodsCompatible, type ConditionMention } from '../../text/conditions';
import { parseQuantities } from '../../text/quantities';
import { articleIndexFor, checkAttribution, type AttributionDependencies } from '../../verify/attribution';
import { checkFact, type FactCheck, type FactCheckDependencies } from '../../verify/fact-check';
import { defaultGroundingDependencies } from '../../verify/grounding-dependencies';
import { namesMaterial } from '../../verify/material-named';
import { splitQualifiedName } from '../qualified-name';
import type { SiConverter } from '../si-conversion';
import { valuesMatch } from '../value-match';
import { conditionSwapRejected, conditionSwaps } from './condition-swap';
import { evidenceUnits, LOCATE_TOLERANCE, locateTruth, type LocatedEvidence } from './locate-truth';
import type { TruthTriplet } from '../triplet-scorer-types';

/** One paper: its captured article and its truths. */
export interface AttributionCase {
  paper: string;
  article: Article;
  truths: TruthTriplet[];
}

/** A rejected truth or an accepted swap, for reading the failures. */
export interface AttributionExample {
  paper: string;
  kind: 'truth' | 'material' | 'property' | 'condition';
  material: string;
  property: string;
  /** For a condition swap: the condition read for the value → the one claimed ("GGA-PBE → HSE06"). */
  condition?: string;
  quote: string;
  reasons: string[];
}

/** A truth the fact check did not accept, for reading what the value-role or condition reader got wrong. */
export interface FactCheckExample {
  paper: string;
  material: string;
  value: string;
  verdict: FactCheck['verdict'];
  reasons: string[];
  /** The conditions read, as "kind: value". */
  conditions: string[];
  quote: string;
}

/** The figures (shares in [0, 1]; null when there is nothing to divide). */
export interface AttributionFigures {
  /** Truths in the data (of the papers read). */
  truthRecords: number;
  /** Locatable truths checked. */
  truths: number;
  accepted: number;
  truthAccepted: number | null;
  swaps: number;
  rejected: number;
  /** Material and property swaps (the kinds measured before issue 26; see the module comment). */
  swapsRejected: number | null;
  byKind: {
    material: { swaps: number; rejected: number };
    property: { swaps: number; rejected: number };
    condition: { swaps: number; rejected: number };
  };
  /** Share of condition swaps rejected by the fact check. */
  conditionSwapsRejected: number | null;
  /** All three kinds together. */
  allKinds: { swaps: number; rejected: number; swapsRejected: number | null };
  skippedSwaps: { material: number; property: number; condition: number };
  /** The fact check (`checkFact`) on the located truths: accepted, doubted, rejected; up to `EXAMPLES` that were not accepted. */
  factCheck: { truths: number; ok: number; needsReview: number; rejected: number; failures: FactCheckExample[] };
  /** How the truths were located: the dataset's sentence, a value with its unit, a bare cell. */
  locatedBy: Record<LocatedEvidence['how'], number>;
  /** Of those, how many the check accepted. */
  acceptedBy: Record<LocatedEvidence['how'], number>;
  /**
   * Truths located at a later sentence or row than the first printing their value and material,
   * because that one names the property (`LocatedEvidence.byPropertyName`), and how many of them
   * the check accepted.
   */
  locatedByPropertyName: { truths: number; accepted: number };
  papers: number;
  /** Up to `EXAMPLES` rejected truths and accepted swaps. */
  failures: AttributionExample[];
}

/** How many failures the result lists. */
export const EXAMPLES = 25;

const share = (part: number, whole: number) => (whole === 0 ? null : part / whole);

/** The first alias of `truth`, the claimed material. */
const claimed = (truth: TruthTriplet) => truth.aliases[0]!;

function sameTruthMaterial(a: readonly string[], b: readonly string[]): boolean {
  return a.some((left) => b.some((right) => left.trim().toLowerCase() === right.trim().toLowerCase() || sameMaterial(left, right)));
}

/** The evidence window a swap must not be named in: the span and the sentence before it in its block (`index`'s sentences). */
function window(index: ArticleIndex, located: LocatedEvidence): string {
  const { text } = index.article;
  const block = index.blockAt(located.start);
  let before = '';
  for (const sentence of block ? index.sentencesOf(block) : []) {
    if (sentence.end > located.start) break;
    before = text.slice(sentence.start, sentence.end);
  }
  return `${before} ${text.slice(located.start, located.end)}`;
}

/** The material swapped in for `truth` (see the module comment), or undefined when none fits. */
function swapMaterial(paper: AttributionCase, truth: TruthTriplet, evidence: string, mentions: () => string[]): string | undefined {
  const eligible = (aliases: readonly string[]) => !sameTruthMaterial(aliases, truth.aliases) && !namesMaterial(evidence, aliases);
  const other = paper.truths.find((candidate) => eligible(candidate.aliases));
  return other ? claimed(other) : mentions().find((mention) => eligible([mention]));
}

/**
 * Measure the attribution check over `cases` (see the module comment). `convert` is the
 * scorer's SI converter (to locate values printed in other units); `dependencies` the
 * attribution check's, whose `schemas` are also the fact check's catalogue. Never throws for
 * valid articles and truths.
 */
export function evaluateAttribution(
  cases: readonly AttributionCase[],
  convert: SiConverter,
  dependencies: AttributionDependencies,
): AttributionFigures {
  const factDependencies: FactCheckDependencies = {
    grounding: defaultGroundingDependencies,
    attribution: dependencies,
    schemas: dependencies.schemas,
  };
  const figures: AttributionFigures = {
    truthRecords: 0,
    truths: 0,
    accepted: 0,
    truthAccepted: null,
    swaps: 0,
    rejected: 0,
    swapsRejected: null,
    byKind: { material: { swaps: 0, rejected: 0 }, property: { swaps: 0, rejected: 0 }, condition: { swaps: 0, rejected: 0 } },
    conditionSwapsRejected: null,
    allKinds: { swaps: 0, rejected: 0, swapsRejected: null },
    skippedSwaps: { material: 0, property: 0, condition: 0 },
    factCheck: { truths: 0, ok: 0, needsReview: 0, rejected: 0, failures: [] },
    locatedBy: { source: 0, quantity: 0, 'bare-number': 0 },
    acceptedBy: { source: 0, quantity: 0, 'bare-number': 0 },
    locatedByPropertyName: { truths: 0, accepted: 0 },
    papers: cases.length,
    failures: [],
  };
  for (const paper of cases) {
    const { article } = paper;
    // The gate's own index of the paper: its sentences and rows are the evidence units here too.
    const index = articleIndexFor(article, dependencies);
    const units = evidenceUnits(article, index);
    let mentionCache: string[] | undefined;
    const mentions = () =>
      (mentionCache ??= [
        ...new Set(
          findMaterialMentions(article.text)
            .filter((m) => m.kind !== 'abbreviation')
            .map((m) => m.text),
        ),
      ]);
    let conditionCache: ConditionMention[] | undefined;
    const conditionMentions = () => (conditionCache ??= findConditionMentions(article.text));
    for (const truth of paper.truths) {
      figures.truthRecords += 1;
      const schema = dependencies.schemas.find((candidate) => candidate.name === truth.property);
      const located = locateTruth(article, truth, convert, units, schema);
      if (!located) continue;
      figures.locatedBy[located.how] += 1;
      if (located.byPropertyName) figures.locatedByPropertyName.truths += 1;
      const anchor = { start: located.start, end: located.end, score: 1, method: 'position' as const };
      const triplet: Triplet = {
        material: claimed(truth),
        property: truth.property,
        value: truth.value,
        unit: truth.unit,
        evidence: describeQuote(article.text, located.start, located.end),
        engine: 'truth',
      };
      const check = (candidate: Triplet) => checkAttribution(candidate, article, anchor, dependencies);
      const note = (kind: AttributionExample['kind'], candidate: Triplet, reasons: string[]) => {
        if (figures.failures.length < EXAMPLES)
          figures.failures.push({
            paper: paper.paper,
            kind,
            material: candidate.material,
            property: candidate.property,
            quote: candidate.evidence!.quote.exact.slice(0, 300),
            reasons,
          });
      };

      figures.truths += 1;
      const own = check(triplet);
      if (own.attributed) {
        figures.accepted += 1;
        figures.acceptedBy[located.how] += 1;
        if (located.byPropertyName) figures.locatedByPropertyName.accepted += 1;
      } else note('truth', triplet, own.reasons);

      const evidence = window(index, located);
      const material = swapMaterial(paper, truth, evidence, mentions);
      if (material === undefined) figures.skippedSwaps.material += 1;
      else tally('material', { ...triplet, material });

      const others = dependencies.schemas.filter((other) => schema && other.name !== schema.name && other.dimension === schema.dimension);
      for (const other of others) {
        if (findPropertyMentions(evidence, [other]).length > 0) figures.skippedSwaps.property += 1;
        else tally('property', { ...triplet, property: other.name });
      }

      // The fact check reads the value where it is printed, as a tool reports it (73 meV, not
      // the dataset's 0.073 eV): the gate grounds a quote that shows the value and its unit.
      const asPrinted: Triplet = { ...triplet, ...printedForm(article.text.slice(located.start, located.end), truth, convert) };
      const fact = checkFact(asPrinted, article, anchor, factDependencies);
      tallyFact(paper.paper, asPrinted, fact);
      const { swaps, unmatched } = conditionSwaps(fact.conditions, conditionMentions(), located);
      figures.skippedSwaps.condition += unmatched.length;
      for (const { original, swapped } of swaps) {
        const claimedUnder = claimUnder(asPrinted, swapped);
        const verdict = checkFact(claimedUnder, article, anchor, factDependencies);
        figures.byKind.condition.swaps += 1;
        if (conditionSwapRejected(verdict, swapped, fact.verdict === 'ok')) figures.byKind.condition.rejected += 1;
        else if (figures.failures.length < EXAMPLES)
          figures.failures.push({
            paper: paper.paper,
            kind: 'condition',
            material: claimedUnder.material,
            property: triplet.property,
            condition: `${original.text ?? original.value} → ${swapped.text ?? swapped.value}`,
            quote: triplet.evidence!.quote.exact.slice(0, 300),
            reasons: ['accepted', ...verdict.reasons],
          });
      }

      function tally(kind: 'material' | 'property', swapped: Triplet) {
        const verdict = check(swapped);
        figures.swaps += 1;
        figures.byKind[kind].swaps += 1;
        if (!verdict.attributed) {
          figures.rejected += 1;
          figures.byKind[kind].rejected += 1;
        } else note(kind, swapped, ['accepted']);
      }
    }
  }
  figures.truthAccepted = share(figures.accepted, figures.truths);
  figures.swapsRejected = share(figures.rejected, figures.swaps);
  const condition = figures.byKind.condition;
  figures.conditionSwapsRejected = share(condition.rejected, condition.swaps);
  const all = { swaps: figures.swaps + condition.swaps, rejected: figures.rejected + condition.rejected };
  figures.allKinds = { ...all, swapsRejected: share(all.rejected, all.swaps) };
  return figures;

  function tallyFact(paper: string, triplet: Triplet, fact: FactCheck) {
    const tally = figures.factCheck;
    tally.truths += 1;
    if (fact.verdict === 'ok') tally.ok += 1;
    else if (fact.verdict === 'needs_review') tally.needsReview += 1;
    else tally.rejected += 1;
    // A false `rejected` loses recall for every engine, a `needs_review` only asks a person:
    // rejections are listed first, and take a doubt's place once the list is full.
    const at = fact.verdict === 'rejected' ? tally.failures.findIndex((example) => example.verdict !== 'rejected') : -1;
    if (fact.verdict !== 'ok' && (tally.failures.length < EXAMPLES || at >= 0))
      tally.failures.splice(at >= 0 ? at : tally.failures.length, tally.failures.length >= EXAMPLES ? 1 : 0, {
        paper,
        material: triplet.material,
        value: `${formatValue(triplet.value)} ${triplet.unit}`,
        verdict: fact.verdict,
        reasons: fact.reasons,
        conditions: fact.conditions.map((condition) => `${condition.kind}: ${condition.value}`),
        quote: triplet.evidence!.quote.exact.slice(0, 300),
      });
  }
}

/**
 * The truth's value and unit as `text` (its located evidence) prints them — the first quantity
 * equal after SI conversion (`LOCATE_TOLERANCE`) — else the truth's own (a bare table cell).
 */
function printedForm(text: string, truth: TruthTriplet, convert: SiConverter): Pick<Triplet, 'value' | 'unit'> {
  const printed = parseQuantities(text).find(
    (quantity) => quantity.unit !== '' && valuesMatch({ value: quantity.value, unit: quantity.unit }, truth, LOCATE_TOLERANCE, convert),
  );
  return printed ? { value: printed.value, unit: printed.unit } : { value: truth.value, unit: truth.unit };
}

const conditionReader = { findConditionMentions, methodsCompatible };

/**
 * `triplet` claimed under `swapped`: the conditions its material name states as qualifiers
 * (`splitQualifiedName`: "BPN-GaN (HSE06)" → "BPN-GaN" + HSE06) become stated conditions, and
 * those of the swapped condition's group give way to it. A tool that mis-pairs a value writes
 * the wrong condition, not the right one and the wrong one side by side. A condition that is
 * part of the material as the splitter keeps it (a prefix: "wz-AlN") stays in the name, and
 * the claim then states two conditions of one group.
 */
function claimUnder(triplet: Triplet, swapped: Condition): Triplet {
  const { base, qualifiers } = splitQualifiedName(triplet.material, conditionReader);
  const group = conditionGroup(swapped);
  const kept = qualifiers
    .filter((qualifier) => conditionGroup(qualifier) !== group)
    .map((qualifier): Condition => ({ kind: qualifier.kind, value: qualifier.value, ...(qualifier.text ? { text: qualifier.text } : {}) }));
  return { ...triplet, material: base, conditions: [...kept, swapped] };
}

/** A triplet's value as written for a reader: "1.86", "1.5–2.3". */
function formatValue(value: Triplet['value']): string {
  return value.kind === 'number' ? String(value.value) : `${value.low}–${value.high}`;
}
