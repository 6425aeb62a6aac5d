/**
 * One entry of an import file before validation, shared by the JSON/JSONL reader
 * (`dataset-import.ts`) and the CSV reader (`csv-import.ts`): its place ("line 3", "row 3") and
 * either its JSON text (a JSONL line, parsed when checked) or its parsed value (a JSON array's
 * element, a CSV record's row). `problem` is set when reading the whole file already found the
 * entry unusable (a JSON array element with a key written twice): it is then refused with it.
 */
export type ImportEntry = { where: string; text: string } | { where: string; value: unknown; problem?: string };
