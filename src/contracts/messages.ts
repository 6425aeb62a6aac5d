/**
 * The one message protocol between extension contexts (side panel, dataset page, background,
 * the injected capture script). Every request and every response is declared here as a zod
 * schema and parsed on receipt, so a context never trusts the shape of what another sent.
 * Errors cross boundaries as plain `MessageFailure` values, never as thrown `Error`s (which
 * `chrome.runtime.sendMessage` would flatten to `{}`).
 */
import { z } from 'zod';
import { ArticleSchema, ArticleSourceSchema, DoiSchema } from './article';
import { CAPTURED_TEXT_LIMITS as LIMITS } from './captured-text';
import { TextPositionSelectorSchema, TextQuoteSelectorSchema } from './evidence';
import { CaptureErrorCodeSchema, CaptureFailureSchema } from './capture-failure';
import { EngineSettingsSchema, MatrixRunSettingsSchema } from './matrix-run';
import { CustomWebLlmModelsSchema } from './webllm-model';
import { PropertySchema } from './property';
import { ProvenanceKindSchema } from './conditions';

/** A problem in words, with a code a program can branch on. Capture codes plus two protocol codes. */
export const MessageFailureSchema = z.object({
  code: z.union([CaptureErrorCodeSchema, z.enum(['bad-request', 'internal'])]),
  message: z.string(),
});
export type MessageFailure = z.infer<typeof MessageFailureSchema>;

const FailureResponseSchema = z.object({ ok: z.literal(false), failure: MessageFailureSchema });
export type FailureResponse = z.infer<typeof FailureResponseSchema>;

/**
 * What the injected capture script returns through `scripting.executeScript`: the article, or
 * why there is none. The article is re-validated (block offsets included) in the background.
 */
export const PageCaptureResultSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), article: ArticleSchema }),
  z.object({ ok: z.literal(false), failure: CaptureFailureSchema }),
]);
export type PageCaptureResult = z.infer<typeof PageCaptureResultSchema>;

/**
 * A saved paper without its full article text: what the side panel shows after a capture.
 * Strings are bounded as in `ArticleSchema` (`CAPTURED_TEXT_LIMITS`, where each bound comes from).
 */
export const PaperSummarySchema = z.object({
  /** `doi:<doi>`, else `url:<url>`, else `title:<title>`: the primary key in the `papers` table. */
  key: z
    .string()
    .min(1)
    .max(LIMITS.url + 4, 'paper key is longer than a URL may be'),
  doi: DoiSchema.nullable(),
  url: z
    .string()
    .max(LIMITS.url, `URL is longer than ${LIMITS.url.toLocaleString('en-US')} characters`)
    .nullable(),
  title: z.string().max(LIMITS.title, `title is longer than ${LIMITS.title.toLocaleString('en-US')} characters`),
  authors: z.array(z.string().max(LIMITS.author, `author name is longer than ${LIMITS.author} characters`)).max(LIMITS.authors),
  journal: z.string().max(LIMITS.journal, `journal name is longer than ${LIMITS.journal} characters`).nullable(),
  /** Volume and pages as captured; absent for papers saved before they were read. */
  volume: z.string().max(LIMITS.volume, `volume is longer than ${LIMITS.volume} characters`).nullable().optional(),
  pages: z.string().max(LIMITS.pages, `pages are longer than ${LIMITS.pages} characters`).nullable().optional(),
  year: z.number().int().nullable(),
  source: ArticleSourceSchema,
  adapter: z.string().max(LIMITS.adapter),
  blockCount: z.number().int().nonnegative(),
  /** Pages of a PDF (absent for web pages, and for papers saved before it was recorded). */
  pageCount: z.number().int().positive().optional(),
  abstractOnly: z.boolean(),
  /** ISO 8601 time of the latest capture. */
  capturedAt: z.string(),
});
export type PaperSummary = z.infer<typeof PaperSummarySchema>;

export const CaptureTabRequestSchema = z.object({
  type: z.literal('capture-tab'),
  tabId: z.number().int().nonnegative(),
});

