/**
 * `assay precedent "<material>" [--property tc] [--reference FILE]... [--texts FILE.jsonl]
 * [--engine scripted --script FILE | --engine openai --base-url URL --model judge=ID
 * [--api-key-env NAME]] [--dataset EXPORT.json[l]] [--literature --mailto ADDRESS
 * [--openalex-key-env NAME]] [--data DIR] [--json]`: has the material been reported with the
 * property? Answers from the reader's dataset and reference tables first, then from retrieved
 * texts and open-literature abstracts through the judge (`checkPrecedent`). With `--json`, one
 * document `{ material, property, answer, values, sources, searched, unknownBecause?, dropped,
 * related, phases }`.
 */
import { existsSync } from 'node:fs';
import { NotRegularFileError, readRegularFile } from '../capture/node/regular-file';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { defaultReferencePath } from '../eval/cornell-tc/cornell-tc-dataset';
import { resolveDataRoot } from '../eval/data-root';
import type { LlmPort } from '../llm/llm-port';
import { EngineUsageError } from '../llm/engines/engine-kind';
import { engineRegistry, type EngineRegistry } from '../llm/engines/registry';
import { checkPrecedent, type NamedReferenceTable, type PrecedentCheck } from '../precedent/check-precedent';
import { retrievedTextSchema, type RetrievedText } from '../precedent/judge/judge-schema';
import { createArxivClient } from '../precedent/literature/arxiv';
import { createCrossrefClient } from '../precedent/literature/crossref';
import { createOpenAlexClient } from '../precedent/literature/openalex';
import type { LiteratureClient } from '../precedent/literature/types';
import { parseReferenceTable } from '../precedent/reference-table';
import { parseAssayImport } from '../export/dataset-import';
import type { DatasetTriplet } from '../contracts/dataset';
import { CLI_ENGINE_SOURCES, engineChoices, engineKindOptions } from './matrix-engines';

/** Bad options (exit 2) vs. unreadable input (exit 1); the message is one line. */
class PrecedentUsageError extends Error {}
class PrecedentInputError extends Error {}

const oneLine = (text: string): string => text.replace(/\s*\n\s*/g, ' ');

async function readInput(path: string, what: string): Promise<string> {
  try {
    return await readRegularFile(path, 'utf8');
  } catch (error) {
    if (error instanceof NotRegularFileError) throw new PrecedentInputError(`${what} ${error.message}`);
    throw new PrecedentInputError(
      `${what} ${path}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'No such file' : (error as Error).message}`,
    );
  }
}

async function loadTable(path: string, name: string): Promise<NamedReferenceTable> {
  const text = await readInput(path, 'reference table');
  try {
    return { name, table: parseReferenceTable(text) };
  } catch (error) {
    throw new PrecedentInputError(`reference table ${path}: ${oneLine((error as Error).message)}`);
  }
}

/**
 * Retrieved texts from a JSON Lines file, one `RetrievedText` (`{ id, doi, title, year, text,
 * origin }`) per non-empty line. Throws `PrecedentInputError` naming the first bad line.
 */
export async function loadRetrievedTexts(path: string): Promise<RetrievedText[]> {
  const lines = (await readInput(path, 'texts')).split(/\r?\n/);
  const texts: RetrievedText[] = [];
  for (const [index, line] of lines.entries()) {
    if (line.trim() === '') continue;
    let data: unknown;
    try {
      data = JSON.parse(line);
    } catch (error) {
      throw new PrecedentInputError(`texts ${path} line ${index + 1} is not JSON: ${(error as Error).message}`);
    }
    const parsed = retrievedTextSchema.safeParse(data);
    if (!parsed.success)
      throw new PrecedentInputError(
        `texts ${path} line ${index + 1}: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ')}`,
      );
    texts.push(parsed.data);
  }
  return texts;
}

/**
 * The reader's saved triplets from an Assay JSON/JSONL export (`parseAssayImport`). Bad rows are
 * skipped with one warning line on stderr; a file with no valid row throws `PrecedentInputError`.
 */
export async function loadDataset(path: string): Promise<DatasetTriplet[]> {
  const { rows, problems } = parseAssayImport(await readInput(path, 'dataset'));
  if (rows.length === 0) throw new PrecedentInputError(`dataset ${path}: no valid row${problems[0] ? ` (${oneLine(problems[0])})` : ''}`);
  if (problems.length > 0)
    process.stderr.write(`assay precedent: dataset ${path}: ${problems.length} problem(s) skipped, first: ${oneLine(problems[0]!)}\n`);
  return rows;
}

