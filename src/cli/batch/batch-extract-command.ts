/**
 * `assay extract <file|folder|glob>… --out FILE.jsonl [--concurrency N] [--json]`: a corpus of
 * papers into one dataset file the extension imports, resumable (batch-manifest.ts), on one
 * model server or several (`--base-url` more than once), with progress on stderr
 * (batch-progress.ts). `--estimate` counts what the run would cost instead of running it.
 *
 * Exit status: 0 when every paper finished (now or in an earlier run), 3 when some failed (each
 * recorded with its file, code and message; the rest are in the output), 1 on a usage error
 * (bad flags, an input naming nothing, an `--out` that is not this batch's, an `--out` another
 * batch is writing: batch-lock.ts), 130 after Ctrl-C.
 */
import { createHash } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { captureDocument } from '../../capture/capture-document';
import { nodeDomParser } from '../../capture/node/node-dom';
import { readRegularFile } from '../../capture/node/regular-file';
import { extractWithRules } from '../../extract/rules';
import { engineRegistry, type EngineRegistry } from '../../llm/engines/registry';
import type { LlmPort } from '../../llm/llm-port';
import { defaultMatrixDependencies } from '../../matrix/default-dependencies';
import { runMatrix } from '../../matrix/pipeline';
import { presetByName } from '../../matrix/presets';
import { MatrixInterrupted } from '../../matrix/run-record';
import type { PropertyDefinition } from '../../properties';
import { readInputFile } from '../capture-command';
import { createMatrixEngine, parseModelOptions, type MatrixEngine, type MatrixEngineFlags } from '../matrix-engines';
import { resolvePropertySchemas } from '../scan-command';
import { valueDoubts } from '../../verify/value-doubts';
import { unguardedTerminal } from '../terminal-output';
import { estimateBatch, formatEstimate } from './batch-estimate';
import { BatchLockError, lockBatchOutput, type BatchLock } from './batch-lock';
import { manifestPathOf, type BatchSettings } from './batch-manifest';
import { BatchOutputError, openBatchOutput } from './batch-output';
import { createBatchProgress, formatDuration, type UsageCounts } from './batch-progress';
import { PaperFailure, runBatch, type BatchEvent, type PaperExtraction } from './batch-run';
import { collectPaperFiles } from './paper-inputs';
import { EngineUsageError } from '../../llm/engines/engine-kind';
import type { PresetModels } from '../../contracts/matrix-preset';

/** Exit status when some papers failed (the others are in the output). */
export const EXIT_SOME_FAILED = 3;
/** Exit status of a usage error in batch mode. */
export const EXIT_BATCH_USAGE = 1;
/** Exit status after Ctrl-C (128 + SIGINT). */
export const EXIT_INTERRUPTED = 130;
/** Papers (and model calls) in flight when `--concurrency` is not given. */
export const DEFAULT_BATCH_CONCURRENCY = 2;

export type BatchExtractFlags = MatrixEngineFlags & {
  out?: string | undefined;
  json?: boolean | undefined;
  engine?: string | undefined;
  schema?: string[] | undefined;
  estimate?: boolean | undefined;
};

/** What `--json` prints at the end of a batch (EVAL.md's keys first). */
export interface BatchSummary {
  papers: number;
  done: number;
  skipped: number;
  failed: number;
  triplets: number;
  seconds: number;
  calls: number;
  promptTokens: number;
  completionTokens: number;
  out: string;
  interrupted: boolean;
  /** Rows kept from earlier runs of this batch (in the output before this run). */
  earlierTriplets: number;
  failures: Array<{ file: string; code: string; message: string }>;
}

function usage(message: string): number {
  process.stderr.write(`assay extract: ${message}\n`);
  return EXIT_BATCH_USAGE;
}

/** A port that counts calls and tokens as they are answered (the progress display's live rates). */
function countingPort(llm: LlmPort, counts: UsageCounts): LlmPort {
  return {
    complete: async (request) => {
      const reply = await llm.complete(request);
      counts.calls += 1;
      counts.promptTokens += reply.usage.promptTokens;
      counts.completionTokens += reply.usage.completionTokens;
      return reply;
    },
  };
}