/**
 * What the WebLLM engine's host found about WebGPU (see src/llm/webgpu-capability.ts):
 * unavailable with a reason, or the adapter, whether it has `shader-f16`, and its buffer limits.
 */
export const WebGpuCapabilitySchema = z.discriminatedUnion('available', [
  z.object({ available: z.literal(false), reason: z.string() }),
  z.object({
    available: z.literal(true),
    adapterInfo: z.object({ vendor: z.string(), architecture: z.string(), device: z.string(), description: z.string() }),
    shaderF16: z.boolean(),
    maxBufferSize: z.number().nonnegative(),
    maxStorageBufferBindingSize: z.number().nonnegative(),
    isFallbackAdapter: z.boolean(),
  }),
]);
export type WebGpuCapability = z.infer<typeof WebGpuCapabilitySchema>;

/** Check WebGPU in the model engine's document (the offscreen document). */
export const WebGpuCheckRequestSchema = z.object({ type: z.literal('webgpu-check') });

/**
 * The reader's custom WebLLM models (src/contracts/webllm-model.ts) a model request may name
 * besides WebLLM's prebuilt ones; the engine document registers them before it acts.
 */
const customModelsField = { customModels: CustomWebLlmModelsSchema.optional() };

/** Check WebGPU, then load `modelId` (a WebLLM prebuilt model id, or one of `customModels`) into the engine. */
export const LoadModelRequestSchema = z.object({ type: z.literal('load-model'), modelId: z.string().min(1), ...customModelsField });

/**
 * Start an SLM-MATRIX run on a saved paper. The run lives in the offscreen document and writes
 * its progress and results to the `runs` table, so it goes on when the side panel closes.
 */
export const MatrixStartRequestSchema = z.object({ type: z.literal('matrix-start'), settings: MatrixRunSettingsSchema });

/** Stop a run (the Stop button): no model call starts after this; results so far are kept. */
export const MatrixCancelRequestSchema = z.object({ type: z.literal('matrix-cancel'), runId: z.string().min(1) });

/** One fact to highlight in the page: its evidence quote and what the hover card shows. */
export const HighlightItemSchema = z.object({
  /** Stable id (the record's index in the run, or the dataset triplet id). */
  id: z.string().min(1),
  status: z.enum(['candidate', 'verified', 'needs_review', 'rejected']),
  quote: TextQuoteSelectorSchema,
  position: TextPositionSelectorSchema.optional(),
  /** The part of the quote to mark (the value as printed); the whole quote when absent or not found in it. */
  mark: z.string().optional(),
  card: z.object({
    material: z.string(),
    property: z.string(),
    value: z.string(),
    unit: z.string(),
    /**
     * The value in the property's display unit when the printed unit is another ("0.040 eV" for
     * "40 meV"; `displayTextBeside` in src/properties/display-unit.ts); shown after the value.
     */
    display: z.string().max(200).optional(),
    /** The conditions in words, method first (`formatConditions`): "HSE06 · indirect". */
    conditions: z.string().optional(),
    /** Where the value comes from, in words (`formatProvenance`): "computed", "measured", "cited [19]". */
    provenance: z.string().max(200).optional(),
    /**
     * Why a reader should look before trusting it, in words (a quick-scan candidate's `doubts`:
     * the end of a change, competing conditions the sentence does not pair with the value, a
     * cited value); plain text, shown as its own row.
     */
    doubts: z.array(z.string().max(500)).max(8).optional(),
    /** Which paths or proposers agreed, in words. */
    agreed: z.string().optional(),
  }),
});
export type HighlightItem = z.infer<typeof HighlightItemSchema>;

/** Replace the highlights in tab `tabId` with `items` (an empty list clears them). */
export const HighlightShowRequestSchema = z.object({
  type: z.literal('highlight-show'),
  tabId: z.number().int().nonnegative(),
  items: z.array(HighlightItemSchema).max(5000),
});

