/** One figure of `assay bench`: its name, value and unit (e.g. `{ name: 'scan.median', value: 4.2, unit: 'ms' }`). */
export interface BenchFigure {
  name: string;
  value: number;
  unit: string;
}
