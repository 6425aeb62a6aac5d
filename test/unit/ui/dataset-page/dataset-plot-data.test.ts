import { describe, expect, it } from 'vitest';
import {
  methodDatasets,
  methodSeries,
  methodsSentence,
  plotColours,
  plotCaption,
  plotPoints,
  pointValue,
  stripMaterials,
  summarizeValues,
  valueAxisTitle,
  valueScale,
} from '../../../../src/ui/dataset-page/property-plot-data';
import { datasetTriplet } from '../dataset-fixtures';

describe('plotPoints', () => {
  it('converts every value to the display unit and skips what does not convert', () => {
    const rows = [
      datasetTriplet({ id: 'a', material: 'GaN', value: { kind: 'number', value: 3.4 }, unit: 'eV' }),
      // 1500 meV = 1.5 eV.
      datasetTriplet({ id: 'b', material: 'Si', value: { kind: 'number', value: 1500 }, unit: 'meV' }),
      // Range 1.2–1.6 eV is plotted at its midpoint, 1.4.
      datasetTriplet({ id: 'c', material: 'Si', value: { kind: 'range', low: 1.2, high: 1.6 }, unit: 'eV' }),
      // Kelvin is not an energy: skipped.
      datasetTriplet({ id: 'd', material: 'Nb', value: { kind: 'number', value: 9.2 }, unit: 'K' }),
    ];
    const data = plotPoints(rows, 'eV');
    expect(data.unit).toBe('eV');
    expect(data.skipped).toBe(1);
    expect(data.points.map((point) => point.id)).toEqual(['a', 'b', 'c']);
    expect(data.points[0]!.value).toBe(3.4);
    expect(data.points[1]!.value).toBeCloseTo(1.5, 12);
    expect(data.points[2]!.value).toBeCloseTo(1.4, 12);
  });

  it('without a schema, uses the unit most rows were printed in, converting the others, never the SI base unit', () => {
    const rows = [
      datasetTriplet({ id: 'a', value: { kind: 'number', value: 2 }, unit: 'g/cm^3' }),
      datasetTriplet({ id: 'b', value: { kind: 'range', low: 4, high: 6 }, unit: 'g/cm^3' }),
      // 3000 kg/m^3 = 3 g/cm^3.
      datasetTriplet({ id: 'c', value: { kind: 'number', value: 3000 }, unit: 'kg/m^3' }),
      datasetTriplet({ id: 'd', value: { kind: 'number', value: 7 }, unit: 'K' }),
      datasetTriplet({ id: 'e', value: { kind: 'number', value: 0.3 }, unit: '' }),
    ];
    const data = plotPoints(rows);
    expect(data.unit).toBe('g/cm^3');
    // b's range 4–6 → midpoint 5; d (another dimension) and e (no unit) are skipped.
    expect(data.points.map((point) => [point.id, Number(point.value.toPrecision(12))])).toEqual([
      ['a', 2],
      ['b', 5],
      ['c', 3],
    ]);
    expect(data.skipped).toBe(2);
    expect(plotPoints([])).toEqual({ unit: '', points: [], skipped: 0 });
  });

  it('plots °C values at their kelvin temperature in a property shown in K', () => {
    const data = plotPoints([datasetTriplet({ property: 'curie_temperature', value: { kind: 'number', value: 120 }, unit: '°C' })], 'K');
    expect(data.points[0]!.value).toBeCloseTo(393.15, 9);
  });

  it('titles the value axis with the label and the unit', () => {
    expect(valueAxisTitle('Band gap', plotPoints([datasetTriplet({ value: { kind: 'number', value: 40 }, unit: 'meV' })], 'eV').unit)).toBe(
      'Band gap (eV)',
    );
    expect(valueAxisTitle('Strain ratio', '')).toBe('Strain ratio');
  });

  it('reads a number as itself and a range as its midpoint', () => {
    expect(pointValue({ kind: 'number', value: 3, uncertainty: 1 })).toBe(3);
    expect(pointValue({ kind: 'range', low: 1, high: 4 })).toBe(2.5);
  });
});

describe('summarizeValues', () => {
  it('gives count, min, median and max', () => {
    // Sorted: 0.5, 1.1, 3.4 → median is the middle one, 1.1.
    expect(summarizeValues([3.4, 0.5, 1.1])).toEqual({ count: 3, min: 0.5, median: 1.1, max: 3.4 });
    // Sorted: 1, 2, 4, 10 → median (2 + 4) / 2 = 3.
    expect(summarizeValues([10, 1, 4, 2])).toEqual({ count: 4, min: 1, median: 3, max: 10 });
    expect(summarizeValues([])).toBeNull();
  });
});

describe('stripMaterials', () => {
  const point = (id: string, material: string) => ({ id, material, status: 'verified' as const, method: '', value: 1 });
  it('keeps the materials with most values, ties by name', () => {
    const points = [point('1', 'Si'), point('2', 'GaN'), point('3', 'Si'), point('4', 'AlN'), point('5', 'GaN'), point('6', 'ZnO')];
    // Counts: Si 2, GaN 2, AlN 1, ZnO 1 → order GaN, Si (tie by name), AlN, ZnO; limit 3 drops ZnO.
    const strip = stripMaterials(points, 3);
    expect(strip.materials).toEqual(['GaN', 'Si', 'AlN']);
    expect(strip.shown.map((shown) => shown.id)).toEqual(['1', '2', '3', '4', '5']);
    expect(strip.omittedMaterials).toBe(1);
  });
});

