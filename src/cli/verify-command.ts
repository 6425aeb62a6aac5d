/**
 * `assay verify <paper> --triplets FILE.jsonl [--schema NAME|FILE.json …] [--json]`: check any
 * tool's facts against the paper (issue 26, item 6). Each line of FILE.jsonl is one fact
 * (`fact-lines.ts`); each is judged whole by the gate (`judgeFact`: grounding, attribution and
 * the fact check) on the quote it gives, or, without a quote, on the sentence or table row of the
 * paper that prints its value and names its material (`locate-evidence.ts`).
 *
 * Exit 0 when it ran, whatever the verdicts; 1 with one line for bad input (missing or
 * unreadable paper, missing or empty triplets file, a file that is not JSONL at all); 2 for bad
 * usage. A line that is not a valid fact is that line's result (`rejected`, with the reason).
 */
import { parseArgs } from 'node:util';
import { toCaptureFailure } from '../capture/errors';
import { NotRegularFileError, readRegularFile, regularFileStat } from '../capture/node/regular-file';
import type { Article } from '../contracts/article';
import { formatConditions, formatProvenance, type Condition, type Provenance } from '../contracts/conditions';
import type { PropertyDefinition } from '../contracts/property';
import type { VerificationStatus } from '../contracts/verification';
import { loadPropertySchemas } from '../properties';
import { describeValue } from '../text/quantities/format-quantity';
import { judgeFact } from '../verify/judge-fact';
import { defaultFactCheckDependencies } from '../verify/fact-check';
import { captureFile } from './capture-command';
import { resolvePropertySchemas } from './scan-command';
import { FactFileError, readFactLines, type ReadFactLine } from './verify/fact-lines';
import { evidenceLocator, locateEvidence } from './verify/locate-evidence';

/** The largest triplets file read (a few thousand facts with quotes fit in a few MB). */
export const MAX_TRIPLETS_FILE_BYTES = 64 * 1024 * 1024;

/** One line's verdict, as `--json` prints it. */
export interface VerifyResult {
  /** The 0-based line of the triplets file. */
  index: number;
  status: VerificationStatus;
  /** Every reason, in words. */
  reasons: string[];
  /** The fact as read from the line (absent when the line is not a valid fact). */
  fact?: { material: string; property: string; value: string; unit: string };
  /** The conditions the gate read (each with the words it was read from). */
  conditions: Condition[];
  provenance: Provenance;
  /** The anchored evidence: the paper's own words and their offsets in the captured text; null when nothing anchored. */
  evidence: { quote: string; start: number; end: number; found: 'quote' | 'located' } | null;
}

/** What `assay verify --json` prints. */
export interface VerifyOutput {
  paper: { path: string; title: string; doi: string | null };
  counts: Record<VerificationStatus, number>;
  results: VerifyResult[];
}

const UNKNOWN: Provenance = { kind: 'unknown' };

/** Judge each read line against `article`, in order. */
export function verifyFacts(article: Article, lines: readonly ReadFactLine[], schemas: readonly PropertyDefinition[]): VerifyResult[] {
  const dependencies = defaultFactCheckDependencies(schemas);
  const locator = evidenceLocator(article);
  return lines.map((line): VerifyResult => {
    if ('error' in line)
      return { index: line.index, status: 'rejected', reasons: [line.error], conditions: [], provenance: UNKNOWN, evidence: null };
    let triplet = line.triplet;
    const fact = {
      material: triplet.material,
      property: triplet.property,
      value: describeValue({ value: triplet.value, unit: '' }),
      unit: triplet.unit,
    };
    if (!line.quoteGiven) {
      const evidence = locateEvidence(
        locator,
        triplet,
        schemas.find((schema) => schema.name === triplet.property),
      );
      if (!evidence) {
        const reason = `no quote given, and no sentence or table row of the paper prints ${describeValue(triplet)} and names ${triplet.material}`;
        return { index: line.index, status: 'rejected', reasons: [reason], fact, conditions: [], provenance: UNKNOWN, evidence: null };
      }
      triplet = { ...triplet, evidence };
    }
    let verdict;
    try {
      verdict = judgeFact(triplet, article, dependencies);
    } catch (error) {
      // One fact the gate cannot judge must not hide the verdicts on the others.
      const reason = `the gate could not judge this fact: ${(error as Error).message}`;
      return { index: line.index, status: 'rejected', reasons: [reason], fact, conditions: [], provenance: UNKNOWN, evidence: null };
    }
    const position = verdict.evidence?.position;
    return {
      index: line.index,
      status: verdict.status,
      reasons: verdict.reasons,
      fact,
      conditions: verdict.conditions,
      provenance: verdict.provenance,
      evidence:
        verdict.evidence && position
          ? { quote: verdict.evidence.quote.exact, start: position.start, end: position.end, found: line.quoteGiven ? 'quote' : 'located' }
          : null,
    };
  });
}