/** Scroll tab `tabId` to the highlight `id` and flash it. */
export const HighlightScrollRequestSchema = z.object({
  type: z.literal('highlight-scroll'),
  tabId: z.number().int().nonnegative(),
  id: z.string().min(1),
});

/** What the highlighter did: ids it anchored, and those it could not, each with the reason in words. */
export const HighlightReportSchema = z.object({
  anchored: z.array(z.string()),
  failed: z.array(z.object({ id: z.string(), reason: z.string() })),
  /** 'custom-highlight' (CSS Custom Highlight API) or 'overlay' (the fallback). */
  method: z.enum(['custom-highlight', 'overlay']),
});
export type HighlightReport = z.infer<typeof HighlightReportSchema>;

/** Which WebLLM models are in the browser's cache (offscreen document), with their size. */
export const ModelCacheStatusRequestSchema = z.object({
  type: z.literal('model-cache-status'),
  modelIds: z.array(z.string().min(1)).max(50),
  ...customModelsField,
});

/** Delete a WebLLM model's cached weights, config and wasm. */
export const ModelCacheDeleteRequestSchema = z.object({
  type: z.literal('model-cache-delete'),
  modelId: z.string().min(1),
  ...customModelsField,
});

/**
 * Download a WebLLM model's weights into WebLLM's cache before a run (src/llm/model-download.ts):
 * `start` (or resume: shards already cached are skipped), `pause` (finished shards are kept), or
 * `status`. Answered at once with the download's state; the download goes on in the offscreen document.
 */
export const ModelDownloadRequestSchema = z.object({
  type: z.literal('model-download'),
  action: z.enum(['start', 'pause', 'status']),
  modelId: z.string().min(1),
  ...customModelsField,
});

/** One model's download: bytes of weights done of the total (0 until the list of shards is read), and the failure in words. */
export const ModelDownloadStateSchema = z.object({
  modelId: z.string(),
  phase: z.enum(['idle', 'downloading', 'paused', 'done', 'failed']),
  doneBytes: z.number().nonnegative(),
  totalBytes: z.number().nonnegative(),
  message: z.string().max(2000).optional(),
});
export type ModelDownloadState = z.infer<typeof ModelDownloadStateSchema>;

/** Unload every model from the engine (frees GPU memory; the cache keeps the weights). Refused while a run uses the engine. */
export const ModelUnloadRequestSchema = z.object({ type: z.literal('model-unload') });

const ModelCacheResponseSchema = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    models: z.array(
      z.object({
        modelId: z.string(),
        cached: z.boolean(),
        vramMB: z.number().nullable(),
        requiresF16: z.boolean(),
        /** Loaded in the engine now (on the GPU); absent in answers from before this field. */
        loaded: z.boolean().optional(),
      }),
    ),
  }),
  FailureResponseSchema,
]);

/** An `LlmError` as JSON (`LlmError.toJSON()`); the code is kept a string so this file needs no llm import. */
export const LlmErrorJsonSchema = z.object({ code: z.string(), message: z.string() });

/** The answer to `webgpu-check` and `load-model`: the capability, and the error when loading failed. */
const EngineStatusResponseSchema = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    capability: WebGpuCapabilitySchema,
    /** The capability in words for the user (describeWebGpu). */
    summary: z.string(),
    /** Set when the model did not load (or WebGPU is missing). */
    error: LlmErrorJsonSchema.optional(),
    /** Load progress reports seen, last few only. */
    progress: z.array(z.object({ text: z.string(), progress: z.number() })).optional(),
  }),
  FailureResponseSchema,
]);

/**
 * Check a precedent question ("has <material> been reported with <property>?") with the open
 * literature: Crossref (polite pool, `mailto`), arXiv and OpenAlex (with `openAlexKey` when the
 * reader gave one), judged by the reader's model engine. Runs in the offscreen document.
 */
export const PrecedentCheckRequestSchema = z.object({
  type: z.literal('precedent-check'),
  material: z.string().trim().min(1).max(200),
  property: z.string().trim().min(1).max(100),
  literature: z.object({ mailto: z.email(), openAlexKey: z.string().min(1).max(200).optional() }),
  engine: EngineSettingsSchema,
});

