/**
 * The numbers behind the dataset page's per-property plot: each triplet as one point (material,
 * value in one unit), the materials shown, the axis scale and the caption that is the plot's text
 * alternative. Pure, so the statistics a screen reader hears are unit-tested.
 */
import type { DatasetTriplet } from '../../contracts/dataset';
import type { ReportedValue } from '../../contracts/triplet';
import { toDisplayValue } from '../../properties/display-unit';
import { shortNumber } from './dataset-view-model';

/** One plotted triplet. */
export interface PlotPoint {
  id: string;
  material: string;
  status: DatasetTriplet['status'];
  /** In `PlotData.unit`. */
  value: number;
}

export interface PlotData {
  /** The unit every point is in: the display unit ("eV"), else the unit most rows were printed in; "" when no row has a unit. */
  unit: string;
  points: PlotPoint[];
  /** Triplets left out because their unit does not convert to `unit`. */
  skipped: number;
}

/** A range is plotted at its midpoint, (low + high) / 2; a number as itself. */
export function pointValue(value: ReportedValue): number {
  return value.kind === 'range' ? (value.low + value.high) / 2 : value.value;
}

/** The unit most rows were printed in (ties: alphabetical), "" when none has a unit: the plot's unit for a property no schema describes. */
export function mostPrintedUnit(rows: readonly DatasetTriplet[]): string {
  const unitCounts = new Map<string, number>();
  for (const row of rows) {
    const unit = row.unit.trim();
    if (unit !== '') unitCounts.set(unit, (unitCounts.get(unit) ?? 0) + 1);
  }
  return [...unitCounts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0] ?? '';
}

/**
 * Points for one property's triplets, each value converted to `displayUnit` (the schema's
 * display unit: "eV", "K", "GPa"; `toDisplayValue`, same dimension only; a range at its
 * midpoint). Without one (a property no schema describes) the unit most rows were printed in
 * (`mostPrintedUnit`) is used the same way — never the SI base unit, which stays in JSON/JSONL.
 * Triplets that do not convert are counted in `skipped`, never guessed.
 */
export function plotPoints(rows: readonly DatasetTriplet[], displayUnit?: string): PlotData {
  const unit = displayUnit ?? mostPrintedUnit(rows);
  const points: PlotPoint[] = [];
  for (const row of rows) {
    const display = unit === '' ? null : toDisplayValue(row, unit);
    const value = display ? pointValue(display.value) : NaN;
    if (Number.isFinite(value)) points.push({ id: row.id, material: row.material, status: row.status, value });
  }
  return { unit, points, skipped: rows.length - points.length };
}

/** The value axis title: the property's label with the plot's unit, "Band gap (eV)"; the label alone for unitless values. */
export function valueAxisTitle(label: string, unit: string): string {
  return unit === '' ? label : `${label} (${unit})`;
}

export interface ValueSummary {
  count: number;
  min: number;
  median: number;
  max: number;
}

/** Count, min, median (mean of the middle two for an even count) and max; null for no values. */
export function summarizeValues(values: readonly number[]): ValueSummary | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  return { count: sorted.length, min: sorted[0]!, median, max: sorted[sorted.length - 1]! };
}

/**
 * The materials on the category axis: most values first (ties by name), at most `limit` of them,
 * so a plot of thousands of triplets stays readable; the points of the others are dropped from the
 * chart (the caption's statistics still cover every point).
 */
export function stripMaterials(
  points: readonly PlotPoint[],
  limit = 30,
): { materials: string[]; shown: PlotPoint[]; omittedMaterials: number } {
  const counts = new Map<string, number>();
  for (const point of points) counts.set(point.material, (counts.get(point.material) ?? 0) + 1);
  const ordered = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([material]) => material);
  const materials = ordered.slice(0, limit);
  const kept = new Set(materials);
  return { materials, shown: points.filter((point) => kept.has(point.material)), omittedMaterials: ordered.length - materials.length };
}

/**
 * A logarithmic value axis when every value is positive and they span three decades or more
 * (max / min ≥ 1000 — e.g. conductivities), else linear.
 */
export function valueScale(values: readonly number[]): 'linear' | 'logarithmic' {
  if (values.length === 0 || values.some((value) => value <= 0)) return 'linear';
  return Math.max(...values) / Math.min(...values) >= 1000 ? 'logarithmic' : 'linear';
}

/**
 * The plot's text alternative: "Band gap: 5 values from 3 materials, in eV: min 0.5, median 1.1,
 * max 3.4 eV. 1 triplet not plotted (its unit does not convert to eV)." Numbers to four significant figures.
 */
export function plotCaption(label: string, data: PlotData, materialCount: number, omittedMaterials = 0): string {
  const summary = summarizeValues(data.points.map((point) => point.value));
  const unitSuffix = data.unit === '' ? '' : ` ${data.unit}`;
  const sentences: string[] = [];
  if (!summary) {
    sentences.push(`${label}: no values to plot.`);
  } else {
    const values = summary.count === 1 ? '1 value' : `${summary.count} values`;
    const materials = materialCount === 1 ? '1 material' : `${materialCount} materials`;
    sentences.push(
      `${label}: ${values} from ${materials}${data.unit === '' ? '' : `, in ${data.unit}`}: min ${shortNumber(summary.min)}, median ${shortNumber(summary.median)}, max ${shortNumber(summary.max)}${unitSuffix}.`,
    );
  }
  if (omittedMaterials > 0) sentences.push(`The chart shows the materials with most values; ${omittedMaterials} more are left out.`);
  if (data.skipped > 0) {
    sentences.push(
      `${data.skipped === 1 ? '1 triplet' : `${data.skipped} triplets`} not plotted (unit does not convert${data.unit === '' ? '' : ` to ${data.unit}`}).`,
    );
  }
  return sentences.join(' ');
}

/** The plot's colours: text, tick labels, grid lines and one per status. */
export interface PlotColours {
  text: string;
  muted: string;
  grid: string;
  status: Record<'verified' | 'needs_review' | 'rejected', string>;
}

/**
 * The plot's colours from the page's theme tokens (`--assay-*`, src/ui/shared/styles.css), read
 * with `token` (e.g. from `getComputedStyle(canvas)`), so the canvas follows the light or dark
 * theme as the rest of the page does; the status colours are the tokens the side panel's chips
 * use, AA on the page's background. A token that reads empty (no stylesheet) falls back to the
 * light theme's value.
 */
export function plotColours(token: (name: string) => string): PlotColours {
  const read = (name: string, fallback: string) => token(name).trim() || fallback;
  return {
    text: read('--assay-fg', '#1b1f24'),
    muted: read('--assay-muted', '#555d68'),
    grid: read('--assay-border', '#c9cfd6'),
    status: {
      verified: read('--assay-verified', '#17683a'),
      needs_review: read('--assay-review', '#8a5300'),
      rejected: read('--assay-rejected', '#a32020'),
    },
  };
}
