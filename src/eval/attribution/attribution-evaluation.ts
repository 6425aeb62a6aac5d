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
 */
import type { Article } from '../../contracts/article';
import type { Triplet } from '../../contracts/triplet';
import { findPropertyMentions } from '../../properties';
import { describeQuote } from '../../text/anchoring';
import { findMaterialMentions, sameMaterial } from '../../text/materials';
import { splitSentences } from '../../text/scan-sentences';
import { checkAttribution, type AttributionDependencies } from '../../verify/attribution';
import { namesMaterial } from '../../verify/material-named';
import type { SiConverter } from '../si-conversion';
import type { TruthTriplet } from '../triplet-scorer';
import { evidenceUnits, locateTruth, type LocatedEvidence } from './locate-truth';

/** One paper: its captured article and its truths. */
export interface AttributionCase {
  paper: string;
  article: Article;
  truths: TruthTriplet[];
}

/** A rejected truth or an accepted swap, for reading the failures. */
export interface AttributionExample {
  paper: string;
  kind: 'truth' | 'material' | 'property';
  material: string;
  property: string;
  quote: string;
  reasons: string[];
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
  swapsRejected: number | null;
  byKind: { material: { swaps: number; rejected: number }; property: { swaps: number; rejected: number } };
  skippedSwaps: { material: number; property: number };
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

/** The evidence window a swap must not be named in: the span and the sentence before it in its block. */
function window(article: Article, located: LocatedEvidence): string {
  const block = article.blocks.find((candidate) => candidate.start <= located.start && located.start < candidate.end);
  let before = '';
  if (block && block.kind !== 'table')
    for (const sentence of splitSentences(block.text)) {
      if (block.start + sentence.end > located.start) break;
      before = block.text.slice(sentence.start, sentence.end);
    }
  return `${before} ${article.text.slice(located.start, located.end)}`;
}

/** The material swapped in for `truth` (see the module comment), or undefined when none fits. */
function swapMaterial(paper: AttributionCase, truth: TruthTriplet, evidence: string, mentions: () => string[]): string | undefined {
  const eligible = (aliases: readonly string[]) => !sameTruthMaterial(aliases, truth.aliases) && !namesMaterial(evidence, aliases);
  const other = paper.truths.find((candidate) => eligible(candidate.aliases));
  return other ? claimed(other) : mentions().find((mention) => eligible([mention]));
}

/**
 * Measure the attribution check over `cases` (see the module comment). `convert` is the
 * scorer's SI converter (to locate values printed in other units); `schemas` the property
 * schemas. Never throws for valid articles and truths.
 */
export function evaluateAttribution(
  cases: readonly AttributionCase[],
  convert: SiConverter,
  dependencies: AttributionDependencies,
): AttributionFigures {
  const figures: AttributionFigures = {
    truthRecords: 0,
    truths: 0,
    accepted: 0,
    truthAccepted: null,
    swaps: 0,
    rejected: 0,
    swapsRejected: null,
    byKind: { material: { swaps: 0, rejected: 0 }, property: { swaps: 0, rejected: 0 } },
    skippedSwaps: { material: 0, property: 0 },
    locatedBy: { source: 0, quantity: 0, 'bare-number': 0 },
    acceptedBy: { source: 0, quantity: 0, 'bare-number': 0 },
    locatedByPropertyName: { truths: 0, accepted: 0 },
    papers: cases.length,
    failures: [],
  };
  for (const paper of cases) {
    const { article } = paper;
    const units = evidenceUnits(article);
    let mentionCache: string[] | undefined;
    const mentions = () =>
      (mentionCache ??= [
        ...new Set(
          findMaterialMentions(article.text)
            .filter((m) => m.kind !== 'abbreviation')
            .map((m) => m.text),
        ),
      ]);
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

      const evidence = window(article, located);
      const material = swapMaterial(paper, truth, evidence, mentions);
      if (material === undefined) figures.skippedSwaps.material += 1;
      else tally('material', { ...triplet, material });

      const others = dependencies.schemas.filter((other) => schema && other.name !== schema.name && other.dimension === schema.dimension);
      for (const other of others) {
        if (findPropertyMentions(evidence, [other]).length > 0) figures.skippedSwaps.property += 1;
        else tally('property', { ...triplet, property: other.name });
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
  return figures;
}