/**
 * The dataset page's imports, run in the offscreen document so they outlive the page
 * (src/store/import-job.ts): `run` the waiting job `jobId` (answered at once; the job's record
 * carries its progress), `stop` the running job `jobId` after its current chunk, or `check` —
 * start the document if needed (a new document marks jobs a dead one left running as
 * interrupted) and say which jobs run.
 */
export const DatasetImportRequestSchema = z.discriminatedUnion('action', [
  z.object({ type: z.literal('dataset-import'), action: z.enum(['run', 'stop']), jobId: z.string().min(1).max(100) }),
  z.object({ type: z.literal('dataset-import'), action: z.literal('check') }),
]);

const shortText = z.string().max(20_000);

/**
 * A `PrecedentCheck` (src/precedent/check-precedent.ts) as JSON. The fields the card shows are
 * checked (answer, values with their reference, searched, dropped reasons); the judge's claims,
 * related materials and phases pass through unchecked (the card shows only their count). Lists are capped so a bad answer cannot
 * flood the cache.
 */
export const PrecedentCheckJsonSchema = z.object({
  answer: z.enum(['Yes', 'No', 'Unknown']),
  values: z
    .array(
      z.object({
        kind: z.enum(['Tc', 'Tcn', 'value']),
        value: z.number(),
        unit: z.string().max(100),
        conditions: shortText.optional(),
        reference: z.object({
          code: z.string().max(500).optional(),
          sourceId: z.string().max(2000).optional(),
          doi: z.string().max(500).optional(),
          title: z.string().max(2000).optional(),
          year: z.number().int().nullable().optional(),
          origin: z.string().max(200).optional(),
        }),
        quote: shortText,
        origin: z.string().max(500),
      }),
    )
    .max(500),
  sources: z.array(z.string().max(2000)).max(500),
  searched: z.array(z.object({ source: z.string().max(500), found: z.number().int().nonnegative(), note: shortText })).max(100),
  unknownBecause: shortText.optional(),
  /** Why each claim was left out; the claim itself as sent. */
  dropped: z.array(z.object({ reason: shortText, claim: z.unknown() })).max(500),
  related: z.array(z.unknown()).max(500),
  phases: z.array(z.unknown()).max(500),
});

/** Every request a context may send to the background. Add new requests to this union. */
export const RequestSchema = z.discriminatedUnion('type', [
  CaptureTabRequestSchema,
  WebGpuCheckRequestSchema,
  LoadModelRequestSchema,
  MatrixStartRequestSchema,
  MatrixCancelRequestSchema,
  HighlightShowRequestSchema,
  HighlightScrollRequestSchema,
  ModelCacheStatusRequestSchema,
  ModelCacheDeleteRequestSchema,
  ModelUnloadRequestSchema,
  ModelDownloadRequestSchema,
  PrecedentCheckRequestSchema,
  DatasetImportRequestSchema,
]);
export type Request = z.infer<typeof RequestSchema>;
export type RequestType = Request['type'];
export type RequestOf<Type extends RequestType> = Extract<Request, { type: Type }>;