function modelIds(models: PresetModels): string[] {
  const ids = [...(models.proposers ?? []), models.aggregator, models.generator, models.discriminator];
  return [...new Set(ids.filter((id): id is string => typeof id === 'string' && id !== ''))];
}

/** The time rows are saved at: `SOURCE_DATE_EPOCH` (seconds, the reproducible-builds convention) when set, else the clock. */
export function savedAtClock(env: NodeJS.ProcessEnv = process.env): () => Date {
  const epoch = env.SOURCE_DATE_EPOCH;
  if (epoch !== undefined && /^\d+$/.test(epoch.trim())) {
    const fixed = new Date(Number(epoch.trim()) * 1000);
    return () => fixed;
  }
  return () => new Date();
}

/** The extraction of one paper by the SLM-MATRIX pipeline with `engine` (a failure becomes a `PaperFailure`). */
function matrixExtraction(
  engine: MatrixEngine,
  llm: LlmPort,
  properties: readonly PropertyDefinition[],
  countTokens?: (text: string) => number,
) {
  return async (article: Parameters<typeof runMatrix>[0], signal: AbortSignal): Promise<PaperExtraction> => {
    try {
      const result = await runMatrix(
        article,
        { properties, preset: engine.preset, models: engine.models, seed: engine.seed },
        defaultMatrixDependencies({
          llm,
          seed: engine.seed,
          schemas: properties,
          signal,
          ...(countTokens ? { countTokens } : {}),
          ...(engine.embeddings ? { embeddings: engine.embeddings } : {}),
        }),
      );
      const undecided = result.run.properties.find((property) => property.notDecided);
      if (undecided?.notDecided)
        throw new PaperFailure(
          'not-decided',
          `${undecided.property}: model calls failed (${undecided.notDecided.code}: ${undecided.notDecided.message}); run again to retry this paper`,
        );
      return { records: result.records, models: modelIds(engine.models), run: result.run };
    } catch (error) {
      if (error instanceof MatrixInterrupted && !error.cancelled) throw new PaperFailure(error.reason.code, error.reason.message);
      throw error;
    }
  };
}

/**
 * Run `assay extract` in batch mode on `inputs` with `flags` (see the module comment). Returns
 * the exit status.
 */
export async function runBatchExtract(
  inputs: readonly string[],
  flags: BatchExtractFlags,
  registry: EngineRegistry = engineRegistry,
): Promise<number> {
  const engineName = flags.engine ?? 'rules';
  if (inputs.length === 0) return usage('give the papers: assay extract <file|folder|glob>… --out FILE.jsonl');
  if (!flags.out && !flags.estimate)
    return usage('give --out FILE.jsonl for the dataset rows of the batch (or --estimate to count its cost)');
  const concurrencyText = flags.concurrency ?? String(DEFAULT_BATCH_CONCURRENCY);
  const concurrency = Number(concurrencyText);
  if (!Number.isInteger(concurrency) || concurrency < 1)
    return usage(`--concurrency takes a whole number of papers ≥ 1, not "${concurrencyText}"`);

  let properties: PropertyDefinition[];
  try {
    properties = await resolvePropertySchemas(flags.schema ?? []);
  } catch (error) {
    return usage((error as Error).message.replace(/\n/g, ' '));
  }
  const cwd = process.cwd();
  const out = flags.out ? resolve(cwd, flags.out) : null;
  const found = await collectPaperFiles(inputs, cwd, out ? [out, manifestPathOf(out)] : []);
  if (found.problems.length > 0) return usage(found.problems.join('; '));

  if (flags.estimate) return runEstimate(found.files, properties, flags, concurrency);

  let engine: MatrixEngine | null = null;
  if (engineName !== 'rules') {
    try {
      engine = await createMatrixEngine(engineName, { ...flags, concurrency: String(concurrency) }, registry);
    } catch (error) {
      if (error instanceof EngineUsageError) return usage(error.message);
      throw error;
    }
  }

  if (!out) return usage('give --out FILE.jsonl');

  const settings: BatchSettings = {
    engine: engineName,
    properties: properties.map((property) => property.name),
    ...(engine
      ? {
          preset: engine.preset.name,
          models: { ...engine.models, ...(engine.models.proposers ? { proposers: [...engine.models.proposers] } : {}) } as Record<
            string,
            string | string[]
          >,
          seed: engine.seed,
        }
      : {}),
    ...(flags.script
      ? {
          script: createHash('sha256')
            .update(await readRegularFile(flags.script))
            .digest('hex'),
        }
      : {}),
  };
  // Held from before the output is read (a resume repairs it) until it is closed.
  const controller = new AbortController();
  let lockLost: Error | null = null;
  let lock: BatchLock;
  try {
    lock = await lockBatchOutput(out, {
      command: ['assay', 'extract', ...process.argv.slice(3)].join(' '),
      onWait: (line) => process.stderr.write(`assay extract: ${line}\n`),
      onCompromised: (error) => {
        lockLost = error;
        controller.abort();
      },
    });
  } catch (error) {
    if (error instanceof BatchLockError) return usage(error.message);
    throw error;
  }
  try {
    return await runLockedBatch({
      files: found.files,
      out,
      settings,
      engine,
      properties,
      flags,
      concurrency,
      cwd,
      controller,
      lockLost: () => lockLost,
    });
  } finally {
    await lock.release();
  }
}

