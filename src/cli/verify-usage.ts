/**
 * `assay verify`'s lines in `assay --help`, apart from the command so that `--help` does not load
 * the gate, the capture and the property schemas it imports.
 */
/** The command's lines in `assay --help`. */
export const VERIFY_USAGE = `  verify <paper> --triplets FILE.jsonl [--schema NAME|FILE.json …] [--json]
                                                 check any tool's facts (one JSON object per line: material,
                                                 property, value, unit, optional quote, conditions) against the
                                                 paper: verified / needs_review / rejected with reasons, conditions
                                                 and the anchored evidence; exit 0 when it ran, 1 for bad input
`;
