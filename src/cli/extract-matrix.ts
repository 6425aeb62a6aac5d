/**
 * `assay extract <file> --engine <kind> …` (a CLI kind of the engine registry): the SLM-MATRIX pipeline (`runMatrix`) from
 * the command line. Output (EVAL.md "The command contract"): `{ triplets, records, run }` —
 * `triplets` the verified ones (each with `status`), `records` every verdict with its status
 * and reasons, `run` the run record, whose `properties[].notProvided` says which properties
 * ended in "Not provided in this paper" and what was searched, and `properties[].notDecided`
 * which ones failed model calls left undecided, and why (the text output lists both). Progress goes to stderr; Ctrl-C aborts the run and the
 * partial result is printed. `--concurrency N` (the server's parallel slots) lets N calls be in
 * flight and the pipeline ask that many independent calls at once (`MatrixOptions.parallel`).
 */
import { toCaptureFailure } from '../capture/errors';
import type { Triplet } from '../contracts/triplet';
import { engineRegistry, type EngineRegistry } from '../llm/engines/registry';
import { LlmError } from '../llm/llm-port';
import { runMatrix } from '../matrix/pipeline';
import { defaultMatrixDependencies } from '../matrix/default-dependencies';
import { MatrixInterrupted, type MatrixResult } from '../matrix/run-record';
import type { PropertyDefinition } from '../properties';
import { browserCheck, captureFile } from './capture-command';
import { createMatrixEngine, type MatrixEngine, type MatrixEngineFlags } from './matrix-engines';
import { resolvePropertySchemas } from './scan-command';
import { EngineUsageError } from '../llm/engines/engine-kind';
import type { MatrixProgress, RunRecord } from '../contracts/run-record';
import type { VerificationRecord, VerificationStatus } from '../contracts/verification';

export type MatrixExtractFlags = MatrixEngineFlags & {
  json?: boolean | undefined;
  schema?: string[] | undefined;
  'no-browser'?: boolean | undefined;
};

/** What `--engine <kind> --json` prints (`llmEngine`: the kind's id, e.g. "openai"). */
export interface MatrixExtractOutput {
  triplets: Array<Triplet & { status: VerificationStatus }>;
  records: VerificationRecord[];
  run: RunRecord & { engine: 'slm-matrix'; llmEngine: string };
}

/** Exit code after Ctrl-C (128 + SIGINT), as shells report it. */
export const EXIT_CANCELLED = 130;

function usageError(message: string): number {
  process.stderr.write(`assay extract: ${message}\n`);
  return 2;
}

function summarize(output: MatrixExtractOutput): string {
  const { run } = output;
  const lines = [
    `${run.counts.verified} verified, ${run.counts.needs_review} to review, ${run.counts.rejected} rejected (SLM-MATRIX, preset ${run.preset.name}, ${run.calls} calls, ${run.promptTokens}+${run.completionTokens} tokens, ${run.milliseconds} ms)`,
  ];
  for (const record of output.records) {
    const triplet = record.triplet;
    lines.push(
      `${record.status}\t${triplet.property}\t${triplet.material}\t${triplet.valueText ?? ''} ${triplet.unit}\t${record.reasons.join('; ')}`,
    );
  }
  for (const { property, notProvided, notDecided } of run.properties) {
    if (notProvided)
      lines.push(
        `not provided\t${property}\tNot provided in this paper (${notProvided.reason}: ${notProvided.chunksRead} of ${notProvided.chunksRanked} relevant chunks read, ${notProvided.calls} calls)`,
      );
    if (notDecided) lines.push(`not decided\t${property}\t${notDecided.code}: ${notDecided.message} (${notDecided.calls} calls)`);
  }
  return lines.join('\n') + '\n';
}

function progressLine(event: MatrixProgress): string {
  return `assay extract: [${event.stage}] ${event.property} ${event.done}/${event.total}\n`;
}

/**
 * Run the pipeline on `path` with the model engine `engineName` of `registry`; see `runExtract`
 * for the flags. Returns the exit code (2 for bad usage, 1 for an unreadable file).
 */
export async function runMatrixExtract(
  path: string,
  engineName: string,
  flags: MatrixExtractFlags,
  registry: EngineRegistry = engineRegistry,
): Promise<number> {
  let engine: MatrixEngine;
  try {
    engine = await createMatrixEngine(engineName, flags, registry);
  } catch (error) {
    if (error instanceof EngineUsageError) return usageError(error.message);
    throw error;
  }
  const { llm, preset, models, seed, concurrency } = engine;
  let properties: PropertyDefinition[];
  try {
    properties = await resolvePropertySchemas(flags.schema ?? []);
  } catch (error) {
    return usageError((error as Error).message.replace(/\n/g, ' '));
  }
  let article;
  try {
    article = await captureFile(path, null, browserCheck(flags['no-browser']));
  } catch (error) {
    const failure = toCaptureFailure(error);
    process.stderr.write(`assay extract: ${path}: ${failure.message} [${failure.code}]\n`);
    return 1;
  }

  // Retrieval budgets count chunk tokens with the reading proposer's own tokenizer where one is known (else chars/4).
  const reader = models.proposers?.[0];
  const counter = reader ? await (await import('../llm/tokenizers')).tokenCounterFor(reader) : undefined;

  const controller = new AbortController();
  const onInterrupt = (): void => {
    process.stderr.write('assay extract: interrupted; stopping after the call in flight and printing the partial result\n');
    controller.abort();
  };
  process.once('SIGINT', onInterrupt);
  const print = (result: MatrixResult): void => {
    const output: MatrixExtractOutput = {
      triplets: result.records
        .filter((record) => record.status === 'verified')
        .map((record) => ({ ...record.triplet, status: record.status })),
      records: result.records,
      run: { ...result.run, llmEngine: engineName },
    };
    process.stdout.write(flags.json ? JSON.stringify(output) + '\n' : summarize(output));
  };
  try {
    const result = await runMatrix(
      article,
      // --concurrency N: the server's parallel slots, for the engine's limit and the paper's independent calls alike.
      { properties, preset, models, seed, ...(concurrency ? { parallel: concurrency } : {}) },
      defaultMatrixDependencies({
        llm,
        seed,
        schemas: properties,
        signal: controller.signal,
        onProgress: (event) => process.stderr.write(progressLine(event)),
        ...(counter ? { countTokens: (text: string) => counter.countText(text) } : {}),
        ...(engine.embeddings ? { embeddings: engine.embeddings } : {}),
      }),
    );
    print(result);
    return 0;
  } catch (error) {
    if (!(error instanceof MatrixInterrupted)) {
      const reason = error instanceof LlmError ? `${error.message} [${error.code}]` : (error as Error).message;
      process.stderr.write(`assay extract: ${reason}\n`);
      return 1;
    }
    print(error.partial);
    process.stderr.write(
      `assay extract: ${error.cancelled ? 'cancelled' : 'stopped'}: ${error.reason.message} [${error.reason.code}]; partial result printed\n`,
    );
    return error.cancelled ? EXIT_CANCELLED : 1;
  } finally {
    process.removeListener('SIGINT', onInterrupt);
  }
}
