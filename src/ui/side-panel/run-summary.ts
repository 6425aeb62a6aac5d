/**
 * The run controls in one line and the property picker's filter, as pure rules: the sentence
 * "Band gap, Tc · browser preset · WebLLM" that stands for the form while its details are
 * folded, and which properties a typed query finds. No React, so both are unit-tested.
 */

/** A property the picker offers: schema name, label, and the names papers use for it (`synonyms`). */
export interface PickableProperty {
  name: string;
  label: string;
  synonyms?: readonly string[];
  /** Its symbols as papers print them ("Tc", "Eg"); searched like synonyms, and the summary's short name for a long label. */
  symbols?: readonly string[];
}

/** Labels longer than this are named by their first symbol in the summary ("Superconducting transition temperature" → "Tc"). */
export const LONG_LABEL = 24;

/** The property's name in the summary line: its label, or its first symbol when the label is longer than `LONG_LABEL`. */
export function summaryName(property: PickableProperty): string {
  const symbol = property.symbols?.[0];
  return property.label.length > LONG_LABEL && symbol ? symbol : property.label;
}

/** How many property labels the summary names before "and N more" (a side panel line is ~45 characters). */
export const SUMMARY_LABELS = 3;

/**
 * The engine's name for the summary: the part in brackets of its form label ("In this browser
 * (WebLLM)" → "WebLLM"), else the whole label ("OpenAI-compatible server").
 */
export function engineShortName(label: string): string {
  const bracketed = /\(([^()]+)\)\s*$/.exec(label);
  return bracketed ? bracketed[1]!.trim() : label;
}

/**
 * "Band gap, Tc · browser preset · WebLLM": the chosen properties' labels (the first
 * `SUMMARY_LABELS`, then "and N more"; "No property chosen" when empty), the preset and the
 * engine's short name (`engineShortName`).
 */
export function runSummaryText(labels: readonly string[], preset: 'browser' | 'paper', engineLabel: string): string {
  const named =
    labels.length === 0
      ? 'No property chosen'
      : labels.length <= SUMMARY_LABELS
        ? labels.join(', ')
        : `${labels.slice(0, SUMMARY_LABELS).join(', ')} and ${labels.length - SUMMARY_LABELS} more`;
  return `${named} · ${preset} preset · ${engineShortName(engineLabel)}`;
}

/**
 * The properties a query finds: those whose label, schema name, one of whose synonyms or symbols
 * contains the query (case-insensitive, spaces and underscores alike); all of them for a blank
 * query. Exact hits come first — a symbol as typed, case included ("Tc" before Curie
 * temperature's "TC"), or the whole label or a synonym — then the rest, each in the given order.
 * So "Tc" finds "Superconducting transition temperature" first, through its symbol.
 */
export function filterProperties<P extends PickableProperty>(properties: readonly P[], query: string): P[] {
  const wanted = normalize(query);
  if (wanted === '') return [...properties];
  const typed = query.trim();
  const found = properties.filter((property) =>
    [property.label, property.name, ...(property.synonyms ?? []), ...(property.symbols ?? [])].some((text) =>
      normalize(text).includes(wanted),
    ),
  );
  const exact = (property: P) =>
    (property.symbols ?? []).includes(typed) || [property.label, ...(property.synonyms ?? [])].some((text) => normalize(text) === wanted);
  return [...found.filter(exact), ...found.filter((property) => !exact(property))];
}

const normalize = (text: string) => text.toLowerCase().replaceAll('_', ' ').replace(/\s+/g, ' ').trim();
