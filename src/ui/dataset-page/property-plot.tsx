/**
 * The per-property plot of the dataset page: a strip plot, one row per material, one dot per
 * triplet at its value in the property's display unit, one series per method with a legend
 * ("no method" its own series; colours from the theme's tokens, `plotColours`, and a shape per
 * series so colour is not the only cue; the tooltip adds the machine status), under the
 * current filters; the value axis is titled with the label and the unit ("Band gap (eV)"). Its caption (count, min, median, max with unit) is the text alternative.
 *
 * Charting library: Chart.js (chart.js 4). It is widely used and maintained, tree-shakes to the
 * scatter controller, two linear/log scales and the tooltip (~70 kB minified), has tooltips and
 * a legend built in, and has no dependencies. uPlot is smaller but is built around time series
 * with a shared x array, which a strip plot of unequal groups fits badly; D3 would mean writing
 * the axes and tooltips by hand. The React wrapper is the ~40 lines of `StripChart` below:
 * create the chart on mount, destroy it on unmount or when the data change.
 */
import {
  Chart,
  Legend,
  LinearScale,
  LogarithmicScale,
  PointElement,
  ScatterController,
  Tooltip,
  type ChartDataset,
  type TooltipItem,
} from 'chart.js';
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useMemo, useRef, useSyncExternalStore } from 'react';
import { displayUnitOf, type DisplayUnitSchema } from '../../properties/display-unit';
import type { AssayDatabase } from '../../store/assay-database';
import { queryTriplets, type TripletQuery } from '../../store/dataset-repository';
import type { TripletIdSearch } from '../../store/search-triplets';
import { shortNumber, statusText } from './dataset-view-model';
import {
  methodDatasets,
  methodsSentence,
  NO_METHOD_LABEL,
  plotCaption,
  plotColours,
  plotPoints,
  stripMaterials,
  valueAxisTitle,
  valueScale,
  type ChartPoint,
  type PlotPoint,
} from './property-plot-data';
import { conditionMatcher, type ConditionFilter } from '../shared/fact-conditions';

/** At most this many triplets are read for one plot (a strip plot of more is a blur anyway). */
const MAX_PLOTTED = 5000;

/** Whether the browser asks for the dark theme, followed live (the chart is drawn again when it changes). */
function usePrefersDark(): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const query = globalThis.matchMedia?.('(prefers-color-scheme: dark)');
      query?.addEventListener('change', onChange);
      return () => query?.removeEventListener('change', onChange);
    },
    () => globalThis.matchMedia?.('(prefers-color-scheme: dark)').matches ?? false,
  );
}

export interface PropertyPlotProps {
  database: AssayDatabase;
  /** The table's query; the plot needs `query.property`. */
  query: TripletQuery;
  /** The property's label, canonical and display unit when a schema describes it. */
  schema?: DisplayUnitSchema & { label: string };
  /** The search index; without it a search scans every row. */
  search?: TripletIdSearch | undefined;
  /** Changes when the index's answers may have: the plot searches again. */
  searchGeneration?: number;
  /** The method and provenance filters, tested in memory on the property's rows. */
  conditions?: ConditionFilter;
}

