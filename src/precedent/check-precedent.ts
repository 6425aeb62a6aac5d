/**
 * `checkPrecedent`: answer "has material X been reported with property Y?", cheapest and most
 * certain first: (1) the reader's own dataset (saved, reviewed triplets, each with its paper and
 * evidence quote), (2) reference tables (grounded by construction: each value's quote is its
 * table row), (3) retrieved texts — given ones and abstracts found in the open literature —
 * through the judge, when a model is given. When nothing answers, the answer is Unknown with
 * what was searched — never a guess, and never a "No" because a search failed.
 */
import type { DatasetTriplet } from '../contracts/dataset';
import type { LlmPort } from '../llm/llm-port';
import { answerFromDataset, DATASET_ORIGIN } from './answer-from-dataset';
import { answerFromReferenceTable } from './answer-from-reference-table';
import type { DroppedClaim, JudgedPhase, JudgedReference } from './judge/ground-judge-reply';
import { isSuperconductivityProperty } from './judge/judge-prompts';
import type { JudgeRelated, RetrievedText } from './judge/judge-schema';
import { runJudge } from './judge/run-judge';
import {
  everyProviderOffline,
  literatureQueryFor,
  providerLabel,
  providerNote,
  recordToRetrievedText,
} from './literature/literature-texts';
import { searchLiterature, type ProviderSearch } from './literature/search-literature';
import type { LiteratureClient } from './literature/types';
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

/** The open literature: which providers to ask and how many records each should return (default 10). */
export interface LiteratureSources {
  clients: LiteratureClient[];
  rows?: number;
}

export interface PrecedentSources {
  /** The reader's saved triplets (source 1); see `answerFromDataset` for which rows count. */
  dataset?: readonly DatasetTriplet[];
  referenceTables?: ReadonlyArray<ReferenceTable | NamedReferenceTable>;
  texts?: readonly RetrievedText[];
  /** Searched (source 3) only when the dataset and tables did not answer and a model is given. */
  literature?: LiteratureSources;
}

/**
 * One value of the answer. From a table: `reference.code` is the row's refno and `quote` the row;
 * from the reader's dataset: `reference` is the row's paper (DOI when known, title, year) and
 * `quote` the row's evidence quote; from a text: `reference` names the text (sourceId, DOI,
 * title, year) and `quote` is the passage of the text that states it. Tc/Tcn are in kelvin.
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
  /** Distinct references of the values: `<table>: <refno>` for table rows, the DOI (else paper key) for dataset rows, the DOI (else id) for texts. */
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

