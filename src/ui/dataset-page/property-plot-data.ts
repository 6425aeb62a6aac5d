/**
 * The numbers behind the dataset page's per-property plot: each triplet as one point (material,
 * method, value in one unit), the series by method, the materials shown, the axis scale and the caption that is the plot's text
 * alternative. Pure, so the statistics a screen reader hears are unit-tested.
 */
import type { DatasetTriplet } from '../../contracts/dataset';
import type { ReportedValue } from '../../contracts/triplet';
import { toDisplayValue } from '../../properties/display-unit';
import { shortNumber } from './dataset-view-model';
import { methodText } from '../shared/fact-conditions';

/** One plotted triplet. */
export interface PlotPoint {
  id: string;
  material: string;
  status: DatasetTriplet['status'];
  /** The triplet's method(s) as the table's Method column shows them ("HSE06"), '' when it states none. */
  method: string;
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
    if (Number.isFinite(value))
      points.push({ id: row.id, material: row.material, status: row.status, method: methodText(row.conditions), value });
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

/** The label of the series of triplets that state no method. */
export const NO_METHOD_LABEL = 'no method';
/** The label of the series that gathers the methods past `MAX_METHOD_SERIES`. */
export const OTHER_METHODS_LABEL = 'other methods';
/** Methods with a series (and a legend entry) of their own; a legend of more cannot be told apart by colour and shape. */
export const MAX_METHOD_SERIES = 8;

/** One series of the plot: the points of one method (or none, or the rest). */
export interface MethodSeries {
  /** The method ("HSE06"), `NO_METHOD_LABEL` or `OTHER_METHODS_LABEL`. */
  label: string;
  /** What kind of series: a method, the points without one, or the methods past the cap. */
  kind: 'method' | 'none' | 'other';
  points: PlotPoint[];
}

/**
 * The points grouped by method, one series each: methods with most points first (ties by name),
 * at most `limit` of them, then "other methods" for the rest, then "no method" — always last and
 * always its own series, so values without a method are never mixed with a method's.
 */
export function methodSeries(points: readonly PlotPoint[], limit = MAX_METHOD_SERIES): MethodSeries[] {
  const byMethod = new Map<string, PlotPoint[]>();
  const none: PlotPoint[] = [];
  for (const point of points) {
    if (point.method === '') none.push(point);
    else byMethod.set(point.method, [...(byMethod.get(point.method) ?? []), point]);
  }
  const ordered = [...byMethod].sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]));
  const series: MethodSeries[] = ordered.slice(0, limit).map(([label, grouped]) => ({ label, kind: 'method', points: grouped }));
  const rest = ordered.slice(limit).flatMap(([, grouped]) => grouped);
  if (rest.length > 0) series.push({ label: OTHER_METHODS_LABEL, kind: 'other', points: rest });
  if (none.length > 0) series.push({ label: NO_METHOD_LABEL, kind: 'none', points: none });
  return series;
}

/** The plot's colours: text, tick labels, grid lines, one per status, and the palette of method series. */
export interface PlotColours {
  text: string;
  muted: string;
  grid: string;
  status: Record<'verified' | 'needs_review' | 'rejected', string>;
  /** Colours for method series, in order (cycled past its end; `seriesStyle` varies the shape too). */
  series: string[];
}

/** Point shapes for method series, in order: with the colour cycled, the shape still tells series apart (and not by colour alone). */
const SERIES_SHAPES = ['circle', 'triangle', 'rect', 'rectRot', 'star', 'crossRot', 'rectRounded', 'cross'] as const;

/**
 * Colour and point shape of series `index` of kind `kind`: method series take the palette and the
 * shapes in turn; "no method" is the muted colour as a hollow circle, "other methods" the text colour as a dash.
 */
export function seriesStyle(
  kind: MethodSeries['kind'],
  index: number,
  colours: PlotColours,
): { colour: string; shape: (typeof SERIES_SHAPES)[number] | 'line'; filled: boolean } {
  if (kind === 'none') return { colour: colours.muted, shape: 'circle', filled: false };
  if (kind === 'other') return { colour: colours.text, shape: 'line', filled: true };
  return { colour: colours.series[index % colours.series.length]!, shape: SERIES_SHAPES[index % SERIES_SHAPES.length]!, filled: true };
}

/**
 * The plot's colours from the page's theme tokens (`--assay-*`, src/ui/shared/styles.css), read
 * with `token` (e.g. from `getComputedStyle(canvas)`), so the canvas follows the light or dark
 * theme as the rest of the page does; the status colours are the tokens the side panel's chips
 * use, AA on the page's background; the method series take the accent, status and text tokens
 * in turn. A token that reads empty (no stylesheet) falls back to the light theme's value.
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
    // The theme's own distinct hues, each AA on the page's background in both themes.
    series: [
      read('--assay-accent', '#1f5fbf'),
      read('--assay-verified', '#17683a'),
      read('--assay-rejected', '#a32020'),
      read('--assay-review', '#8a5300'),
      read('--assay-fg', '#1b1f24'),
    ],
  };
}

/** One point as the chart draws it: value on x, the material's row on y, and what its tooltip says. */
export interface ChartPoint {
  x: number;
  y: number;
  material: string;
  method: string;
  status: DatasetTriplet['status'];
}

/** One Chart.js scatter dataset (the subset of its options the plot sets). */
export interface MethodDataset {
  label: string;
  backgroundColor: string;
  borderColor: string;
  pointStyle: string;
  pointRadius: number;
  borderWidth: number;
  data: ChartPoint[];
}

/**
 * The chart's datasets: one per `methodSeries` entry, in its order (so the legend lists methods by
 * count, "no method" last), styled by `seriesStyle`; each point on its material's row of `materials`
 * (points of other materials are left out, as `stripMaterials` drops them).
 */
export function methodDatasets(points: readonly PlotPoint[], materials: readonly string[], colours: PlotColours): MethodDataset[] {
  const row = new Map(materials.map((material, index) => [material, index]));
  let methodIndex = 0;
  return methodSeries(points.filter((point) => row.has(point.material))).map((series) => {
    const style = seriesStyle(series.kind, series.kind === 'method' ? methodIndex++ : 0, colours);
    return {
      label: series.label,
      backgroundColor: style.filled ? style.colour : 'transparent',
      borderColor: style.colour,
      pointStyle: style.shape,
      pointRadius: 4,
      borderWidth: style.filled ? 1 : 2,
      data: series.points.map((point) => ({
        x: point.value,
        y: row.get(point.material)!,
        material: point.material,
        method: point.method,
        status: point.status,
      })),
    };
  });
}

/**
 * The series in words, for the plot's caption (its text alternative): "By method: HSE06 3,
 * GGA-PBE 2, no method 1." — '' when no point states a method (the one series says nothing).
 */
export function methodsSentence(points: readonly PlotPoint[]): string {
  const series = methodSeries(points);
  if (series.every((entry) => entry.kind === 'none')) return '';
  return `By method: ${series.map((entry) => `${entry.label} ${entry.points.length}`).join(', ')}.`;
}