/** The plot for `query.property`, or a hint to choose a property. */
export function PropertyPlot({ database, query, schema, search, searchGeneration = 0, conditions }: PropertyPlotProps) {
  const matches = conditions && conditionMatcher(conditions);
  const queryKey = JSON.stringify([query, matches ? conditions : null]);
  const rows = useLiveQuery(
    // One query: with a property filter the store reads the matching rows once and slices; paging
    // would read them again for every page. A method or provenance filter reads the property's
    // rows and tests them here (no index holds conditions), then keeps the first MAX_PLOTTED.
    () =>
      query.property === undefined
        ? Promise.resolve([])
        : matches
          ? queryTriplets(database, query, undefined, { search }).then((result) => result.rows.filter(matches).slice(0, MAX_PLOTTED))
          : queryTriplets(database, query, { offset: 0, limit: MAX_PLOTTED }, { search }).then((result) => result.rows),
    [database, queryKey, search, searchGeneration],
  );
  const label = schema?.label ?? query.property?.replaceAll('_', ' ') ?? '';
  const displayUnit = schema ? displayUnitOf(schema) : undefined;
  // Memoized on the live query's result so the chart is rebuilt only when the rows change.
  const plot = useMemo(() => {
    if (rows === undefined) return undefined;
    const data = plotPoints(rows, displayUnit);
    const strip = stripMaterials(data.points);
    const materialCount = new Set(data.points.map((point) => point.material)).size;
    const caption = [plotCaption(label, data, materialCount, strip.omittedMaterials), methodsSentence(data.points)]
      .filter(Boolean)
      .join(' ');
    return { data, strip, caption };
  }, [rows, displayUnit, label]);
  if (query.property === undefined) {
    return (
      <p className="property-plot-hint" data-testid="property-plot">
        Choose a property above to plot its values per material.
      </p>
    );
  }
  if (plot === undefined) return <p role="status">Loading the plot…</p>;
  const { data, strip, caption } = plot;
  return (
    <figure className="property-plot" data-testid="property-plot">
      {strip.shown.length > 0 && (
        <StripChart materials={strip.materials} points={strip.shown} unit={data.unit} axisTitle={valueAxisTitle(label, data.unit)} />
      )}
      <figcaption>{caption}</figcaption>
    </figure>
  );
}

interface StripChartProps {
  materials: string[];
  points: PlotPoint[];
  unit: string;
  axisTitle: string;
}

/** A Chart.js scatter with materials on the y axis (one row each) and values on x. The canvas is hidden from assistive technology: the caption says the same. */
function StripChart({ materials, points, unit, axisTitle }: StripChartProps) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const dark = usePrefersDark();
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    // The theme's tokens as the canvas sees them now (the `dark` dependency redraws on a change).
    const style = getComputedStyle(canvas);
    const colours = plotColours((name) => style.getPropertyValue(name));
    // Registration is idempotent; doing it here keeps the module free of side effects.
    Chart.register(ScatterController, PointElement, LinearScale, LogarithmicScale, Tooltip, Legend);
    const datasets = methodDatasets(points, materials, colours) as ChartDataset<'scatter', ChartPoint[]>[];
    const chart = new Chart(canvas, {
      type: 'scatter',
      data: { datasets },
      options: {
        animation: false,
        maintainAspectRatio: false,
        // Legend and default text in the theme's text colour.
        color: colours.text,
        scales: {
          x: {
            type: valueScale(points.map((point) => point.value)),
            title: { display: true, text: axisTitle, color: colours.text },
            ticks: { color: colours.muted },
            grid: { color: colours.grid },
          },
          y: {
            type: 'linear',
            reverse: true,
            min: -0.5,
            max: materials.length - 0.5,
            title: { display: true, text: 'Material', color: colours.text },
            // One tick per material row: with min -0.5 a step of 1 would put every tick between two rows, unlabelled.
            afterBuildTicks: (axis) => {
              axis.ticks = materials.map((_, index) => ({ value: index }));
            },
            ticks: { autoSkip: false, color: colours.muted, callback: (value) => materials[Number(value)] ?? '' },
            grid: { color: colours.grid },
          },
        },
        plugins: {
          tooltip: {
            callbacks: {
              label: (item: TooltipItem<'scatter'>) => {
                const point = item.raw as ChartPoint;
                return `${point.material}: ${shortNumber(point.x)}${unit === '' ? '' : ` ${unit}`} · ${point.method || NO_METHOD_LABEL} · ${statusText(point.status)}`;
              },
            },
          },
        },
      },
    });
    return () => chart.destroy();
  }, [materials, points, unit, axisTitle, dark]);
  // 24 px per material row plus room for the axis and legend.
  return (
    <div className="property-plot-canvas" style={{ height: 80 + 24 * materials.length }}>
      <canvas ref={canvasRef} aria-hidden="true" />
    </div>
  );
}