describe('valueScale', () => {
  it('goes logarithmic only for positive values spanning three decades', () => {
    expect(valueScale([1, 999])).toBe('linear'); // 999 / 1 < 1000
    expect(valueScale([0.01, 10])).toBe('logarithmic'); // 10 / 0.01 = 1000
    expect(valueScale([-1, 1e6])).toBe('linear');
    expect(valueScale([])).toBe('linear');
  });
});

describe('plotCaption', () => {
  const point = (material: string, value: number) => ({
    id: `${material}${value}`,
    material,
    status: 'verified' as const,
    method: '',
    value,
  });

  it('sums up the values with their unit', () => {
    const data = {
      unit: 'eV',
      points: [point('GaN', 3.4), point('Si', 1.1), point('Si', 1.2), point('Ge', 0.66), point('GaN', 3.39)],
      skipped: 1,
    };
    // Sorted: 0.66, 1.1, 1.2, 3.39, 3.4 → min 0.66, median 1.2, max 3.4; materials GaN, Si, Ge = 3.
    expect(plotCaption('Band gap', data, 3)).toBe(
      'Band gap: 5 values from 3 materials, in eV: min 0.66, median 1.2, max 3.4 eV. 1 triplet not plotted (unit does not convert to eV).',
    );
  });

  it('says when nothing can be plotted or materials are left out', () => {
    expect(plotCaption('Tc', { unit: 'K', points: [], skipped: 2 }, 0)).toBe(
      'Tc: no values to plot. 2 triplets not plotted (unit does not convert to K).',
    );
    expect(plotCaption('Ratio', { unit: '', points: [point('A', 0.25)], skipped: 0 }, 1, 4)).toBe(
      'Ratio: 1 value from 1 material: min 0.25, median 0.25, max 0.25. The chart shows the materials with most values; 4 more are left out.',
    );
  });
});

describe('plotColours', () => {
  it('takes the theme tokens as the page computes them, so the plot follows the dark theme', () => {
    const dark: Record<string, string> = {
      '--assay-fg': ' #e6e8eb',
      '--assay-muted': '#a9b0ba',
      '--assay-border': '#444b55',
      '--assay-verified': '#7fd6a0',
      '--assay-review': '#f2c46d',
      '--assay-rejected': '#ff9b9b',
      '--assay-accent': '#6ea8fe',
    };
    expect(plotColours((name) => dark[name] ?? '')).toEqual({
      text: '#e6e8eb',
      muted: '#a9b0ba',
      grid: '#444b55',
      status: { verified: '#7fd6a0', needs_review: '#f2c46d', rejected: '#ff9b9b' },
      series: ['#6ea8fe', '#7fd6a0', '#ff9b9b', '#f2c46d', '#e6e8eb'],
    });
  });

  it('falls back to the light theme where a token reads empty', () => {
    expect(plotColours(() => '')).toMatchObject({ text: '#1b1f24', status: { verified: '#17683a' } });
  });
});

describe('the plot by method', () => {
  const point = (id: string, material: string, method: string) => ({ id, material, status: 'verified' as const, method, value: 1 });
  const colours = plotColours(() => '');

  it('makes one series per method, most points first, the rest as "other methods" and "no method" last', () => {
    const points = [
      point('1', 'GaN', 'HSE06'),
      point('2', 'GaN', ''),
      point('3', 'AlN', 'GGA-PBE'),
      point('4', 'AlN', 'HSE06'),
      point('5', 'InN', 'GW'),
    ];
    expect(methodSeries(points).map((series) => [series.label, series.points.map((shown) => shown.id)])).toEqual([
      ['HSE06', ['1', '4']],
      ['GGA-PBE', ['3']],
      ['GW', ['5']],
      ['no method', ['2']],
    ]);
    expect(methodSeries(points, 2).map((series) => series.label)).toEqual(['HSE06', 'GGA-PBE', 'other methods', 'no method']);
    expect(methodsSentence(points)).toBe('By method: HSE06 2, GGA-PBE 1, GW 1, no method 1.');
    expect(methodsSentence([point('1', 'GaN', '')])).toBe('');
  });

  it('gives Chart.js a dataset per series in the theme’s colours, a shape each, "no method" hollow and muted', () => {
    const points = [point('1', 'GaN', 'HSE06'), point('2', 'GaN', ''), point('3', 'AlN', 'GGA-PBE'), point('4', 'ZnO', 'GW')];
    const datasets = methodDatasets(points, ['GaN', 'AlN'], colours);
    expect(datasets.map((dataset) => dataset.label)).toEqual(['GGA-PBE', 'HSE06', 'no method']);
    expect(datasets[0]).toMatchObject({ backgroundColor: colours.series[0], pointStyle: 'circle' });
    expect(datasets[1]).toMatchObject({ backgroundColor: colours.series[1], pointStyle: 'triangle' });
    expect(datasets[2]).toMatchObject({ backgroundColor: 'transparent', borderColor: colours.muted });
    // Each point on its material's row; ZnO is not on the axis, so its point is left out.
    expect(datasets[1]!.data).toEqual([{ x: 1, y: 0, material: 'GaN', method: 'HSE06', status: 'verified' }]);
    expect(datasets.flatMap((dataset) => dataset.data).map((shown) => shown.material)).not.toContain('ZnO');
  });

  it('carries each row’s method into its point', () => {
    const data = plotPoints(
      [datasetTriplet({ id: 'm', conditions: [{ kind: 'method', value: 'HSE06' }] }), datasetTriplet({ id: 'n' })],
      'eV',
    );
    expect(data.points.map((shown) => shown.method)).toEqual(['HSE06', '']);
  });
});