interface LiteratureFlags {
  literature?: boolean | undefined;
  mailto?: string | undefined;
  /** Refused: kept as a flag only to say why and what to use instead. */
  'openalex-key'?: string | undefined;
  'openalex-key-env'?: string | undefined;
}

/**
 * Why `--openalex-key KEY` is refused: a key on the command line can be read by every user of the
 * machine (`ps`, /proc/<pid>/cmdline) and stays in the shell's history.
 */
export const OPENALEX_KEY_ON_COMMAND_LINE =
  '--openalex-key is not accepted: a key on the command line is visible to other users (ps) and kept in shell history. Put the key in an environment variable and name it: --openalex-key-env NAME (e.g. OPENALEX_KEY=… in your shell profile, then --openalex-key-env OPENALEX_KEY)';

/**
 * Literature clients for `--literature`: Crossref (needs `--mailto`, its polite pool) and arXiv,
 * plus OpenAlex with the key in the environment variable `--openalex-key-env` names (read from
 * `env`), all on `fetchImpl`. Undefined without `--literature`; throws `PrecedentUsageError` for
 * `--openalex-key` (`OPENALEX_KEY_ON_COMMAND_LINE`), a missing or malformed `--mailto`, an
 * `--openalex-key-env` variable that is unset or empty, or literature flags without `--literature`.
 */
export function literatureClients(
  flags: LiteratureFlags,
  fetchImpl: typeof globalThis.fetch,
  env: Readonly<Record<string, string | undefined>> = process.env,
): LiteratureClient[] | undefined {
  if (flags['openalex-key'] !== undefined) throw new PrecedentUsageError(OPENALEX_KEY_ON_COMMAND_LINE);
  if (!flags.literature) {
    if (flags.mailto !== undefined || flags['openalex-key-env'] !== undefined)
      throw new PrecedentUsageError('--mailto and --openalex-key-env apply only with --literature');
    return undefined;
  }
  const mailto = flags.mailto?.trim() ?? '';
  if (mailto === '')
    throw new PrecedentUsageError("--literature needs --mailto ADDRESS (Crossref's polite pool asks for a contact address)");
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(mailto)) throw new PrecedentUsageError(`--mailto "${mailto}" is not an e-mail address`);
  const clients: LiteratureClient[] = [createCrossrefClient({ fetch: fetchImpl, mailto }), createArxivClient({ fetch: fetchImpl })];
  const keyVariable = flags['openalex-key-env'];
  if (keyVariable !== undefined) {
    const key = env[keyVariable]?.trim();
    if (!key) throw new PrecedentUsageError(`environment variable ${keyVariable} (--openalex-key-env) is not set`);
    clients.push(createOpenAlexClient({ fetch: fetchImpl, apiKey: key }));
  }
  return clients;
}

type EngineFlags = {
  engine?: string | undefined;
  script?: string | undefined;
  'base-url'?: string | readonly string[] | undefined;
  'api-key-env'?: string | undefined;
  model?: string[] | undefined;
};

/**
 * The judge's port from `--engine <kind>` and the kind's flags (its `cli.judge` in `registry`), or
 * undefined without `--engine`. Throws `PrecedentUsageError` (one line) for a kind the registry
 * does not offer the CLI ("use --engine scripted or openai") and for what the kind refuses.
 */
async function judgeEngine(flags: EngineFlags, registry: EngineRegistry): Promise<LlmPort | undefined> {
  if (flags.engine === undefined) return undefined;
  const kind = registry.get(flags.engine, 'cli');
  if (!kind?.cli) throw new PrecedentUsageError(`unknown engine '${flags.engine}'; use --engine ${engineChoices(registry).or}`);
  try {
    return await kind.cli.judge(flags, CLI_ENGINE_SOURCES);
  } catch (error) {
    if (error instanceof EngineUsageError) throw new PrecedentUsageError(error.message);
    throw error;
  }
}

function formatReference(value: PrecedentCheck['values'][number]): string {
  const reference = value.reference;
  if (reference.code) return `${value.origin}: ${reference.code}`;
  const parts = [
    reference.doi ? `doi:${reference.doi}` : reference.sourceId,
    reference.title ? `"${reference.title}"` : '',
    reference.year ? String(reference.year) : '',
  ];
  const cited = parts.filter((part) => part).join(', ');
  return value.origin === 'your dataset' ? `your dataset: ${cited}` : cited;
}