function fromTables(
  question: PrecedentQuestion,
  tables: readonly NamedReferenceTable[],
  searched: SearchedSource[],
): { values: CheckedValue[]; sources: string[] } {
  const values: CheckedValue[] = [];
  const sources: string[] = [];
  for (const { name, table } of tables) {
    if (!isSuperconductivityProperty(question.property)) {
      searched.push({ source: name, found: 0, note: `not consulted: a Tc/Tcn table cannot answer "${question.property}"` });
      continue;
    }
    const answer = answerFromReferenceTable(question.material, table, { source: name });
    for (const value of answer.values)
      values.push({
        kind: value.kind,
        value: value.value,
        unit: value.unit,
        reference: { ...value.reference },
        quote: value.quote,
        origin: name,
      });
    sources.push(...answer.sources);
    searched.push({
      source: name,
      found: answer.values.length,
      note:
        answer.answer === 'Unknown'
          ? `no row for ${question.material} among ${table.rows.length} rows`
          : `${answer.answer}: ${answer.values.length} row(s)`,
    });
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

/** Literature abstracts for the judge, with one `searched` entry per provider (values filled in later). */
async function fromLiterature(
  question: PrecedentQuestion,
  literature: LiteratureSources,
  signal: AbortSignal | undefined,
): Promise<{
  texts: RetrievedText[];
  providers: ProviderSearch[];
  entries: Array<{ provider: ProviderSearch; ids: Set<string>; entry: SearchedSource }>;
}> {
  const query = literatureQueryFor(question.material, question.property, literature.rows);
  const { records, searched } = await searchLiterature(query, literature.clients, signal ? { signal } : {});
  const texts: RetrievedText[] = [];
  const entries = searched.map((provider) => ({
    provider,
    ids: new Set<string>(),
    entry: { source: providerLabel(provider.source), found: 0, note: '' },
  }));
  for (const record of records) {
    const text = recordToRetrievedText(record);
    if (!text) continue;
    texts.push(text);
    entries.find((item) => item.provider.source === record.source)?.ids.add(text.id);
  }
  for (const item of entries) item.entry.note = providerNote(item.provider, item.ids.size);
  return { texts, providers: searched, entries };
}

/**
 * Check a precedent question.
 * 1. `dataset` (`answerFromDataset`) and every reference table (`answerFromReferenceTable`,
 *    strict material equality); their values are merged. If any answers, the texts are not
 *    judged and the literature is not searched (both noted in `searched`).
 * 2. Otherwise, when `deps.llm` is given: `literature` is searched (`searchLiterature`, one
 *    `searched` entry per provider: "12 found (5 with an abstract)" or "unreachable — …"); its
 *    abstracts and the given `texts` go to one `runJudge` call; its grounded values answer, its
 *    dropped claims, related materials and phases are passed on. Without a model, neither is
 *    judged ("literature not judged: no model engine").
 * 3. Otherwise Unknown. `unknownBecause` is "No network: only local sources were searched." when
 *    every literature provider failed with a network error (and nothing else answered), else a
 *    summary of `searched`.
 * `answer` is always derived from `values` (any Tc → Yes; only Tcn → No). Rejects only when the
 * signal aborts the literature search or the judge call.
 */
export async function checkPrecedent(
  question: PrecedentQuestion,
  sources: PrecedentSources,
  deps: PrecedentDependencies = {},
): Promise<PrecedentCheck> {
  const searched: SearchedSource[] = [];
  const local: CheckedValue[] = [];
  const localSources: string[] = [];
  if (sources.dataset) {
    const fromDataset = answerFromDataset(question.material, question.property, sources.dataset);
    local.push(...fromDataset.values);
    localSources.push(...fromDataset.sources);
    searched.push({ source: DATASET_ORIGIN, found: fromDataset.values.length, note: fromDataset.note });
  }
  const tables = (sources.referenceTables ?? []).map(named);
  const fromTable = fromTables(question, tables, searched);
  local.push(...fromTable.values);
  localSources.push(...fromTable.sources);
  const texts = sources.texts ?? [];
  const literature = sources.literature;
  const empty = { dropped: [], related: [], phases: [] };
  if (local.length > 0) {
    const by = sources.dataset && local.some((value) => value.origin === DATASET_ORIGIN) ? 'your dataset' : 'a reference table';
    if (texts.length > 0)
      searched.push({ source: 'retrieved texts', found: 0, note: `not judged: answered from ${by} (${texts.length} text(s) given)` });
    if (literature) searched.push({ source: 'literature', found: 0, note: `not searched: answered from ${by}` });
    const values = headlineOrder(local);
    return { answer: answerOf(values), values, sources: [...new Set(localSources)], searched, ...empty };
  }
  if (!deps.llm) {
    searched.push({
      source: 'retrieved texts',
      found: 0,
      note: texts.length === 0 ? 'none given' : `not judged: no model engine given (${texts.length} text(s))`,
    });
    if (literature) searched.push({ source: 'literature', found: 0, note: 'literature not judged: no model engine' });
    return { answer: 'Unknown', values: [], sources: [], searched, unknownBecause: unknownSummary(searched), ...empty };
  }
  const found = literature ? await fromLiterature(question, literature, deps.signal) : undefined;
  const givenIds = new Set(texts.map((text) => text.id));
  const all = [...texts, ...(found?.texts ?? []).filter((text) => !givenIds.has(text.id))];
  const textsEntry: SearchedSource = { source: 'retrieved texts', found: 0, note: 'none given' };
  if (texts.length > 0 || !literature) searched.push(textsEntry);
  searched.push(...(found?.entries.map((item) => item.entry) ?? []));
  if (all.length === 0) {
    const offline = found !== undefined && everyProviderOffline(found.providers);
    return {
      answer: 'Unknown',
      values: [],
      sources: [],
      searched,
      unknownBecause: offline ? 'No network: only local sources were searched.' : unknownSummary(searched),
      ...empty,
    };
  }
  const judged = await runJudge(question.material, question.property, all, {
    llm: deps.llm,
    ...(deps.signal ? { signal: deps.signal } : {}),
    ...(deps.model ? { model: deps.model } : {}),
  });
  const values: CheckedValue[] = judged.values.map(({ anchor: _anchor, reference, ...value }) => ({
    ...value,
    reference,
    origin: reference.origin,
  }));
  const droppedNote = judged.dropped.length > 0 ? `; ${judged.dropped.length} claim(s) dropped` : '';
  const outcome = `${judged.unknownBecause ?? `${judged.answer}: ${values.length} grounded value(s)`}${droppedNote}`;
  const fromIds = (ids: ReadonlySet<string>) =>
    values.filter((value) => value.reference.sourceId !== undefined && ids.has(value.reference.sourceId)).length;
  if (texts.length > 0) {
    textsEntry.found = fromIds(givenIds);
    const withLiterature = all.length > texts.length ? ` with ${all.length - texts.length} literature abstract(s)` : '';
    textsEntry.note = `judged ${texts.length} text(s)${withLiterature}: ${outcome}`;
  }
  for (const item of found?.entries ?? []) {
    item.entry.found = fromIds(new Set([...item.ids].filter((id) => !givenIds.has(id))));
    if (texts.length === 0 && item.ids.size > 0) item.entry.note += `; judged: ${outcome}`;
  }
  const rest = { dropped: judged.dropped, related: judged.related, phases: judged.phases };
  if (values.length > 0) return { answer: answerOf(values), values: headlineOrder(values), sources: judged.sources, searched, ...rest };
  return { answer: 'Unknown', values: [], sources: [], searched, unknownBecause: unknownSummary(searched), ...rest };
}

function unknownSummary(searched: readonly SearchedSource[]): string {
  if (searched.length === 0) return 'no source was given';
  return `nothing answered; searched: ${searched.map((entry) => `${entry.source} (${entry.note})`).join('; ')}`;
}
