/**
 * `assay eval <dataset> --attribution` on bandgap-200 (`--version pub|arxiv`), supermat or polyie:
 * the attribution check's acceptance of located truths and rejection of swapped ones
 * (src/eval/attribution/). JSON `{ dataset, split, version, truthAccepted, swapsRejected, truths,
 * swaps, byKind, … }`; the Markdown report counts the failures instead of listing them.
 */
import type { BandgapVersion } from '../bandgap/bandgap-dataset';
import { parseBandgapVersions } from '../bandgap/bandgap-evaluator';
import { defineMeasure, EvalUsageError } from '../evaluator';
import { EVIDENCE_DATASETS } from '../evidence/evidence-dataset-names';

export const attributionMeasure = defineMeasure({
  flag: 'attribution',
  summary: 'the attribution check: located truths accepted, swapped ones rejected (no model)',
  flags: { version: { type: 'string', value: 'pub|arxiv', help: 'bandgap-200 only: which texts (default pub)' } },
  datasets: EVIDENCE_DATASETS,
  async run({ dataset, values, dataRoot, limit, capture, scorer, progress }) {
    if (values.replay || values.engine || values['all-replays'] || values['replay-vote'])
      throw new EvalUsageError('--attribution checks the ground truth itself; --replay, --engine and --all-replays do not apply');
    if (values.version !== undefined && dataset !== 'bandgap-200') throw new EvalUsageError('--version applies to bandgap-200 only');
    const [version] = parseBandgapVersions(values.version, false) as [BandgapVersion];
    const [{ runAttributionEvaluation }, { defaultAttributionDependencies }] = await Promise.all([
      import('./attribution-datasets'),
      import('../../verify/attribution'),
    ]);
    const report = await runAttributionEvaluation({
      dataset: dataset as (typeof EVIDENCE_DATASETS)[number],
      dataRoot,
      version,
      limit,
      capture,
      convert: (await scorer()).convert,
      dependencies: defaultAttributionDependencies(),
      progress,
    });
    return {
      json: report,
      markdown: '```json\n' + JSON.stringify({ ...report, failures: report.failures.length }, null, 2) + '\n```\n',
    };
  },
});
