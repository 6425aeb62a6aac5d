/**
 * Grounding of the judge's reply, Assay's core rule: a value reaches an answer only when the
 * text it cites was retrieved, its quote is found in that text (exact, whitespace-folded or
 * fuzzy within the anchoring thresholds of `anchorEvidence`), and the passage found states the
 * value's number.
 */
import { anchorEvidence, type Anchor } from '../../text/anchoring/index';
import { findNumberTokens } from '../../text/quantities/number-tokens';
import { toSI } from '../../text/units/index';
import type { JudgePhase, JudgeValue, RetrievedText } from './judge-schema';

/** Where a kept value was read: the retrieved text's id, DOI, title and year. */
export interface JudgedReference {
  sourceId: string;
  doi?: string;
  title: string;
  year: number | null;
  origin: string;
}

/**
 * A grounded value. `Tc`/`Tcn` are in kelvin (`unit` 'K', converted from the printed unit);
 * `value` keeps its printed unit. `quote` is the passage of the source text the model's quote
 * anchored to (the source's words, not the model's); `anchor` its offsets in that text.
 */
export interface JudgedValue {
  kind: 'Tc' | 'Tcn' | 'value';
  value: number;
  unit: string;
  conditions?: string;
  reference: JudgedReference;
  quote: string;
  anchor: Pick<Anchor, 'start' | 'end' | 'method'>;
}

/** A grounded phase (its quote found in the cited text), or one given without a quote (`grounded: false`). */
export interface JudgedPhase {
  phase: string;
  note: string;
  grounded: boolean;
  reference?: JudgedReference;
  quote?: string;
}

/** Something of the reply that was left out, and why. */
export interface DroppedClaim {
  reason: string;
  claim: JudgeValue | JudgePhase;
}

export type Grounded<T> = { ok: true; value: T } | { ok: false; dropped: DroppedClaim };

function referenceOf(text: RetrievedText): JudgedReference {
  return { sourceId: text.id, ...(text.doi ? { doi: text.doi } : {}), title: text.title, year: text.year, origin: text.origin };
}

function findQuote(text: string, quote: string): Anchor | null {
  return anchorEvidence(text, { quote: { type: 'TextQuoteSelector', exact: quote, prefix: '', suffix: '' } });
}

/** Same number to 1e-9 relative (printed decimals are compared as numbers: "39.0" states 39). */
function sameNumber(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
}

/** The numbers written in a passage (not those inside formulas or reference brackets; `findNumberTokens`). */
function statesNumber(passage: string, value: number): boolean {
  return findNumberTokens(passage).some((token) => sameNumber(token.number.value, value));
}

/**
 * `unit` → kelvin. The shared unit table has no millikelvin (`toSI(50, 'mK')` is null), yet
 * Tcn of dilution-refrigerator runs are printed in mK, so mK is converted here (1 mK = 1e-3 K).
 */
function toKelvin(value: number, unit: string): number | null {
  if (/^(mK|millikelvins?)$/.test(unit)) return value / 1000;
  const converted = toSI(value, unit === '' ? 'K' : unit);
  return converted && converted.unit === 'K' ? converted.value : null;
}

const drop = <T>(reason: string, claim: JudgeValue | JudgePhase): Grounded<T> => ({ ok: false, dropped: { reason, claim } });

/**
 * Ground one claimed value against the retrieved texts (by id). Checks, first failure wins:
 * the kind answers the question (`Tc`/`Tcn` for superconductivity, `value` otherwise); the cited
 * `sourceId` was retrieved ("cited a source that was not retrieved: <id>"); the quote anchors in
 * that text ("quote not found in <id>"); the anchored passage states the number ("quote does not
 * state <value>"); a `Tc`/`Tcn` unit converts to kelvin. Never throws.
 */
export function groundValue(
  claim: JudgeValue,
  texts: ReadonlyMap<string, RetrievedText>,
  superconductivity: boolean,
): Grounded<JudgedValue> {
  if ((claim.kind === 'value') === superconductivity) {
    return drop(`kind ${claim.kind} does not answer this question`, claim);
  }
  const source = texts.get(claim.sourceId);
  if (!source) return drop(`cited a source that was not retrieved: ${claim.sourceId}`, claim);
  const anchor = findQuote(source.text, claim.quote);
  if (!anchor) return drop(`quote not found in ${claim.sourceId}`, claim);
  const passage = source.text.slice(anchor.start, anchor.end);
  if (!statesNumber(passage, claim.value)) return drop(`quote does not state ${claim.value}`, claim);
  let value = claim.value;
  let unit = claim.unit.trim();
  if (claim.kind !== 'value') {
    const kelvin = toKelvin(claim.value, unit);
    if (kelvin === null) return drop(`unit "${claim.unit}" is not a temperature`, claim);
    value = kelvin;
    unit = 'K';
  }
  const conditions = claim.conditions?.trim();
  return {
    ok: true,
    value: {
      kind: claim.kind,
      value,
      unit,
      ...(conditions ? { conditions } : {}),
      reference: referenceOf(source),
      quote: passage,
      anchor: { start: anchor.start, end: anchor.end, method: anchor.method },
    },
  };
}

/**
 * Ground one phase: with a `sourceId` or `quote`, both must check out as for values (no number
 * check); with neither it is kept as an unverified mention (`grounded: false`).
 */
export function groundPhase(claim: JudgePhase, texts: ReadonlyMap<string, RetrievedText>): Grounded<JudgedPhase> {
  if (!claim.sourceId && !claim.quote) return { ok: true, value: { phase: claim.phase, note: claim.note, grounded: false } };
  const source = claim.sourceId ? texts.get(claim.sourceId) : undefined;
  if (!source) return drop(`cited a source that was not retrieved: ${claim.sourceId ?? '(none)'}`, claim);
  if (!claim.quote) return drop(`phase cites ${claim.sourceId} without a quote`, claim);
  const anchor = findQuote(source.text, claim.quote);
  if (!anchor) return drop(`quote not found in ${claim.sourceId}`, claim);
  return {
    ok: true,
    value: {
      phase: claim.phase,
      note: claim.note,
      grounded: true,
      reference: referenceOf(source),
      quote: source.text.slice(anchor.start, anchor.end),
    },
  };
}
