import { statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { isDynamicPattern } from 'tinyglobby';
import { toCaptureFailure } from '../capture/errors';
import type { Triplet } from '../contracts/triplet';
import { extractWithRules } from '../extract/rules';
import type { PropertyDefinition } from '../properties';
import { browserCheck, captureFile } from './capture-command';
import { resolvePropertySchemas } from './scan-command';
import { runMatrixExtract } from './extract-matrix';
import { engineRegistry, type EngineRegistry } from '../llm/engines/registry';
import { engineChoices, matrixEngineOptions } from './matrix-engines';
import { EXIT_BATCH_USAGE, runBatchExtract } from './batch/batch-extract-command';

/** What `assay extract --json` prints: the triplets and the run's cost (no model calls for rules). */
export interface ExtractOutput {
  triplets: Triplet[];
  run: { engine: string; calls: number; promptTokens: number; completionTokens: number; milliseconds: number };
}

function summarizeTriplets(output: ExtractOutput): string {
  const lines = [`${output.triplets.length} triplets (engine ${output.run.engine}, ${output.run.milliseconds} ms)`];
  for (const triplet of output.triplets) {
    lines.push(`${triplet.property}\t${triplet.material}\t${triplet.valueText ?? ''} ${triplet.unit}\t${triplet.evidence?.blockId ?? ''}`);
  }
  return lines.join('\n') + '\n';
}

/** True when the arguments ask for a batch (`--out`, `--estimate`), so a usage error exits as a batch's does. */
function batchMode(argv: readonly string[]): boolean {
  return argv.some((argument) => argument === '--out' || argument.startsWith('--out=') || argument === '--estimate');
}

/** True when `path` is a folder or a glob pattern that is not an existing file: papers, not one paper. */
function namesMany(path: string | undefined): boolean {
  if (path === undefined) return false;
  try {
    return statSync(path).isDirectory();
  } catch {
    return isDynamicPattern(path);
  }
}

/**
 * `assay extract <file> [--engine rules] [--schema NAME|FILE.json ...] [--json]` →
 * `{ triplets, run: { engine, calls, promptTokens, completionTokens, milliseconds } }`.
 * `--engine <kind>` with a CLI kind of `registry` (`--engine scripted --script FILE`, `--engine
 * openai --base-url URL [--api-key-env NAME]`) and `[--model ROLE=ID ...] [--preset
 * paper|browser] [--seed N] [--concurrency N]` runs the SLM-MATRIX pipeline instead
 * (`runMatrixExtract`). Returns the exit code: 0, 1 for an unreadable file, 2 for bad usage
 * (an unknown engine lists the choices: "use --engine rules, scripted or openai").
 * Several inputs, a folder or a glob, `--out FILE.jsonl` or `--estimate` make it a batch
 * (`runBatchExtract`, src/cli/batch/batch-extract-command.ts), with a batch's exit statuses.
 */
export async function runExtract(argv: string[], registry: EngineRegistry = engineRegistry): Promise<number> {
  const choices = engineChoices(registry, ['rules']);
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        json: { type: 'boolean' },
        engine: { type: 'string', default: 'rules' },
        schema: { type: 'string', multiple: true },
        out: { type: 'string' },
        estimate: { type: 'boolean' },
        'no-browser': { type: 'boolean' },
        // Options of the model engines (see matrix-engines.ts).
        ...matrixEngineOptions(registry),
      },
    });
  } catch (error) {
    process.stderr.write(`assay extract: ${(error as Error).message}\n`);
    return batchMode(argv) ? EXIT_BATCH_USAGE : 2;
  }
  if (parsed.values.out !== undefined || parsed.values.estimate || parsed.positionals.length > 1 || namesMany(parsed.positionals[0]))
    return runBatchExtract(parsed.positionals, parsed.values, registry);
  const engine = parsed.values.engine;
  if (engine !== 'rules' && !registry.get(engine, 'cli')) {
    process.stderr.write(`assay extract: unknown engine '${engine}'; use --engine ${choices.or}\n`);
    return 2;
  }
  const [path] = parsed.positionals;
  if (!path || parsed.positionals.length > 1) {
    process.stderr.write(`assay extract: give exactly one file: assay extract <file> --engine ${choices.bar} [--schema NAME] [--json]\n`);
    return 2;
  }
  if (engine !== 'rules') return runMatrixExtract(path, engine, parsed.values, registry);
  let properties: PropertyDefinition[];
  try {
    properties = await resolvePropertySchemas(parsed.values.schema ?? []);
  } catch (error) {
    process.stderr.write(`assay extract: ${(error as Error).message.replace(/\n/g, ' ')}\n`);
    return 2;
  }
  try {
    const article = await captureFile(path, null, browserCheck(parsed.values['no-browser']));
    const started = performance.now();
    const triplets = extractWithRules(article, { properties });
    const milliseconds = Math.round(performance.now() - started);
    const output: ExtractOutput = { triplets, run: { engine, calls: 0, promptTokens: 0, completionTokens: 0, milliseconds } };
    process.stdout.write(parsed.values.json ? JSON.stringify(output) + '\n' : summarizeTriplets(output));
    return 0;
  } catch (error) {
    const failure = toCaptureFailure(error);
    process.stderr.write(`assay extract: ${path}: ${failure.message} [${failure.code}]\n`);
    return 1;
  }
}
