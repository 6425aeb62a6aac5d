/**
 * The offscreen document's answer to `precedent-check`: the reader's local sources (imported
 * reference tables, their dataset rows), then the open literature (Crossref, arXiv, OpenAlex)
 * judged by the reader's model engine — the same engine factory as SLM-MATRIX runs, with the
 * roster's aggregator as the judge. The engine is built only when the judge is first called, so
 * a search that finds nothing (or no network) never loads a model. Engine failures, timeouts and
 * unexpected errors never turn into a "No": the answer keeps what the local sources said, with a
 * `searched` line naming the failure in words.
 */
import type { EngineSettings } from '../contracts/matrix-run';
import type { RequestOf, ResponseOf } from '../contracts/messages';
import { LlmError, type LlmPort } from '../llm/llm-port';
import { checkPrecedent, type NamedReferenceTable, type PrecedentCheck, type SearchedSource } from '../precedent/check-precedent';
import { createArxivClient } from '../precedent/literature/arxiv';
import { createCrossrefClient } from '../precedent/literature/crossref';
import { createOpenAlexClient } from '../precedent/literature/openalex';
import type { LiteratureClient } from '../precedent/literature/types';
import type { DatasetTriplet } from '../contracts/dataset';
import type { RunEngine } from './matrix-run-host';

/** How long one check may take before it is stopped (ms): a first WebLLM judge may download a model. */
export const PRECEDENT_CHECK_TIMEOUT_MS = 10 * 60_000;

/** The `searched` source naming the model engine when it failed. */
export const MODEL_ENGINE_SOURCE = 'model engine';

export interface PrecedentCheckHostDependencies {
  /** The imported reference tables, parsed and named (`loadReferenceTables`). */
  referenceTables: () => Promise<NamedReferenceTable[]>;
  /** The reader's dataset rows of one property (`queryTriplets(database, { property })`). */
  dataset: (property: string) => Promise<readonly DatasetTriplet[]>;
  /** The run engine factory (`createRunEngineFactory`); `onStatus` lines are ignored here. */
  createEngine: (settings: EngineSettings, onStatus: (text: string | null) => void) => Promise<RunEngine>;
  /** The literature clients for one request (default `literatureClients` over `fetch`). */
  clients?: (literature: RequestOf<'precedent-check'>['literature']) => LiteratureClient[];
  /** The document's `fetch`, for the default clients; default the global `fetch`. */
  fetch?: typeof globalThis.fetch;
  /** Default `PRECEDENT_CHECK_TIMEOUT_MS`. */
  timeoutMs?: number;
}

/**
 * `fetch` without an empty `api_key=` on OpenAlex URLs: the OpenAlex client always sends the
 * parameter, and a reader without a key should be served at the free rate, not judged on a blank key.
 */
export function withoutEmptyOpenAlexKey(fetch: typeof globalThis.fetch): typeof globalThis.fetch {
  return (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (!url.startsWith('https://api.openalex.org/')) return fetch(input, init);
    const parsed = new URL(url);
    if (parsed.searchParams.get('api_key') === '') parsed.searchParams.delete('api_key');
    return fetch(parsed.href, init);
  };
}

/**
 * The three providers for one check: Crossref (polite pool with `mailto`), arXiv (its client asks over https)
 * and OpenAlex (`api_key=` the reader's key; without one, no `api_key` is sent).
 */
