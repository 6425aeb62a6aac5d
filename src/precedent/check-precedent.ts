/**
 * `checkPrecedent`: answer "has material X been reported with property Y?" from local sources,
 * cheapest and most certain first: (1) reference tables (grounded by construction: each value's
 * quote is its table row), (2) retrieved texts through the judge, when a model is given. When
 * nothing answers, the answer is Unknown with what was searched — never a guess.
 */
import type { LlmPort } from '../llm/llm-port';
import { answerFromReferenceTable } from './answer-from-reference-table';
import type { DroppedClaim, JudgedPhase, JudgedReference } from './judge/ground-judge-reply';
import { isSuperconductivityProperty } from './judge/judge-prompts';
import type { JudgeRelated, RetrievedText } from './judge/judge-schema';
import { runJudge } from './judge/run-judge';
import type { ReferenceTable } from './reference-table';

/** A reference table with the name its answers cite (default name `reference table`). */
export interface NamedReferenceTable {
  name: string;
  table: ReferenceTable;
}

export interface PrecedentQuestion {
  material: string;
  /** `tc` (default meaning: superconductivity, Tc / Tcn) or another property name. */
  property: string;
}

export interface PrecedentSources {
  referenceTables?: ReadonlyArray<ReferenceTable | NamedReferenceTable>;
  texts?: readonly RetrievedText[];
}

/**
 * One value of the answer. From a table: `reference.code` is the row's refno and `quote` the row;
 * from a text: `reference` names the text (sourceId, DOI, title, year) and `quote` is the
 * passage of the text that states it. Tc/Tcn are in kelvin.
 */
export interface CheckedValue {
  kind: 'Tc' | 'Tcn' | 'value';
  value: number;
  unit: string;
  conditions?: string;
  reference: { code?: string } & Partial<JudgedReference>;
  quote: string;
  /** The table's name or the text's origin. */
  origin: string;
}

/** What one source gave: `found` is the number of values it contributed (0 when not consulted). */
export interface SearchedSource {
  source: string;
  found: number;
  note: string;
}

export interface PrecedentCheck {
  answer: 'Yes' | 'No' | 'Unknown';
  values: CheckedValue[];
  /** Distinct references of the values: `<table>: <refno>` for table rows, the DOI (else id) for texts. */
  sources: string[];
  searched: SearchedSource[];
  unknownBecause?: string;
  /** The judge's claims left out and why (empty when the judge did not run). */
  dropped: DroppedClaim[];
  related: JudgeRelated[];
  phases: JudgedPhase[];
}

export interface PrecedentDependencies {
  llm?: LlmPort;
  signal?: AbortSignal;
  /** Model id for the judge; default the engine's `judge` role. */
  model?: string;
}

function named(table: ReferenceTable | NamedReferenceTable): NamedReferenceTable {
  return 'table' in table ? table : { name: 'reference table', table };
}

function fromTables(question: PrecedentQuestion, tables: readonly NamedReferenceTable[], searched: SearchedSource[]): { values: CheckedValue[]; sources: string[] } {
  const values: CheckedValue[] = [];
  const sources: string[] = [];
  for (const { name, table } of tables) {
    if (!isSuperconductivityProperty(question.property)) {
      searched.push({ source: name, found: 0, note: `not consulted: a Tc/Tcn table cannot answer "${question.property}"` });
      continue;
    }
    const answer = answerFromReferenceTable(question.material, table, { source: name });
    for (const value of answer.values) values.push({ kind: value.kind, value: value.value, unit: value.unit, reference: { ...value.reference }, quote: value.quote, origin: name });
    sources.push(...answer.sources);
    searched.push({ source: name, found: answer.values.length, note: answer.answer === 'Unknown' ? `no row for ${question.material} among ${table.rows.length} rows` : `${answer.answer}: ${answer.values.length} row(s)` });
  }
  return { values, sources: [...new Set(sources)] };
}

/** Any Tc (or other value) → Yes; only Tcn → No; none → Unknown. */
function answerOf(values: readonly CheckedValue[]): PrecedentCheck['answer'] {
  return values.some((value) => value.kind !== 'Tcn') ? 'Yes' : values.length > 0 ? 'No' : 'Unknown';
}

/** Tc highest first, then Tcn lowest first, then other values. */
function headlineOrder(values: CheckedValue[]): CheckedValue[] {
  const tc = values.filter((value) => value.kind === 'Tc').sort((a, b) => b.value - a.value);
  const tcn = values.filter((value) => value.kind === 'Tcn').sort((a, b) => a.value - b.value);
  return [...tc, ...tcn, ...values.filter((value) => value.kind === 'value')];
}

/**
 * Check a precedent question against local sources.
 * 1. Every reference table (`answerFromReferenceTable`, strict material equality); their values
 *    are merged. If any table answers, the texts are not judged (noted in `searched`).
 * 2. Otherwise, when `texts` and `deps.llm` are given, `runJudge` on the texts; its grounded
 *    values answer, its dropped claims, related materials and phases are passed on.
 * 3. Otherwise Unknown, `unknownBecause` summarising `searched`.
 * `answer` is always derived from `values` (any Tc → Yes; only Tcn → No). Rejects only when the
 * signal aborts the judge call.
 */
export async function checkPrecedent(question: PrecedentQuestion, sources: PrecedentSources, deps: PrecedentDependencies = {}): Promise<PrecedentCheck> {
  const searched: SearchedSource[] = [];
  const tables = (sources.referenceTables ?? []).map(named);
  const fromTable = fromTables(question, tables, searched);
  const texts = sources.texts ?? [];
  const empty = { dropped: [], related: [], phases: [] };
  if (fromTable.values.length > 0) {
    if (texts.length > 0) searched.push({ source: 'retrieved texts', found: 0, note: `not judged: answered from a reference table (${texts.length} text(s) given)` });
    const values = headlineOrder(fromTable.values);
    return { answer: answerOf(values), values, sources: fromTable.sources, searched, ...empty };
  }
  if (texts.length === 0) {
    searched.push({ source: 'retrieved texts', found: 0, note: 'none given' });
  } else if (!deps.llm) {
    searched.push({ source: 'retrieved texts', found: 0, note: `not judged: no model engine given (${texts.length} text(s))` });
  } else {
    const judged = await runJudge(question.material, question.property, texts, { llm: deps.llm, ...(deps.signal ? { signal: deps.signal } : {}), ...(deps.model ? { model: deps.model } : {}) });
    const values: CheckedValue[] = judged.values.map(({ anchor: _anchor, reference, ...value }) => ({ ...value, reference, origin: reference.origin }));
    const droppedNote = judged.dropped.length > 0 ? `; ${judged.dropped.length} claim(s) dropped` : '';
    searched.push({ source: 'retrieved texts', found: values.length, note: `judged ${texts.length} text(s): ${judged.unknownBecause ?? `${judged.answer}: ${values.length} grounded value(s)`}${droppedNote}` });
    const rest = { dropped: judged.dropped, related: judged.related, phases: judged.phases };
    if (values.length > 0) return { answer: answerOf(values), values: headlineOrder(values), sources: judged.sources, searched, ...rest };
    return { answer: 'Unknown', values: [], sources: [], searched, unknownBecause: unknownSummary(searched), ...rest };
  }
  return { answer: 'Unknown', values: [], sources: [], searched, unknownBecause: unknownSummary(searched), ...empty };
}

function unknownSummary(searched: readonly SearchedSource[]): string {
  if (searched.length === 0) return 'no source was given';
  return `nothing answered; searched: ${searched.map((entry) => `${entry.source} (${entry.note})`).join('; ')}`;
}