/** The response schema of each request type; each includes the shared failure shape. */
export const ResponseSchemas = {
  'capture-tab': z.discriminatedUnion('ok', [
    z.object({ ok: z.literal(true), paper: PaperSummarySchema, warnings: z.array(z.string()) }),
    FailureResponseSchema,
  ]),
  'webgpu-check': EngineStatusResponseSchema,
  'load-model': EngineStatusResponseSchema,
  /** The run's id in the `runs` table; the run goes on after this answer. */
  'matrix-start': z.discriminatedUnion('ok', [z.object({ ok: z.literal(true), runId: z.string().min(1) }), FailureResponseSchema]),
  /** `cancelled` is false when no such run was going (already finished, or unknown). */
  'matrix-cancel': z.discriminatedUnion('ok', [z.object({ ok: z.literal(true), cancelled: z.boolean() }), FailureResponseSchema]),
  'highlight-show': z.discriminatedUnion('ok', [z.object({ ok: z.literal(true), report: HighlightReportSchema }), FailureResponseSchema]),
  'highlight-scroll': z.discriminatedUnion('ok', [z.object({ ok: z.literal(true), found: z.boolean() }), FailureResponseSchema]),
  /** The models asked about, in order. */
  'model-cache-status': ModelCacheResponseSchema,
  /** The models asked about after the deletion (the deleted one `cached: false`). */
  'model-cache-delete': ModelCacheResponseSchema,
  /** The models that were loaded and are not any more. */
  'model-unload': z.discriminatedUnion('ok', [z.object({ ok: z.literal(true), unloaded: z.array(z.string()) }), FailureResponseSchema]),
  /** The model's download state after the action. */
  'model-download': z.discriminatedUnion('ok', [
    z.object({ ok: z.literal(true), download: ModelDownloadStateSchema }),
    FailureResponseSchema,
  ]),
  /** The check (local sources, then the literature judged by the engine); engine and provider failures are lines of `searched`. */
  'precedent-check': z.discriminatedUnion('ok', [
    z.object({ ok: z.literal(true), check: PrecedentCheckJsonSchema }),
    FailureResponseSchema,
  ]),
  /** The jobs running in the offscreen document after the action (a `run` answered before its job ends). */
  'dataset-import': z.discriminatedUnion('ok', [z.object({ ok: z.literal(true), running: z.array(z.string()) }), FailureResponseSchema]),
} satisfies Record<RequestType, z.ZodType>;

export type ResponseOf<Type extends RequestType> = z.infer<(typeof ResponseSchemas)[Type]>;

/**
 * Download the PDF at `url` and read it with pdf.js, in the offscreen document (why there:
 * src/extension/capture-pdf-tab.ts). Only the background sends it, inside an `OffscreenEnvelope`,
 * for a tab that shows a PDF; it is not a `Request` a page may send. `url` is the tab's URL
 * without its fragment (`pdfDownloadUrl`), http or https only; the bytes never cross messaging.
 */
export const PdfReadRequestSchema = z.object({
  type: z.literal('pdf-read'),
  url: z
    .url({ protocol: /^https?$/, error: 'the PDF address must be an http or https URL' })
    .max(LIMITS.url, `URL is longer than ${LIMITS.url.toLocaleString('en-US')} characters`),
});
export type PdfReadRequest = z.infer<typeof PdfReadRequestSchema>;

/**
 * The answer to `pdf-read`: the captured `Article` (`source: 'pdf'`, blocks with 1-based
 * `page`), validated again on receipt, or the capture's failure as the `CaptureError` said it
 * (code and words unchanged: HTTP status, size, not a PDF, no text layer…).
 */
export const PdfReadResponseSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), article: ArticleSchema }),
  FailureResponseSchema,
]);
export type PdfReadResponse = z.infer<typeof PdfReadResponseSchema>;

/**
 * Count the quick scan's candidates in a saved paper, in the offscreen document (the scan's
 * unit and material tables are too heavy for the service worker: src/extension/paper-recognizer.ts).
 * Only the background sends it, inside an `OffscreenEnvelope`, for a paper it recognized on one
 * of the reader's publisher sites; it is not a `Request` a page may send. `paperKey`: the saved
 * paper (`PaperSummary.key`); `properties`: the reader's own property schemas, scanned with the
 * built-in ones as the side panel's quick scan does.
 */
export const CandidateCountRequestSchema = z.object({
  type: z.literal('candidate-count'),
  paperKey: PaperSummarySchema.shape.key,
  properties: z.array(PropertySchema).max(50),
});
export type CandidateCountRequest = z.infer<typeof CandidateCountRequestSchema>;

