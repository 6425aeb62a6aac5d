/**
 * The two halves of the SuperMat chain measure (`assay eval supermat-chain`): the dataset an
 * engine builds from the SuperMat PDFs (extracted Tc triplets as the reader's saved rows,
 * `DatasetTriplet`), and the precedent questions asked of it (the SuperMat 2.0 materials of the
 * same papers, each "Yes" with its annotated Tc values).
 */
import type { Article } from '../../contracts/article';
import type { DatasetTriplet, SourcePaper } from '../../contracts/dataset';
import type { Triplet } from '../../contracts/triplet';
import { toDatasetTriplet } from '../../store/dataset-rows';
import { normalizeFormula } from '../../text/materials/index';
import { toSI } from '../../text/units/index';
import type { SupermatPaper } from '../supermat/supermat-truth';

/**
 * The paper of an extracted row as the extension saves it: key `doi:<DOI>` when the capture
 * found one, else `title:<title>` (the `papers` key convention of `SourcePaper`).
 */
export function chainPaper(article: Article): SourcePaper {
  return {
    key: article.doi ? `doi:${article.doi}` : `title:${article.title}`,
    doi: article.doi,
    url: article.url,
    title: article.title,
    authors: [...article.authors],
    journal: article.journal,
    year: article.year,
  };
}

/**
 * `triplets` extracted from `article` (paper `stem`) as dataset rows, built by `toDatasetTriplet`
 * (the extension's own row builder) with id `<stem>:<index>`. A row is `verified` when `grounded`
 * says its evidence re-anchors in the article and shows the value (the grounding gate, the
 * machine verdict a rules triplet can get), else `needs_review`; the review stays `pending`, so
 * the precedent check uses only the verified rows (`datasetRowUsable`). `now` dates the rows.
 */
export function chainRows(
  stem: string,
  article: Article,
  triplets: readonly Triplet[],
  options: { engine: string; grounded: (triplet: Triplet) => boolean; now: Date },
): DatasetTriplet[] {
  const paper = chainPaper(article);
  return triplets.map((triplet, index) =>
    toDatasetTriplet(
      { status: options.grounded(triplet) ? 'verified' : 'needs_review', triplet, votes: [options.engine], reasons: [] },
      { paper, models: [], id: `${stem}:${index}`, now: options.now },
    ),
  );
}

/** One precedent question: a SuperMat material, every way the truth wrote it, its Tc values and its papers. */
export interface ChainQuestion {
  /** The material as first annotated, PDF spaces removed (`supermatAliases`' last form). */
  material: string;
  aliases: string[];
  /** Annotated Tc values in K (a range by its lower end, as `answerFromDataset` cites one). */
  values: number[];
  /** Records whose unit does not convert to K (not in `values`). */
  unconverted: number;
  /** File stems of the SuperMat papers that annotate it. */
  papers: string[];
}

/** The key that makes two annotations one question: the normalized formula, else the folded text. */
function questionKey(material: string): string {
  return normalizeFormula(material) ?? material.toLowerCase().replace(/\s+/g, ' ').trim();
}

/**
 * One question per distinct material of `papers` (SuperMat truth, `parseSupermatTruth`), in
 * first-seen order. Every SuperMat record links a material to a Tc, so every answer is "Yes";
 * `values` are the records' Tc in K (`toSI`; a bare number is K, as the truth parser reads it).
 * Never throws.
 */
export function chainQuestions(papers: readonly SupermatPaper[]): ChainQuestion[] {
  const questions = new Map<string, ChainQuestion>();
  for (const paper of papers) {
    for (const truth of paper.truths) {
      const material = truth.aliases.at(-1)!;
      const key = questionKey(material);
      const question = questions.get(key) ?? { material, aliases: [], values: [], unconverted: 0, papers: [] };
      questions.set(key, question);
      for (const alias of truth.aliases) if (!question.aliases.includes(alias)) question.aliases.push(alias);
      if (!question.papers.includes(paper.stem)) question.papers.push(paper.stem);
      const number = truth.value.kind === 'number' ? truth.value.value : truth.value.low;
      const kelvin = toSI(number, truth.unit);
      if (kelvin && kelvin.unit === 'K') question.values.push(kelvin.value);
      else question.unconverted += 1;
    }
  }
  return [...questions.values()];
}
