/**
 * When failed model calls, not the paper, left a property without a decision (issue 13): the
 * pipeline's rule for "not decided" and its words. A property with no triplet is "not provided in
 * this paper" only when the calls that had to decide it answered — cross-verification compares
 * two answers, and an empty answer is an answer; a path whose every call failed gave none.
 */
import type { NotDecided } from '../contracts/run-record';
import type { ReplyFailure } from '../llm/generate-object';
import type { MoaResult } from './moa';
import type { LlmErrorCode } from '../contracts/llm';

/** A part of the pipeline that gave no answer: what it was, in words, and its calls' failures. */
export interface FailedPart {
  /** e.g. "the MoA path gave no usable answer (all 3 proposers of its last layer and the aggregator failed)". */
  what: string;
  failures: readonly ReplyFailure[];
}

/**
 * The MoA run's failures when it gave no usable answer — every proposer of its last layer stayed
 * unusable, so the aggregator had no candidate to merge and its answer (an empty one, or its own
 * failure, which is listed too) says nothing about the paper — else null. Partial failures (one
 * of three proposers) return null: the run answered, and they stay in the property's problems.
 */
export function moaFailure(result: MoaResult): FailedPart | null {
  const last = result.layers.at(-1) ?? [];
  if (last.length === 0 || last.some((answer) => answer.error === undefined)) return null;
  const failures: ReplyFailure[] = last.map((answer) => ({ code: answer.errorCode ?? 'malformed-output', message: answer.error ?? '' }));
  const aggregator = result.aggregatorError ? ' and the aggregator' : '';
  const proposers = last.length === 1 ? 'the one proposer' : `all ${last.length} proposers`;
  return {
    what: `the MoA path gave no usable answer (${proposers} of its last layer${aggregator} failed)`,
    failures: result.aggregatorError ? [...failures, result.aggregatorError] : failures,
  };
}

/** The most frequent code of `failures` (ties: the first seen); `malformed-output` for none. */
function mostFrequentCode(failures: readonly ReplyFailure[]): LlmErrorCode {
  const counts = new Map<LlmErrorCode, number>();
  for (const failure of failures) counts.set(failure.code, (counts.get(failure.code) ?? 0) + 1);
  let best: LlmErrorCode = 'malformed-output';
  let bestCount = 0;
  for (const [code, count] of counts) {
    if (count > bestCount) [best, bestCount] = [code, count];
  }
  return best;
}

/**
 * `NotDecided` for a property whose `parts` gave no answer after `calls` model calls: the code is
 * the most frequent among all their failures; the message names each part, the failures by code
 * when they differ, and the first failure of that code in full, e.g. "the MoA path gave no usable
 * answer (all 3 proposers of its last layer and the aggregator failed) — the proposer model's
 * reply ran past its 1024-token limit before the JSON closed, on the first try and on its one
 * retry; a larger max_tokens, fewer facts per call or another model may help".
 * `parts` must not be empty (RangeError).
 */
export function notDecided(parts: readonly FailedPart[], calls: number): NotDecided {
  if (parts.length === 0) throw new RangeError('notDecided needs at least one failed part');
  const failures = parts.flatMap((part) => part.failures);
  const code = mostFrequentCode(failures);
  const example = failures.find((failure) => failure.code === code);
  const codes = new Set(failures.map((failure) => failure.code));
  const byCode =
    codes.size > 1
      ? ` (failed calls: ${[...codes].map((each) => `${failures.filter((failure) => failure.code === each).length} ${each}`).join(', ')})`
      : '';
  const what = parts.map((part) => part.what).join(', and ');
  return { code, message: `${what}${byCode}${example ? ` — ${example.message}` : ''}`, calls };
}
