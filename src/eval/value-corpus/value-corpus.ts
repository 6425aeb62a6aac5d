/**
 * What the SOFC-Exp and MSPTC loaders hand to the shared evaluation (`value-corpus-evaluation`):
 * documents whose annotations are values with units tied to a material or another target, each
 * with its character span in the corpus text. Both corpora annotate synthesis or operating
 * values (working temperature, power density, amounts, heating times) rather than the material
 * properties Assay's schemas describe, so the evaluation scores two things (see there): the
 * engine's triplets against the annotated values whose unit has the dimension of a property
 * schema, and the quantity parser against every annotated span.
 */
import { ArticleBuilder } from '../../capture/article-builder';
import type { Article } from '../../contracts/article';
import type { ReportedValue } from '../../contracts/triplet';
import type { EvalTruth } from '../rescorable';
import type { Offsets } from '../span-score';

/** One annotated value: an `EvalTruth` with its span in `ValuePaper.text`. */
export interface ValueTruth extends EvalTruth {
  /** Parsed value, or null when the annotated text holds no readable number (a ratio "1:2", "four"). */
  value: ReportedValue | null;
  /** The annotated text of the value (number and unit). */
  valueText: string;
  start: number;
  end: number;
  /**
   * The property schema the annotation's own label maps to (SOFC-Exp slot names through the
   * schemas' synonyms); when set, a predicted triplet must name this property to match.
   */
  schema?: string;
}

/** One document of a value corpus. */
export interface ValuePaper {
  /** The corpus' document id (SOFC-Exp "PMC4495617", MSPTC "101039c6dt02166b"). */
  id: string;
  /** The document rebuilt for the engines (one paragraph per line of the corpus text). */
  article: Article;
  /** The corpus text the truths' offsets refer to. */
  text: string;
  /** Parts of `text` the annotators annotated; the quantity parser reads only these. */
  annotated: Offsets[];
  truths: ValueTruth[];
  /**
   * Annotated values left out of the truths by the corpus' task definition (MSPTC numbers of an
   * apparatus or a property): a parsed quantity on one of them is neither right nor wrong.
   */
  ignored: Offsets[];
}

/**
 * An `Article` of plain-text paragraphs (empty ones dropped), as the capture of a text file
 * would give, with `doi` and `title` from the corpus metadata. `adapter` names the corpus.
 */
export function plainArticle(paragraphs: readonly string[], meta: { title: string; doi: string | null; adapter: string }): Article {
  const builder = new ArticleBuilder();
  for (const paragraph of paragraphs) builder.add('paragraph', paragraph);
  const { text, blocks } = builder.build();
  return {
    doi: meta.doi,
    doiOrigin: null,
    title: meta.title,
    authors: [],
    journal: null,
    year: null,
    url: null,
    source: 'text',
    adapter: meta.adapter,
    blocks,
    text,
    abstractOnly: false,
    warnings: [],
  };
}