/** A batch whose output is locked: what `runLockedBatch` needs from the command line. */
interface LockedBatch {
  files: readonly string[];
  /** The output's absolute path. */
  out: string;
  settings: BatchSettings;
  /** The model engine, or null for the rules engine. */
  engine: MatrixEngine | null;
  properties: readonly PropertyDefinition[];
  flags: BatchExtractFlags;
  concurrency: number;
  cwd: string;
  /** Aborted by Ctrl-C and when the lock is lost. */
  controller: AbortController;
  /** The error of a lock lost while running (another run took it over), else null. */
  lockLost: () => Error | null;
}

/** Open (or continue) the locked output, run the batch and print its summary; → the exit status. */
async function runLockedBatch(batch: LockedBatch): Promise<number> {
  const { files, out, settings, engine, properties, flags, concurrency, cwd, controller } = batch;
  let opened;
  try {
    opened = await openBatchOutput(out, settings, new Date());
  } catch (error) {
    if (error instanceof BatchOutputError) return usage(error.message);
    throw error;
  }
  const { output } = opened;
  const counts: UsageCounts = { calls: 0, promptTokens: 0, completionTokens: 0 };
  const progress = createBatchProgress({ terminal: unguardedTerminal(process.stderr), total: files.length, usage: () => counts });
  if (opened.done.size > 0)
    progress.note(
      `continuing ${flags.out}: ${opened.done.size} papers finished before${opened.failedBefore > 0 ? `, ${opened.failedBefore} failed before and tried again` : ''}${opened.cutBytes > 0 ? `; cut ${opened.cutBytes} bytes of unfinished papers from the end of the output` : ''}`,
    );
  if (opened.warning) progress.note(opened.warning);

  let extract: (article: Parameters<typeof runMatrix>[0], signal: AbortSignal) => Promise<PaperExtraction>;
  if (engine) {
    const reader = engine.models.proposers?.[0];
    const counter = reader ? await (await import('../../llm/tokenizers')).tokenCounterFor(reader) : undefined;
    extract = matrixExtraction(
      engine,
      countingPort(engine.llm, counts),
      properties,
      counter ? (text) => counter.countText(text) : undefined,
    );
  } else {
    extract = async (article) => ({
      // The rules engine reads no model: its triplets are candidates for the reader to review.
      records: extractWithRules(article, { properties }).map((triplet) => ({
        status: 'needs_review' as const,
        triplet,
        votes: ['rules'],
        // The number as read ("1,043 K" reads two ways) and against its property's range (issue 27).
        reasons: valueDoubts(
          triplet,
          triplet.evidence?.quote.exact ?? '',
          article.text,
          properties.find((schema) => schema.name === triplet.property),
        ),
      })),
      models: [],
    });
  }

  const failures: BatchSummary['failures'] = [];
  // Every model call in flight listens to this one signal (N papers × the calls of each): not a leak.
  setMaxListeners(0, controller.signal);
  const onInterrupt = (): void => {
    progress.note('interrupted: stopping the papers in flight; run the same command again to go on');
    controller.abort();
  };
  process.once('SIGINT', onInterrupt);
  const started = performance.now();
  let result;
  try {
    result = await runBatch({
      files,
      concurrency,
      output,
      doneBefore: opened.done,
      settingsKey: opened.header.key,
      readFile: (file) => readInputFile(file),
      capture: (bytes, file) => captureDocument(bytes, { domParser: nodeDomParser(), url: pathToFileURL(resolve(cwd, file)).href }),
      extract,
      now: savedAtClock(),
      signal: controller.signal,
      onEvent: (event: BatchEvent) => {
        if (event.type === 'failed') failures.push({ file: event.file, code: event.code, message: event.message });
        progress.onEvent(event);
      },
    });
  } catch (error) {
    progress.stop();
    await output.close().catch(() => undefined);
    process.removeListener('SIGINT', onInterrupt);
    process.stderr.write(
      `assay extract: the output could not be written: ${(error as Error).message}; run the same command again to go on\n`,
    );
    return 1;
  }
  progress.stop();
  await output.close();
  process.removeListener('SIGINT', onInterrupt);
  const lost = batch.lockLost();
  if (lost) {
    process.stderr.write(
      `assay extract: stopped: the lock on ${flags.out} was lost (${lost.message}), so another run may be writing it; run the same command again once that run has ended\n`,
    );
    return 1;
  }

  const seconds = Math.round(performance.now() - started) / 1000;
  const earlierTriplets = [...opened.done.values()].reduce((sum, entry) => sum + entry.rows, 0);
  const summary: BatchSummary = {
    papers: result.papers,
    done: result.done,
    skipped: result.skipped,
    failed: result.failed,
    triplets: result.triplets,
    seconds,
    calls: counts.calls,
    promptTokens: counts.promptTokens,
    completionTokens: counts.completionTokens,
    out: flags.out!,
    interrupted: result.interrupted,
    earlierTriplets,
    failures,
  };
  if (flags.json) process.stdout.write(JSON.stringify(summary) + '\n');
  else
    process.stdout.write(
      `${summary.done} papers done, ${summary.skipped} skipped (finished before), ${summary.failed} failed of ${summary.papers}; ${summary.triplets} triplets written to ${summary.out}${earlierTriplets > 0 ? ` (${earlierTriplets} from earlier runs)` : ''}; ${summary.calls} calls, ${summary.promptTokens}+${summary.completionTokens} tokens in ${formatDuration(seconds)}\n` +
        failures.map((failure) => `failed\t${failure.file}\t${failure.code}\t${failure.message}\n`).join(''),
    );
  if (result.interrupted) return EXIT_INTERRUPTED;
  return summary.failed > 0 ? EXIT_SOME_FAILED : 0;
}

