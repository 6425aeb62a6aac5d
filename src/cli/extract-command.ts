import { parseArgs } from 'node:util';
import { toCaptureFailure } from '../capture/errors';
import type { Triplet } from '../contracts/triplet';
import { extractWithRules } from '../extract/rules';
import type { PropertyDefinition } from '../properties';
import { captureFile } from './capture-command';
import { resolvePropertySchemas } from './scan-command';

/** What `assay extract --json` prints: the triplets and the run's cost (no model calls for rules). */
export interface ExtractOutput {
  triplets: Triplet[];
  run: { engine: string; calls: number; promptTokens: number; completionTokens: number; milliseconds: number };
}

const ENGINES_TO_COME = new Set(['openai', 'scripted', 'moa', 'mcts']);

function summarizeTriplets(output: ExtractOutput): string {
  const lines = [`${output.triplets.length} triplets (engine ${output.run.engine}, ${output.run.milliseconds} ms)`];
  for (const triplet of output.triplets) {
    lines.push(`${triplet.property}\t${triplet.material}\t${triplet.valueText ?? ''} ${triplet.unit}\t${triplet.evidence?.blockId ?? ''}`);
  }
  return lines.join('\n') + '\n';
}

/**
 * `assay extract <file> [--engine rules] [--schema NAME|FILE.json ...] [--json]` →
 * `{ triplets, run: { engine, calls, promptTokens, completionTokens, milliseconds } }`.
 * Engines other than "rules" are not built yet: exit 2 with a line saying so. Returns the exit code.
 */
export async function runExtract(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        json: { type: 'boolean' },
        engine: { type: 'string', default: 'rules' },
        schema: { type: 'string', multiple: true },
        // Options of the model engines, accepted so that their absence is reported clearly.
        'base-url': { type: 'string' },
        model: { type: 'string', multiple: true },
        preset: { type: 'string' },
      },
    });
  } catch (error) {
    process.stderr.write(`assay extract: ${(error as Error).message}\n`);
    return 2;
  }
  const engine = parsed.values.engine;
  if (engine !== 'rules') {
    const reason = ENGINES_TO_COME.has(engine) ? `engine ${engine} arrives with the SLM-MATRIX work; use --engine rules` : `unknown engine '${engine}'; use --engine rules`;
    process.stderr.write(`assay extract: ${reason}\n`);
    return 2;
  }
  const [path] = parsed.positionals;
  if (!path || parsed.positionals.length > 1) {
    process.stderr.write('assay extract: give exactly one file: assay extract <file> --engine rules [--schema NAME] [--json]\n');
    return 2;
  }
  let properties: PropertyDefinition[];
  try {
    properties = await resolvePropertySchemas(parsed.values.schema ?? []);
  } catch (error) {
    process.stderr.write(`assay extract: ${(error as Error).message.replace(/\n/g, ' ')}\n`);
    return 2;
  }
  try {
    const article = await captureFile(path);
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
