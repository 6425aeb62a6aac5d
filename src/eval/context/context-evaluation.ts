/**
 * `assay eval <dataset> --context`: context recall of what the SLM-MATRIX pipeline sends (top
 * level: the reading stage's calls and the focused passage, chosen by the same `planReading` as
 * `runMatrix`), beside `passages`, the scan-candidate passage it sent before retrieval,
 * `retrieval`, the retrieval layer at one MMR k and budget, and a recall-versus-budget curve over
 * MMR's k and the per-call token budget. No model is called; prompt tokens are counted with the browser
 * roster's first proposer's tokenizer (Qwen2.5) over the proposer's real messages.
 */
import type { PropertyDefinition } from '../../contracts/property';
import { retrievalOf } from '../../matrix/presets';
import { chunkArticle } from '../../text/retrieval';
import { evidenceUnits, locateTruthEverywhere } from '../attribution/locate-truth';
import { evidenceCatalogue, evidenceSplit, loadEvidenceCases, type EvidenceLoadOptions } from '../evidence/evidence-datasets';
import type { SiConverter } from '../si-conversion';
import { passageCalls, pipelineCalls, propertyCandidates, retrievalCalls, type CountChat, type RetrievalBudget } from './context-calls';
import { scoreContextRecall, type ContextCase, type ContextRecall } from './context-recall';
import type { MatrixPreset } from '../../contracts/matrix-preset';

export interface ContextRunOptions extends EvidenceLoadOptions {
  preset: MatrixPreset;
  convert: SiConverter;
  count: { family: string; exact: boolean; countText: (text: string) => number; countChat: CountChat };
  /** The retrieval path's budget reported beside today's passages. */
  budget: RetrievalBudget;
  /** Budgets of the recall-versus-budget curve. */
  curve: readonly RetrievalBudget[];
}

/** The JSON `assay eval <dataset> --context --json` prints. */
export type ContextReport = {
  dataset: string;
  /** The papers or files read (`evidenceSplit`): "dev" for bandgap-200 and supermat, the split files for polyie, "all" for sofc-exp. */
  split: string;
  version: string;
  preset: string;
  /** What the top-level figures measure: the calls the pipeline makes (reading stage and focused passage). */
  calls: 'pipeline';
  tokenizer: { family: string; exact: boolean };
  /** Before retrieval: one scan-candidate passage per property (`buildPassage`, the preset's `maxPassageChars`), for comparison. */
  passages: ContextRecall & { maxPassageChars: number };
  /** Most calls one paper made, summed over its properties (reading calls and focused passage). */
  maxCallsPerPaper: number;
  /** The preset's cap on reading calls per property (`retrievalOf(preset).maxReadingCalls`). */
  maxReadingCalls: number;
  /** The retrieval layer alone at `budget`: MMR's k and one packing, no reading stage. */
  retrieval: ContextRecall & RetrievalBudget;
  curve: (ContextRecall & RetrievalBudget)[];
  papers: number;
} & ContextRecall;

/** JSON has no Infinity: k = Infinity ("every relevant chunk") is written as null. */
function budgetJson(budget: RetrievalBudget): RetrievalBudget {
  return { ...budget, k: Number.isFinite(budget.k) ? budget.k : (null as unknown as number) };
}

/** Most calls of one paper, its properties' calls summed. */
function maxCallsPerPaper(cases: readonly ContextCase[]): number {
  const byPaper = new Map<string, number>();
  for (const entry of cases) byPaper.set(entry.paper, (byPaper.get(entry.paper) ?? 0) + entry.calls.length);
  return Math.max(0, ...byPaper.values());
}

/**
 * Load the dataset's papers with truths (`loadEvidenceCases`, the catalogue `options.schemas`
 * with the dataset's reader-defined properties: `evidenceCatalogue`), locate every truth, and
 * score today's passages, the retrieval path at `budget`, and each budget of `curve`. Truths of a
 * property without a schema are left out (nothing would extract them). Rejects when the
 * dataset's files are missing or a capture fails.
 */
export async function runContextEvaluation(options: ContextRunOptions): Promise<ContextReport> {
  const schemas = evidenceCatalogue(options.dataset, options.schemas);
  const papers = await loadEvidenceCases({ ...options, schemas });
  const byName = new Map(schemas.map((schema) => [schema.name, schema]));
  const budgets = [options.budget, ...options.curve];
  const passages: ContextCase[] = [];
  const pipeline: ContextCase[] = [];
  const retrieval: ContextCase[][] = budgets.map(() => []);
  for (const { paper, article, truths } of papers) {
    const units = evidenceUnits(article);
    const chunks = chunkArticle(article);
    const properties = [...new Set(truths.map((truth) => truth.property))]
      .map((name) => byName.get(name))
      .filter((property): property is PropertyDefinition => property !== undefined);
    for (const property of properties) {
      const located = truths
        .filter((truth) => truth.property === property.name)
        .map((truth) => ({ truth, located: locateTruthEverywhere(article, truth, options.convert, units) }));
      const candidates = propertyCandidates(article, property);
      passages.push({
        paper,
        truths: located,
        calls: passageCalls(article, property, candidates, options.preset, options.count.countChat),
      });
      pipeline.push({ paper, truths: located, calls: pipelineCalls(chunks, property, candidates, options.preset, options.count) });
      budgets.forEach((budget, index) =>
        retrieval[index]!.push({
          paper,
          truths: located,
          calls: retrievalCalls(chunks, property, candidates, budget, options.count),
        }),
      );
    }
  }
  const [atBudget, ...curve] = budgets.map((budget, index) => ({ ...scoreContextRecall(retrieval[index]!), ...budgetJson(budget) }));
  return {
    dataset: options.dataset,
    split: await evidenceSplit(options.dataset, options.dataRoot, options.version),
    version: options.dataset === 'bandgap-200' ? (options.version ?? 'pub') : '-',
    preset: options.preset.name,
    calls: 'pipeline',
    tokenizer: { family: options.count.family, exact: options.count.exact },
    ...scoreContextRecall(pipeline),
    maxCallsPerPaper: maxCallsPerPaper(pipeline),
    maxReadingCalls: retrievalOf(options.preset).maxReadingCalls,
    passages: { ...scoreContextRecall(passages), maxPassageChars: options.preset.maxPassageChars },
    retrieval: atBudget!,
    curve,
    papers: papers.length,
  };
}