/** The answer to `candidate-count`: how many candidates `scanArticle` found (all of them, before the highlights' cap), or why none were counted. */
export const CandidateCountResponseSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), candidates: z.number().int().nonnegative() }),
  FailureResponseSchema,
]);
export type CandidateCountResponse = z.infer<typeof CandidateCountResponseSchema>;

/**
 * The background's envelope for a request it forwards to the offscreen document, so the
 * offscreen listener can ignore every other runtime message (all extension pages hear them):
 * the engine requests, which pages send to the background, and `pdf-read`, which only the
 * background sends.
 */
export const OffscreenEnvelopeSchema = z.object({
  target: z.literal('assay-offscreen'),
  request: z.discriminatedUnion('type', [
    PdfReadRequestSchema,
    CandidateCountRequestSchema,
    WebGpuCheckRequestSchema,
    LoadModelRequestSchema,
    MatrixStartRequestSchema,
    MatrixCancelRequestSchema,
    ModelCacheStatusRequestSchema,
    ModelCacheDeleteRequestSchema,
    ModelUnloadRequestSchema,
    ModelDownloadRequestSchema,
    PrecedentCheckRequestSchema,
    DatasetImportRequestSchema,
  ]),
});
export type OffscreenEnvelope = z.infer<typeof OffscreenEnvelopeSchema>;

/** Build the failure response for any request type. */
export function failureResponse(code: MessageFailure['code'], message: string): FailureResponse {
  return { ok: false, failure: { code, message } };
}

/**
 * `ResponseSchemas` as a mapped type: indexing it with a generic request type keeps the link
 * between key and schema, which indexing the object literal's type loses.
 */
const responseSchemaMap: { [Type in RequestType]: z.ZodType<ResponseOf<Type>> } = ResponseSchemas;

/** The response schema of request type `type`, typed by it. */
export function responseSchemaOf<Type extends RequestType>(type: Type): z.ZodType<ResponseOf<Type>> {
  return responseSchemaMap[type];
}

/** `failureResponse(code, message)` typed as the response of any request type (each includes the failure shape). */
export function failureOf<Type extends RequestType>(code: MessageFailure['code'], message: string): ResponseOf<Type> {
  return failureResponse(code, message) as ResponseOf<Type>;
}

/** The words of an exchange's failures (each an `internal` failure response). */
export interface ExchangeWording {
  /** `send` rejected (no receiver, closed port, …): the message for its error. */
  noAnswer(error: unknown): string;
  /** The reply did not parse: the message for zod's issues in words (`z.prettifyError`). */
  malformed(issues: string): string;
  /** The reply was `undefined` (nobody answered), when that deserves its own words; otherwise it counts as malformed. */
  undefinedAnswer?: string;
}

/** "`prefix`: <the error's message>" — the usual `ExchangeWording.noAnswer`. */
export const withErrorDetail =
  (prefix: string) =>
  (error: unknown): string =>
    `${prefix}: ${error instanceof Error ? error.message : String(error)}`;

/**
 * Send a request of the protocol and parse the reply: `send(request)` delivers it (by
 * `runtime.sendMessage`, `tabs.sendMessage`, in an envelope, … — to any untrusted receiver) and
 * resolves to the raw reply, which is parsed with the response schema of `request.type`.
 * → the parsed `ResponseOf<Type>` (the receiver's own failures included), or an `internal`
 * failure response worded by `wording`: `noAnswer(error)` when `send` rejects or throws,
 * `undefinedAnswer` for an `undefined` reply when given, else `malformed(issues)` when the reply
 * does not match the schema. Never rejects.
 */
export async function sendAndParse<Type extends RequestType>(
  request: RequestOf<Type>,
  send: (request: RequestOf<Type>) => Promise<unknown>,
  wording: ExchangeWording,
): Promise<ResponseOf<Type>> {
  const type: Type = request.type;
  // Every response schema includes the failure shape, which TypeScript cannot see through the generic.
  return (await exchange(() => send(request), responseSchemaOf(type), wording)) as ResponseOf<Type>;
}