export function literatureClients(
  literature: RequestOf<'precedent-check'>['literature'],
  fetch: typeof globalThis.fetch,
): LiteratureClient[] {
  // The document's fetch must be called with the document as `this`.
  const bound: typeof globalThis.fetch = (input, init) => fetch.call(globalThis, input, init);
  return [
    createCrossrefClient({ fetch: bound, mailto: literature.mailto }),
    createArxivClient({ fetch: bound }),
    createOpenAlexClient({ fetch: withoutEmptyOpenAlexKey(bound), apiKey: literature.openAlexKey ?? '' }),
  ];
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * A judge port that builds the engine on its first call and sends every call to the roster's
 * aggregator. `failure()` is the engine's failure in words (creation or a call), if any.
 */
function lazyJudge(settings: EngineSettings, createEngine: PrecedentCheckHostDependencies['createEngine']) {
  let engine: Promise<RunEngine> | undefined;
  let failure: string | undefined;
  const llm: LlmPort = {
    complete: async (request) => {
      try {
        const built = await (engine ??= createEngine(settings, () => undefined));
        const model = built.models.aggregator;
        return await built.llm.complete({ ...request, ...(model ? { model } : {}) });
      } catch (error) {
        if (!(error instanceof LlmError && error.code === 'aborted')) failure ??= messageOf(error);
        throw error instanceof LlmError ? error : new LlmError('unavailable', messageOf(error));
      }
    },
  };
  return {
    llm,
    failure: () => failure,
    dispose: async () => {
      if (!engine) return;
      try {
        (await engine).dispose?.();
      } catch {
        // The engine never came up: nothing to release.
      }
    },
  };
}

/** The local-only answer (no model, no literature), with `line` in place of the "not judged" literature line. */
async function localAnswer(
  question: { material: string; property: string },
  referenceTables: NamedReferenceTable[],
  dataset: readonly DatasetTriplet[],
  line: SearchedSource,
): Promise<PrecedentCheck> {
  const local = await checkPrecedent(question, { referenceTables, dataset });
  const searched = [...local.searched, line];
  return local.answer === 'Unknown' ? { ...local, searched, unknownBecause: summary(searched) } : { ...local, searched };
}

function summary(searched: readonly SearchedSource[]): string {
  return `nothing answered; searched: ${searched.map((entry) => `${entry.source} (${entry.note})`).join('; ')}`;
}

/**
 * Make the `precedent-check` handler. Per request: load the tables and the dataset rows of the
 * property, run `checkPrecedent` with the literature clients and a lazily built judge (the
 * roster's aggregator), stopped after `timeoutMs`; dispose the engine; answer `{ ok: true, check }`.
 * - The engine failed (no WebGPU, download failed, server unreachable, another run holds WebLLM):
 *   the check's answer stands (the judge's failure makes the literature Unknown) and a
 *   `model engine` line says "failed — <reason>; the literature was not judged".
 * - Timeout or an unexpected error: the local answer with a line saying so.
 * Resolves to a failure response only when the local sources cannot be read.
 */
export function createPrecedentCheckHost(dependencies: PrecedentCheckHostDependencies) {
  const timeoutMs = dependencies.timeoutMs ?? PRECEDENT_CHECK_TIMEOUT_MS;
  const makeClients = dependencies.clients ?? ((literature) => literatureClients(literature, dependencies.fetch ?? globalThis.fetch));
  return async function answerPrecedentCheck(request: RequestOf<'precedent-check'>): Promise<ResponseOf<'precedent-check'>> {
    const question = { material: request.material.trim(), property: request.property.trim() };
    let referenceTables: NamedReferenceTable[];
    let dataset: readonly DatasetTriplet[];
    try {
      [referenceTables, dataset] = await Promise.all([dependencies.referenceTables(), dependencies.dataset(question.property)]);
    } catch (error) {
      return { ok: false, failure: { code: 'internal', message: `Could not read your reference tables or dataset: ${messageOf(error)}` } };
    }
    const judge = lazyJudge(request.engine, dependencies.createEngine);
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    try {
      const check = await checkPrecedent(
        question,
        { referenceTables, dataset, literature: { clients: makeClients(request.literature) } },
        { llm: judge.llm, signal: controller.signal },
      );
      const failure = judge.failure();
      if (failure === undefined) return { ok: true, check };
      const searched = [
        ...check.searched,
        { source: MODEL_ENGINE_SOURCE, found: 0, note: `failed — ${failure}; the literature was not judged` },
      ];
      return {
        ok: true,
        check: check.answer === 'Unknown' ? { ...check, searched, unknownBecause: summary(searched) } : { ...check, searched },
      };
    } catch (error) {
      const note = controller.signal.aborted ? `stopped: no answer within ${timeoutMs / 1000} s` : `the check failed — ${messageOf(error)}`;
      return { ok: true, check: await localAnswer(question, referenceTables, dataset, { source: 'open literature', found: 0, note }) };
    } finally {
      clearTimeout(timer);
      await judge.dispose();
    }
  };
}
