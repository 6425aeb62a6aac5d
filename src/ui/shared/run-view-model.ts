/**
 * What the side panel's "Extract" section says about an SLM-MATRIX run, in words: progress,
 * error headings, verdicts grouped for reading, values as printed. Pure (no React, no browser),
 * so every string the user sees is unit-tested.
 */
import type { MatrixRunRow } from '../../contracts/matrix-run';
import { MessageFailureSchema } from '../../contracts/messages';
import type { VerificationRecord, VerificationStatus } from '../../contracts/verification';
import type { MatrixStage } from '../../contracts/run-record';
import type { PropertyRun, RunRecord } from '../../contracts/run-record';
import { failureHeading } from './failure-heading';
import { factRecords } from '../../matrix/fact-entries';

/** A property's label for running text; the default spells the schema name ("band_gap" → "band gap"). */
export type PropertyLabel = (name: string) => string;

/** "band_gap" → "band gap": the schema name with spaces, for when no label is known. */
export function spellPropertyName(name: string): string {
  return name.replaceAll('_', ' ');
}

/** Verdicts in reading order: what can be used first, what was thrown out last. */
export const STATUS_ORDER: readonly VerificationStatus[] = ['verified', 'needs_review', 'rejected'];

const statusLabels: Record<VerificationStatus, string> = { verified: 'Verified', needs_review: 'Needs review', rejected: 'Rejected' };

/** The status as a word for a badge: "Verified", "Needs review", "Rejected". */
export function statusLabel(status: VerificationStatus): string {
  return statusLabels[status];
}

/** "2 verified · 1 needs review · 0 rejected": counts in `STATUS_ORDER`. */
export function countsText(counts: Record<VerificationStatus, number>): string {
  return STATUS_ORDER.map((status) => `${counts[status]} ${statusLabels[status].toLowerCase()}`).join(' · ');
}

function countRecords(records: readonly VerificationRecord[]): Record<VerificationStatus, number> {
  const counts: Record<VerificationStatus, number> = { verified: 0, needs_review: 0, rejected: 0 };
  for (const record of records) counts[record.status] += 1;
  return counts;
}

function stageText(stage: MatrixStage, property: string, done: number, total: number): string {
  switch (stage) {
    case 'reading':
      return `${property}: reading the paper, ${done} of ${total} model calls.`;
    case 'moa':
      return `${property}: the models propose values (MoA), ${done} of ${total} model calls.`;
    case 'mcts':
      // `total` is rollouts·depth, an upper bound: a rollout that reaches a final answer stops early.
      return `${property}: searching for values (MCTS), ${done} of at most ${total} model calls.`;
    case 'discriminator':
      return `${property}: a judge model weighs the answers (discriminator), ${done} of ${total} model calls.`;
    case 'cross-verify':
      // Rounds started / K while refining; 0 of K before the first re-run and K of K at the end.
      return done > 0 && done < total
        ? `${property}: cross-verifying the two answers, refinement round ${done} of ${total}.`
        : `${property}: cross-verifying the two answers…`;
    case 'ground':
      return `${property}: finding each value’s sentence in the paper (grounding), ${done} of ${total} records.`;
    case 'verification-questions':
      return `${property}: asking the verification questions, ${done} of ${total} model calls.`;
  }
}

function propertiesText(row: MatrixRunRow): string {
  return `${row.propertiesDone.length} of ${row.settings.properties.length} properties`;
}

/**
 * One sentence on the run's state.
 * - `running` before the pipeline's first event: the engine's status when set ("Downloading
 *   Qwen2.5-1.5B: 120 MB, 17%"), else "Starting…".
 * - `running` after: the property (named by `label`, default `spellPropertyName`), then the
 *   stage in words, e.g. "band gap: the models propose values (MoA), 3 of 4 model calls.",
 *   "band gap: searching for values (MCTS), 5 of at most 12 model calls.", "band gap:
 *   cross-verifying the two answers…", "band gap: finding each value’s sentence in the paper
 *   (grounding), 2 of 5 records.".
 * - `done`: "Done: 2 verified, 1 needs review, 0 rejected." — facts, not records: verdicts that state
 *   one fact (`factRecords` of src/matrix/fact-entries.ts) count once, by the fact's status.
 * - `cancelled` / `interrupted`: "Stopped after 1 of 2 properties." / "Interrupted after 1 of 2 properties."
 */
