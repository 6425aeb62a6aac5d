import { parseArgs } from 'node:util';
import { toCaptureFailure } from '../capture/errors';
import { readRegularFile } from '../capture/node/regular-file';
import { loadPropertySchemas, propertyCatalogue, selectPropertySchemas, type PropertyDefinition } from '../properties';
import { buildArticleIndex } from '../text/article-index';
import { scanArticle } from '../text/scan';
import type { ScanResult } from '../text/scan-types';
import { captureFile } from './capture-command';

/**
 * Resolve `--property`/`--schema` values into schemas: each value is a schema name, or a path
 * ending in ".json" holding one user-defined schema or an array of them (validated, then all of
 * them selected). No value: every built-in schema. Throws `PropertySchemaError` on an unknown
 * name or an invalid schema, and an `Error` when a schema file cannot be read or parsed.
 */
export async function resolvePropertySchemas(values: readonly string[]): Promise<PropertyDefinition[]> {
  const extra: unknown[] = [];
  const names: string[] = [];
  for (const value of values
    .flatMap((item) => item.split(','))
    .map((item) => item.trim())
    .filter(Boolean)) {
    if (!value.endsWith('.json')) {
      names.push(value);
      continue;
    }
    let data: unknown;
    try {
      data = JSON.parse(await readRegularFile(value, 'utf8'));
    } catch (error) {
      throw new Error(`cannot read property schema file ${value}: ${(error as Error).message}`);
    }
    const schemas = Array.isArray(data) ? data : [data];
    extra.push(...schemas);
    for (const schema of schemas) names.push(String((schema as { name?: unknown })?.name ?? ''));
  }
  return selectPropertySchemas(loadPropertySchemas(extra), names);
}

function shorten(text: string, length = 110): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length <= length ? flat : `${flat.slice(0, length - 1)}…`;
}

/** A short human summary of a scan: counts, then one line per candidate. */
export function summarizeScan(result: ScanResult, text: string): string {
  const lines = [
    `${result.quantities.length} quantities, ${result.materials.length} material mentions, ${result.candidates.length} candidates`,
  ];
  for (const candidate of result.candidates) {
    const material = candidate.material?.text ?? '(no material)';
    lines.push(
      `${candidate.blockId}\t${candidate.property}\t${candidate.quantity.valueText} ${candidate.quantity.unitText}\t${material}\t${shorten(text.slice(candidate.segment.start, candidate.segment.end))}`,
    );
  }
  return lines.join('\n') + '\n';
}

/** `assay scan <file> [--property NAME|FILE.json ...] [--json]` → `{ quantities, materials, candidates }`. Returns the exit code. */
export async function runScan(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { json: { type: 'boolean' }, property: { type: 'string', multiple: true } },
    });
  } catch (error) {
    process.stderr.write(`assay scan: ${(error as Error).message}\n`);
    return 2;
  }
  const [path] = parsed.positionals;
  if (!path || parsed.positionals.length > 1) {
    process.stderr.write('assay scan: give exactly one file: assay scan <file> [--property NAME] [--json]\n');
    return 2;
  }
  let properties: PropertyDefinition[];
  try {
    properties = await resolvePropertySchemas(parsed.values.property ?? []);
  } catch (error) {
    process.stderr.write(`assay scan: ${(error as Error).message.replace(/\n/g, ' ')}\n`);
    return 2;
  }
  try {
    const article = await captureFile(path);
    const result = scanArticle(buildArticleIndex(article, propertyCatalogue(properties)), { properties });
    process.stdout.write(parsed.values.json ? JSON.stringify(result) + '\n' : summarizeScan(result, article.text));
    return 0;
  } catch (error) {
    const failure = toCaptureFailure(error);
    process.stderr.write(`assay scan: ${path}: ${failure.message} [${failure.code}]\n`);
    return 1;
  }
}