function countOf(results: readonly VerifyResult[]): Record<VerificationStatus, number> {
  const counts: Record<VerificationStatus, number> = { verified: 0, needs_review: 0, rejected: 0 };
  for (const result of results) counts[result.status] += 1;
  return counts;
}

function shorten(text: string, length: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= length ? flat : `${flat.slice(0, length - 1)}…`;
}

/** The readable table printed without `--json`: one block per line of the file. */
export function summarizeVerify(output: VerifyOutput): string {
  const { counts } = output;
  const lines = [
    `${output.paper.path}: ${output.results.length} facts — ${counts.verified} verified, ${counts.needs_review} needs review, ${counts.rejected} rejected`,
    '',
  ];
  for (const result of output.results) {
    const fact = result.fact
      ? `${result.fact.material} · ${result.fact.property} · ${[result.fact.value, result.fact.unit].filter(Boolean).join(' ')}`
      : '(not a fact)';
    lines.push(`line ${result.index + 1}  ${result.status.padEnd(12)}  ${fact}`);
    const held = [formatConditions(result.conditions), formatProvenance(result.provenance)].filter(Boolean).join(' · ');
    if (held) lines.push(`    conditions: ${held}`);
    if (result.reasons.length) lines.push(`    reasons:    ${result.reasons.join('; ')}`);
    if (result.evidence)
      lines.push(
        `    evidence:   "${shorten(result.evidence.quote, 160)}" [${result.evidence.start}–${result.evidence.end}, ${result.evidence.found}]`,
      );
  }
  return lines.join('\n') + '\n';
}

/** The catalogue lines may name: the built-ins, plus the reader's own schemas from `--schema`. */
async function propertyCatalogue(values: readonly string[]): Promise<PropertyDefinition[]> {
  const extra = values.length ? await resolvePropertySchemas(values) : [];
  const builtIn = loadPropertySchemas().filter((schema) => !extra.some((own) => own.name === schema.name));
  return [...builtIn, ...extra];
}

async function readTripletsFile(path: string): Promise<string> {
  let size: number;
  try {
    size = (await regularFileStat(path)).size;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (error instanceof NotRegularFileError) throw new FactFileError(error.message);
    throw new FactFileError(code === 'ENOENT' ? `no such triplets file: ${path}` : `cannot read ${path}: ${(error as Error).message}`);
  }
  if (size > MAX_TRIPLETS_FILE_BYTES)
    throw new FactFileError(`${path} is ${size} bytes, over the ${MAX_TRIPLETS_FILE_BYTES}-byte limit of a triplets file`);
  try {
    return await readRegularFile(path, 'utf8');
  } catch (error) {
    if (error instanceof NotRegularFileError) throw new FactFileError(error.message);
    throw new FactFileError(`cannot read ${path}: ${(error as Error).message}`);
  }
}

/** `assay verify` (see the module comment). Returns the exit code. */
export async function runVerify(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { json: { type: 'boolean' }, triplets: { type: 'string' }, schema: { type: 'string', multiple: true } },
    });
  } catch (error) {
    process.stderr.write(`assay verify: ${(error as Error).message}\n`);
    return 2;
  }
  const [paperPath] = parsed.positionals;
  const tripletsPath = parsed.values.triplets;
  if (!paperPath || parsed.positionals.length > 1 || !tripletsPath) {
    process.stderr.write('assay verify: give one paper and a triplets file: assay verify <paper> --triplets FILE.jsonl [--json]\n');
    return 2;
  }
  let schemas: PropertyDefinition[];
  try {
    schemas = await propertyCatalogue(parsed.values.schema ?? []);
  } catch (error) {
    process.stderr.write(`assay verify: ${(error as Error).message.replace(/\n/g, ' ')}\n`);
    return 2;
  }
  let lines: ReadFactLine[];
  try {
    lines = readFactLines(await readTripletsFile(tripletsPath), schemas);
  } catch (error) {
    process.stderr.write(`assay verify: ${tripletsPath}: ${(error as Error).message.replace(/\n/g, ' ')}\n`);
    return 1;
  }
  let article: Article;
  try {
    article = await captureFile(paperPath);
  } catch (error) {
    const failure = toCaptureFailure(error);
    process.stderr.write(`assay verify: ${paperPath}: ${failure.message} [${failure.code}]\n`);
    return 1;
  }
  process.stderr.write(`assay verify: judging ${lines.length} facts against ${paperPath}\n`);
  const results = verifyFacts(article, lines, schemas);
  const output: VerifyOutput = { paper: { path: paperPath, title: article.title, doi: article.doi }, counts: countOf(results), results };
  process.stdout.write(parsed.values.json ? JSON.stringify(output) + '\n' : summarizeVerify(output));
  return 0;
}