export function progressText(row: MatrixRunRow, label: PropertyLabel = spellPropertyName): string {
  switch (row.status) {
    case 'running':
      if (row.progress === null) return row.engineStatus ?? 'Starting…';
      return stageText(row.progress.stage, label(row.progress.property), row.progress.done, row.progress.total);
    case 'done':
      return `Done: ${countsText(countRecords(factRecords(row.records))).replaceAll(' · ', ', ')}.`;
    case 'cancelled':
      return `Stopped after ${propertiesText(row)}.`;
    case 'interrupted':
      return `Interrupted after ${propertiesText(row)}.`;
  }
}

const stageOrder: readonly MatrixStage[] = ['reading', 'moa', 'mcts', 'discriminator', 'cross-verify', 'ground', 'verification-questions'];

/**
 * How far the run is, 0..1, for a `<progress>` bar; null while unknown (running, no pipeline
 * event yet: the bar is then indeterminate). A coarse estimate: each property weighs
 * 1/properties, and within a property each of the seven stages (reading, MoA, MCTS, discriminator,
 * cross-verify, ground, verification questions) weighs 1/7, filled by its done/total. So the bar
 * only moves forward within a property, but jumps when a stage is skipped (no reading stage when
 * the relevant chunks fit one call; the early exit skips MCTS and the discriminator; no questions
 * when nothing was verified).
 * Finished runs: `done` → 1; `cancelled`/`interrupted` → properties finished / properties.
 */
export function progressFraction(row: MatrixRunRow): number | null {
  const properties = Math.max(row.settings.properties.length, 1);
  if (row.status === 'done') return 1;
  if (row.status !== 'running') return Math.min(row.propertiesDone.length / properties, 1);
  if (row.progress === null) return null;
  const { stage, property, done, total } = row.progress;
  const index = row.settings.properties.indexOf(property);
  const position = index >= 0 ? index : row.propertiesDone.length;
  const within = (stageOrder.indexOf(stage) + (total > 0 ? Math.min(done / total, 1) : 0)) / stageOrder.length;
  return Math.min((position + within) / properties, 1);
}

/** Headings per `LlmError` code (src/llm/llm-port.ts), plus the run's own and the panel's codes. */
const runHeadings: Record<string, string> = {
  'no-webgpu': 'WebGPU is not available in this browser',
  'no-shader-f16': 'This GPU lacks 16-bit float shaders (shader-f16)',
  'out-of-gpu-memory': 'The GPU ran out of memory',
  'download-failed': 'The model download failed',
  'device-lost': 'The GPU stopped responding (device lost)',
  'integrity-failed': 'A model file failed its integrity check',
  unreachable: 'The model server could not be reached',
  timeout: 'The model took too long to answer',
  http: 'The model server answered with an error',
  'rate-limited': 'The model server is limiting requests',
  'malformed-output': 'A model reply could not be read',
  'truncated-output': 'A model reply ran past its token limit',
  'repetitive-output': 'A model reply fell into a repetition loop',
  unavailable: 'No engine or model is configured',
  'origin-refused': 'The model server refused this extension',
  'cors-blocked': 'The browser blocked the model server’s answer (CORS)',
  'wrong-base-url': 'No model server API at that base URL',
  'model-not-found': 'The model server does not have that model',
  'model-not-loaded': 'The model is not loaded on the server',
  'context-truncated': 'The model server cut the prompt to fit its context window',
  aborted: 'Stopped',
  interrupted: 'The run was interrupted',
  'storage-failed': 'The run’s results could not be stored',
  'permission-denied': 'Assay may not reach the model server',
};

/**
 * The heading above a run's error message (`row.error.message` or a start failure's message):
 * one per `LlmError` code (`aborted` → "Stopped"), `interrupted` → "The run was interrupted",
 * `permission-denied` (host permission refused), the message protocol's codes via
 * `failureHeading`, and "The run failed" for any other code.
 */
export function runErrorHeading(code: string): string {
  const heading = runHeadings[code];
  if (heading !== undefined) return heading;
  const failureCode = MessageFailureSchema.shape.code.safeParse(code);
  return failureCode.success ? failureHeading({ code: failureCode.data, message: '' }) : 'The run failed';
}

/** The verdicts about one property, in `STATUS_ORDER`, with counts per status. */
export interface PropertyVerdicts {
  property: string;
  counts: Record<VerificationStatus, number>;
  records: VerificationRecord[];
}

/**
 * Group `records` by `triplet.property` (groups in `propertyOrder` first, then in order of first
 * appearance) and sort each group by status: verified → needs_review → rejected, keeping the
 * pipeline's order within a status. Properties without records get no group.
 */