/**
 * `sendAndParse` for an exchange outside `Request` (e.g. the background's `pdf-read` to the
 * offscreen document): `send()` delivers the message and resolves to the raw reply, parsed with
 * `schema`. → the parsed reply, or an `internal` failure response worded by `wording` (as in
 * `sendAndParse`). Never rejects.
 */
export async function exchange<Response>(
  send: () => Promise<unknown>,
  schema: z.ZodType<Response>,
  wording: ExchangeWording,
): Promise<Response | FailureResponse> {
  let answer: unknown;
  try {
    answer = await send();
  } catch (error) {
    return failureResponse('internal', wording.noAnswer(error));
  }
  if (answer === undefined && wording.undefinedAnswer !== undefined) return failureResponse('internal', wording.undefinedAnswer);
  const parsed = schema.safeParse(answer);
  return parsed.success ? parsed.data : failureResponse('internal', wording.malformed(z.prettifyError(parsed.error)));
}

const count = z.number().int().nonnegative();

/**
 * The dataset's search index (src/store/triplet-search-index.ts) as its worker reports it to the
 * dataset page. `generation` grows each time what a search answers may have changed (the index
 * became ready, or rows were added, edited or deleted), so the page knows to search again.
 */
export const TripletSearchStateSchema = z.discriminatedUnion('status', [
  /** The first build, reading the table `done` of `total` rows; no answers yet. */
  z.object({ status: z.literal('building'), done: count, total: count, generation: count }),
  /**
   * Answering searches over `rows` rows; `pending` rows written since are still being read in
   * (an import's: until then searches see part of them, and filters and sorts read IndexedDB).
   * `searchStopped` (the reason in words): the text search was dropped for a dataset past the
   * worker's heap budget, so searches read every row; filters and sorts still answer from memory.
   */
  z.object({
    status: z.literal('ready'),
    rows: count,
    generation: count,
    pending: count.optional(),
    searchStopped: z.string().max(2000).optional(),
  }),
  /** Re-reading every row after a change too wide to list (`done` of `total`); no answers until done. */
  z.object({ status: z.literal('updating'), done: count, total: count, generation: count }),
  /** The index stopped (the reason in words); no answers. */
  z.object({ status: z.literal('failed'), message: z.string().max(2000), generation: count }),
]);
export type TripletSearchState = z.infer<typeof TripletSearchStateSchema>;

/** The longest search text the worker takes; the page reads every row for a longer one. */
export const MAX_SEARCH_TEXT = 1000;

/**
 * Offscreen document → its import worker (src/extension/import-worker.ts): run import job
 * `jobId` (`runImportJob`), or stop it between chunks.
 */
export const ImportWorkerRequestSchema = z.object({ type: z.enum(['import-run', 'import-stop']), jobId: z.string().min(1).max(100) });
export type ImportWorkerRequest = z.infer<typeof ImportWorkerRequestSchema>;

/** Import worker → offscreen document: job `jobId` ended (its record says how), or could not run (`error`, in words). */
export const ImportWorkerReplySchema = z.object({
  type: z.literal('import-ended'),
  jobId: z.string().min(1).max(100),
  error: z.string().max(2000).optional(),
});
export type ImportWorkerReply = z.infer<typeof ImportWorkerReplySchema>;

/** Bounds of the short names in an order request (a property, a status, a column id). */
const shortName = z.string().max(200);

/**
 * The dataset table's filters as the worker's catalog takes them (`TripletQuery` of
 * src/store/dataset-repository.ts, same meanings): material prefix in any case, property, status,
 * decision, paper key, and search words (answered by the search index).
 */
export const TripletOrderQuerySchema = z.object({
  material: z.string().max(MAX_SEARCH_TEXT).optional(),
  property: shortName.optional(),
  status: shortName.optional(),
  decision: shortName.optional(),
  paperKey: z.string().max(4000).optional(),
  search: z.string().max(MAX_SEARCH_TEXT).optional(),
});
export type TripletOrderQuery = z.infer<typeof TripletOrderQuerySchema>;

