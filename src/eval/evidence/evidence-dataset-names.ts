/**
 * The names of the datasets whose truths are located in their texts, apart from the loaders
 * (evidence-datasets.ts) so that the evaluator registry and `assay --help` can list them without
 * loading the parsers.
 */

/** Datasets with truths that can be located in their captured text (the attribution check's). */
export const EVIDENCE_DATASETS = ['bandgap-200', 'supermat', 'polyie'] as const;

/**
 * The datasets `--context` measures: the evidence datasets and sofc-exp, whose truths are of
 * properties a reader defines (`SOFC_EXP_READER_PROPERTIES`), which the attribution check's
 * built-in catalogue does not hold.
 */
export const CONTEXT_DATASETS = [...EVIDENCE_DATASETS, 'sofc-exp'] as const;