/**
 * `--estimate`: `estimateBatch` over `files` with the preset (`--preset`, default paper) and
 * models (`--model ROLE=ID` over the preset's) a run would use, whatever the engine (no server
 * is needed: no model is called). Prints `formatEstimate`'s lines, or the estimate as one JSON
 * document with `--json`; progress on stderr. Exit 0, 1 on a bad preset or model option.
 */
async function runEstimate(
  files: readonly string[],
  properties: readonly PropertyDefinition[],
  flags: BatchExtractFlags,
  concurrency: number,
): Promise<number> {
  const preset = presetByName(flags.preset ?? 'paper');
  if (!preset) return usage(`unknown preset "${flags.preset}"; presets: paper, browser`);
  let models: PresetModels;
  try {
    models = parseModelOptions(flags.model ?? [], preset.models);
  } catch (error) {
    return usage((error as Error).message);
  }
  const terminal = unguardedTerminal(process.stderr);
  const controller = new AbortController();
  const onInterrupt = (): void => controller.abort();
  process.once('SIGINT', onInterrupt);
  try {
    const estimate = await estimateBatch(files, {
      preset,
      models,
      properties,
      concurrency,
      signal: controller.signal,
      onPaper: (done, total) => {
        if (done === total || done % 10 === 0) terminal.write(`assay extract: estimated ${done}/${total} papers\n`);
      },
    });
    process.stdout.write(flags.json ? JSON.stringify(estimate) + '\n' : formatEstimate(estimate));
    return 0;
  } catch (error) {
    if (controller.signal.aborted) return EXIT_INTERRUPTED;
    throw error;
  } finally {
    process.removeListener('SIGINT', onInterrupt);
  }
}