/** A column of the dataset table and a direction (the catalog answers null for a column it does not know). */
export const TripletOrderSortSchema = z.object({ column: shortName, direction: z.enum(['ascending', 'descending']) });
export type TripletOrderSort = z.infer<typeof TripletOrderSortSchema>;

/**
 * Dataset page → dataset worker: the ids of the rows matching `text` (`triplet-search`), or of
 * the rows matching `query` in `sort`'s order (`triplet-order`; `labels` spells properties as the
 * table shows them, for a sort by property: at most 10,000 of them).
 */
const PropertyLabelsSchema = z
  .record(shortName, shortName)
  .refine((labels) => Object.keys(labels).length <= 10_000, 'at most 10,000 labels');

/**
 * The dataset table's method and provenance filters (`ConditionFilter` of
 * src/ui/shared/fact-conditions.ts): the start of a method, and a provenance kind, `not_cited`, or ''.
 */
export const TripletConditionFilterSchema = z.object({
  method: z.string().max(MAX_SEARCH_TEXT),
  provenance: z.union([z.literal(''), ProvenanceKindSchema, z.literal('not_cited')]),
});

export const TripletSearchRequestSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('triplet-search'), requestId: count, text: z.string().max(MAX_SEARCH_TEXT) }),
  z.object({
    type: z.literal('triplet-order'),
    requestId: count,
    query: TripletOrderQuerySchema,
    sort: TripletOrderSortSchema,
    labels: PropertyLabelsSchema,
  }),
  /**
   * Write the rows the table shows (`query`, `conditions`, in `sort`'s order) in export format
   * `format` (an id of src/export/export-formats.ts) to a file of the origin private file system;
   * progress and the end come as `triplet-export-*` replies with the same request id.
   */
  z.object({
    type: z.literal('triplet-export'),
    requestId: count,
    format: shortName,
    query: TripletOrderQuerySchema,
    sort: TripletOrderSortSchema,
    labels: PropertyLabelsSchema,
    conditions: TripletConditionFilterSchema.optional(),
  }),
  /** Stop export `requestId`: its file is removed and it ends as stopped. */
  z.object({ type: z.literal('triplet-export-stop'), requestId: count }),
]);
export type TripletSearchRequest = z.infer<typeof TripletSearchRequestSchema>;
export type TripletOrderRequest = Extract<TripletSearchRequest, { type: 'triplet-order' }>;
export type TripletExportRequest = Extract<TripletSearchRequest, { type: 'triplet-export' }>;

/**
 * A list of ids, checked in one plain pass: `z.array(z.string())` took 76 ms of the dataset
 * page's main thread for the 100,000 ids of a word in every row (Chromium, 2-core machine).
 */
const IdListSchema = z.custom<string[]>((value) => Array.isArray(value) && value.every((id) => typeof id === 'string'), {
  message: 'ids must be a list of strings',
});

/**
 * Search worker → dataset page: the answer to request `requestId`, the matching ids newest first
 * (null: the index cannot answer), or a new state.
 */
export const TripletSearchReplySchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('triplet-search-ids'), requestId: count, ids: IdListSchema.nullable() }),
  z.object({ type: z.literal('triplet-search-state'), state: TripletSearchStateSchema }),
  /** Export `requestId` has written `written` rows. */
  z.object({ type: z.literal('triplet-export-progress'), requestId: count, written: count }),
  /** Export `requestId` wrote `count` rows to the private file system's file `file`. */
  z.object({ type: z.literal('triplet-export-done'), requestId: count, count, file: z.string().min(1).max(200) }),
  /**
   * Export `requestId` ended without a file: `stopped` when asked to, `unavailable` when the
   * worker cannot write a file (no private file system: the page exports itself), else `failed`.
   */
  z.object({
    type: z.literal('triplet-export-ended'),
    requestId: count,
    outcome: z.enum(['stopped', 'unavailable', 'failed']),
    message: z.string().max(2000),
  }),
]);
export type TripletSearchReply = z.infer<typeof TripletSearchReplySchema>;