export function groupRecords(records: readonly VerificationRecord[], propertyOrder: readonly string[] = []): PropertyVerdicts[] {
  const byProperty = new Map<string, VerificationRecord[]>();
  for (const name of propertyOrder) byProperty.set(name, []);
  for (const record of records) {
    const group = byProperty.get(record.triplet.property);
    if (group) group.push(record);
    else byProperty.set(record.triplet.property, [record]);
  }
  const groups: PropertyVerdicts[] = [];
  for (const [property, group] of byProperty) {
    if (group.length === 0) continue;
    const sorted = STATUS_ORDER.flatMap((status) => group.filter((record) => record.status === status));
    groups.push({ property, counts: countRecords(sorted), records: sorted });
  }
  return groups;
}

/**
 * `records` (one property's, in their listed order) grouped by material, like a reader's notes:
 * one group per material string as the model wrote it (trimmed; case kept, since formulas are
 * case-sensitive: "CO" is not "Co"), groups in the order their first record comes, records in
 * their order within each. → `[{ material, records }]`; an empty material is grouped as "".
 */
export function groupByMaterial(records: readonly VerificationRecord[]): Array<{ material: string; records: VerificationRecord[] }> {
  const byMaterial = new Map<string, VerificationRecord[]>();
  for (const record of records) {
    const material = record.triplet.material.trim();
    const group = byMaterial.get(material);
    if (group) group.push(record);
    else byMaterial.set(material, [record]);
  }
  return [...byMaterial].map(([material, grouped]) => ({ material, records: grouped }));
}

/** Who voted for a triplet: ["moa", "gd"] → "moa + gd", ["proposers"] → "proposers", [] → "none". */
export function votesText(votes: readonly string[]): string {
  return votes.length === 0 ? 'none' : votes.join(' + ');
}

/**
 * The run record's cost line: "Calls: 14 · tokens: 5230 prompt / 812 completion · 12.3 s", with
 * " · N model loads" before the time when the engine counted loads (WebLLM)
 * (tokens as the engine counted them; seconds = milliseconds / 1000 to one decimal).
 */
export function usageText(run: Pick<RunRecord, 'calls' | 'promptTokens' | 'completionTokens' | 'milliseconds' | 'modelLoads'>): string {
  const loads = run.modelLoads === undefined ? '' : ` · ${run.modelLoads} model load${run.modelLoads === 1 ? '' : 's'}`;
  return `Calls: ${run.calls} · tokens: ${run.promptTokens} prompt / ${run.completionTokens} completion${loads} · ${(run.milliseconds / 1000).toFixed(1)} s`;
}

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

/**
 * A property's abstention as a sentence, or null when it did not abstain:
 * "Band gap: not provided in this paper. No passage could state a value of it (3 passages
 * mention it); no model call." or "Band gap: not provided in this paper. 5 model calls read
 * 42 of 42 relevant passages and found no value." Numbers from the run record only; the label
 * is the property's own (plain text: React renders it as text).
 */
export function notProvidedText(property: PropertyRun, label: PropertyLabel = spellPropertyName): string | null {
  const abstained = property.notProvided;
  if (!abstained) return null;
  const name = label(property.property);
  const head = `${name.charAt(0).toUpperCase()}${name.slice(1)}: not provided in this paper.`;
  if (abstained.reason === 'nothing-relevant')
    return abstained.chunksRanked === 0
      ? `${head} No passage mentions it; no model call.`
      : `${head} No passage could state a value of it (${plural(abstained.chunksRanked, 'passage')} mention it); no model call.`;
  return `${head} ${plural(abstained.calls, 'model call')} read ${abstained.chunksRead} of ${plural(abstained.chunksRanked, 'relevant passage')} and found no value.`;
}

/**
 * A property that failed model calls left undecided, as a sentence, or null when it was decided:
 * "Band gap — Not decided: <the run record's message> (6 model calls)." The message and the
 * count come from the run record (`PropertyRun.notDecided`); plain text, which React renders as
 * text, never as markup.
 */
export function notDecidedText(property: PropertyRun, label: PropertyLabel = spellPropertyName): string | null {
  const undecided = property.notDecided;
  if (!undecided) return null;
  const name = label(property.property);
  return `${name.charAt(0).toUpperCase()}${name.slice(1)} — Not decided: ${undecided.message} (${plural(undecided.calls, 'model call')}).`;
}