/**
 * The plain-text report: the answer, each value with its reference and quote, the judge's
 * dropped claims, related materials and phases, then what was searched. Model text is printed
 * as plain text on one line each (never interpreted).
 */
export function formatPrecedentCheck(material: string, property: string, check: PrecedentCheck): string {
  const lines = [`${material} — ${property}: ${check.answer}${check.unknownBecause ? ` (${check.unknownBecause})` : ''}`];
  for (const value of check.values) {
    lines.push(
      `  ${value.kind} ${value.value} ${value.unit}${value.conditions ? ` (${value.conditions})` : ''}  [${formatReference(value)}]`,
    );
    lines.push(`    "${oneLine(value.quote)}"`);
  }
  for (const dropped of check.dropped) lines.push(`  dropped: ${dropped.reason}`);
  for (const related of check.related) lines.push(`  related (unverified): ${oneLine(related.material)} — ${oneLine(related.note)}`);
  for (const phase of check.phases)
    lines.push(
      `  phase${phase.grounded ? '' : ' (unverified)'}: ${oneLine(phase.phase)} — ${oneLine(phase.note)}${phase.reference ? ` [${phase.reference.doi ?? phase.reference.sourceId}]` : ''}`,
    );
  lines.push('searched:');
  for (const entry of check.searched) lines.push(`  ${entry.source}: ${entry.found} value(s) — ${entry.note}`);
  return lines.join('\n') + '\n';
}

async function precedent(argv: string[], registry: EngineRegistry): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        json: { type: 'boolean' },
        property: { type: 'string', default: 'tc' },
        reference: { type: 'string', multiple: true },
        texts: { type: 'string' },
        data: { type: 'string' },
        engine: { type: 'string' },
        ...engineKindOptions(registry),
        model: { type: 'string', multiple: true },
        dataset: { type: 'string' },
        literature: { type: 'boolean' },
        mailto: { type: 'string' },
        'openalex-key': { type: 'string' },
        'openalex-key-env': { type: 'string' },
      },
    });
  } catch (error) {
    throw new PrecedentUsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  const [material] = positionals;
  if (!material || material.trim() === '' || positionals.length > 1)
    throw new PrecedentUsageError(
      'give exactly one material: assay precedent "<material>" [--property tc] [--reference FILE] [--dataset FILE] [--texts FILE.jsonl] [--literature --mailto ADDRESS] [--json]',
    );
  const property = values.property.trim() || 'tc';
  const clients = literatureClients(values, globalThis.fetch);
  const llm = await judgeEngine(values, registry);
  const tables: NamedReferenceTable[] = [];
  if (values.reference && values.reference.length > 0) {
    for (const path of values.reference) tables.push(await loadTable(path, basename(path)));
  } else {
    const path = defaultReferencePath(resolveDataRoot(values.data));
    if (existsSync(path)) tables.push(await loadTable(path, 'SuperCon'));
    else process.stderr.write(`assay precedent: no SuperCon table at ${path}; answering from what is given\n`);
  }
  const texts = values.texts ? await loadRetrievedTexts(values.texts) : [];
  const dataset = values.dataset ? await loadDataset(values.dataset) : undefined;
  const sources = { referenceTables: tables, texts, ...(dataset ? { dataset } : {}), ...(clients ? { literature: { clients } } : {}) };
  const check = await checkPrecedent({ material: material.trim(), property }, sources, llm ? { llm } : {});
  process.stdout.write(
    values.json
      ? JSON.stringify({ material: material.trim(), property, ...check }) + '\n'
      : formatPrecedentCheck(material.trim(), property, check),
  );
  return 0;
}

/**
 * Run `assay precedent`; `--engine` takes the CLI kinds of `registry`. Exit codes: 0 answered
 * (including Unknown), 1 an input file is missing or malformed, 2 a usage error. Errors are one
 * line on stderr; stdout then stays empty.
 */
export async function runPrecedent(argv: string[], registry: EngineRegistry = engineRegistry): Promise<number> {
  try {
    return await precedent(argv, registry);
  } catch (error) {
    process.stderr.write(`assay precedent: ${oneLine((error as Error).message)}\n`);
    return error instanceof PrecedentUsageError ? 2 : 1;
  }
}
