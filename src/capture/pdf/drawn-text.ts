/**
 * How each run of text on a page is drawn, read from pdf.js's operator list: the text rendering
 * mode, fill and stroke colour and opacity, the clipping box, optional-content (layer) visibility,
 * and the filled areas painted before it (its background). pdf.js's text content has none of
 * this, so hidden text (render mode 3, white on white, text clipped away or on a hidden layer)
 * arrived as ordinary text (issue 27, item 3). Pure: `visible-text.ts` matches these runs to
 * the text content's items.
 *
 * Coordinates are PDF user space of the page (the space of text-content transforms). Areas and
 * clips are bounding boxes, so "covered" and "inside the clip" err towards keeping text.
 */

/** The pdf.js `OPS` codes this module reads (pdf.js's own `OPS` object satisfies it). */
export type PdfOps = Record<
  | 'save'
  | 'restore'
  | 'transform'
  | 'setGState'
  | 'setTextRenderingMode'
  | 'setFillRGBColor'
  | 'setStrokeRGBColor'
  | 'setFillTransparent'
  | 'setStrokeTransparent'
  | 'setFillColorN'
  | 'setStrokeColorN'
  | 'showText'
  | 'showSpacedText'
  | 'constructPath'
  | 'clip'
  | 'eoClip'
  | 'shadingFill'
  | 'fill'
  | 'eoFill'
  | 'fillStroke'
  | 'eoFillStroke'
  | 'closeFillStroke'
  | 'closeEOFillStroke'
  | 'paintFormXObjectBegin'
  | 'paintFormXObjectEnd'
  | 'beginGroup'
  | 'endGroup'
  | 'beginMarkedContent'
  | 'beginMarkedContentProps'
  | 'endMarkedContent',
  number
>;

/** `[x0, y0, x1, y1]`, x0 ≤ x1 and y0 ≤ y1. */
export type Box = [number, number, number, number];
/** Red, green, blue in 0–1. */
export type Rgb = [number, number, number];

/** How a run of text is painted. A colour of `null` is a pattern or shading: not comparable. */
export interface TextPaint {
  /** Text rendering mode 0–7 (PDF 32000-1 §9.3.6): 3 is invisible, 7 only clips. */
  mode: number;
  fill: Rgb | null;
  fillAlpha: number;
  stroke: Rgb | null;
  strokeAlpha: number;
  /** Where drawing is not clipped away (page box, clip paths, form boxes). */
  clip: Box;
  /** Inside optional content (a layer) that is switched off. */
  hiddenLayer: boolean;
}

export interface DrawnRun {
  /** The glyphs' Unicode text, in drawing order. */
  text: string;
  paint: TextPaint;
  /** Position in the operator list: areas with a lower `order` lie beneath it. */
  order: number;
}

/**
 * What text drawn later inside `box` may lie on: a filled rectangle (page and cell backgrounds,
 * boxes), the bounding box of another filled shape, a shading, or an image (never decoded, so of
 * unknown colour).
 */
export interface PaintedArea {
  box: Box;
  /** `null`: a pattern, shading, image or unknown colour (taken as differing from any text). */
  colour: Rgb | null;
  /** A rectangle filling all of `box`; otherwise `box` only bounds the shape. */
  solid: boolean;
  order: number;
}

/** Colours under a point: the solid one (last rectangle, else paper) and those of shapes painted over it. */
export interface Background {
  solid: Rgb | null;
  shapes: Array<Rgb | null>;
}

export interface DrawnText {
  runs: DrawnRun[];
  areas: PaintedArea[];
}

/** The operator list as pdf.js returns it (`page.getOperatorList()`). */
export interface OperatorList {
  fnArray: ArrayLike<number>;
  argsArray: ArrayLike<unknown>;
}

/** Decides a layer's visibility (pdf.js `OptionalContentConfig.isVisible`). */
export type LayerVisibility = (group: unknown) => boolean;

type Matrix = [number, number, number, number, number, number];

interface GraphicsState extends Omit<TextPaint, 'hiddenLayer'> {
  ctm: Matrix;
  /** Something was drawn since the last save. */
  drew: boolean;
}

const WHITE: Rgb = [1, 1, 1];

/**
 * Walk `operatorList` (drawn with annotations off) and return every text run with its paint
 * and every filled area. `pageBox` is the page's view box; `layerVisible` answers for optional
 * content (omit it and every layer counts as shown). Unknown operators are ignored.
 */
export function drawnText(operatorList: OperatorList, ops: PdfOps, pageBox: readonly number[], layerVisible?: LayerVisibility): DrawnText {
  const [x0 = 0, y0 = 0, x1 = 612, y1 = 792] = pageBox;
  let state: GraphicsState = {
    ctm: [1, 0, 0, 1, 0, 0],
    mode: 0,
    fill: [0, 0, 0],
    fillAlpha: 1,
    stroke: [0, 0, 0],
    strokeAlpha: 1,
    clip: [Math.min(x0, x1), Math.min(y0, y1), Math.max(x0, x1), Math.max(y0, y1)],
    drew: false,
  };
  const stack: GraphicsState[] = [];
  const layers: boolean[] = []; // true where that marked-content level hides its content
  let pendingClip = false;
  const runs: DrawnRun[] = [];
  const areas: PaintedArea[] = [];
  const fills = new Set([ops.fill, ops.eoFill, ops.fillStroke, ops.eoFillStroke, ops.closeFillStroke, ops.closeEOFillStroke]);
  const save = (): void => {
    stack.push(state);
    state = { ...state, drew: false };
  };
  const restore = (order: number): void => {
    const inner = state;
    state = stack.pop() ?? state;
    // `q … cm … Q` that drew nothing is where an image went: capture asks pdf.js for no image
    // (`maxImageSize: 0`), so its `Do` left no operator. An image fills the unit square of its
    // matrix (PDF 32000-1 §8.9.4); its colours are unknown, so text on it counts as seen.
    if (!inner.drew && inner.ctm !== state.ctm)
      areas.push({ box: intersect(transformBox([0, 0, 1, 1], inner.ctm), inner.clip), colour: null, solid: false, order });
    state.drew ||= true;
  };

  for (let order = 0; order < operatorList.fnArray.length; order++) {
    const fn = operatorList.fnArray[order];
    const args = (operatorList.argsArray[order] ?? []) as unknown[];
    switch (fn) {
      case ops.save:
      case ops.beginGroup:
        save();
        break;
      case ops.restore:
      case ops.endGroup:
      case ops.paintFormXObjectEnd:
        restore(order);
        break;
      case ops.paintFormXObjectBegin: {
        save();
        const matrix = asMatrix(args[0]);
        if (matrix) state.ctm = multiply(matrix, state.ctm);
        const bbox = asBox(args[1]);
        if (bbox) state.clip = intersect(state.clip, transformBox(bbox, state.ctm));
        break;
      }
      case ops.transform: {
        const matrix = asMatrix(args);
        if (matrix) state.ctm = multiply(matrix, state.ctm);
        break;
      }
      case ops.setTextRenderingMode:
        state.mode = typeof args[0] === 'number' ? args[0] : state.mode;
        break;
      case ops.setFillRGBColor:
        state.fill = parseHex(args[0]);
        break;
      case ops.setStrokeRGBColor:
        state.stroke = parseHex(args[0]);
        break;
      case ops.setFillColorN:
        state.fill = null; // a pattern: its colours are not read here
        break;
      case ops.setStrokeColorN:
        state.stroke = null;
        break;
      case ops.setFillTransparent:
        state.fillAlpha = 0;
        break;
      case ops.setStrokeTransparent:
        state.strokeAlpha = 0;
        break;
      case ops.setGState:
        for (const entry of Array.isArray(args[0]) ? (args[0] as unknown[]) : []) {
          if (!Array.isArray(entry) || typeof entry[1] !== 'number') continue;
          if (entry[0] === 'ca') state.fillAlpha = entry[1];
          if (entry[0] === 'CA') state.strokeAlpha = entry[1];
        }
        break;
      case ops.clip:
      case ops.eoClip:
        pendingClip = true;
        break;
      case ops.constructPath: {
        const bounds = asBox(args[2]);
        if (fills.has(args[0] as number)) {
          state.drew = true;
          const colour = state.fillAlpha < 0.5 ? null : state.fill;
          const rectangles = rectanglesOf(Array.isArray(args[1]) ? args[1][0] : null);
          for (const rectangle of rectangles)
            areas.push({ box: intersect(transformBox(rectangle, state.ctm), state.clip), colour, solid: true, order });
          if (rectangles.length === 0 && bounds)
            areas.push({ box: intersect(transformBox(bounds, state.ctm), state.clip), colour, solid: false, order });
        } else if (args[0] !== undefined) state.drew ||= !pendingClip;
        if (pendingClip && bounds) state.clip = intersect(state.clip, transformBox(bounds, state.ctm));
        pendingClip = false;
        break;
      }
      case ops.shadingFill:
        state.drew = true;
        areas.push({ box: state.clip, colour: null, solid: false, order });
        break;
      case ops.beginMarkedContent:
        layers.push(false);
        break;
      case ops.beginMarkedContentProps:
        layers.push(args[0] === 'OC' && layerVisible !== undefined && !layerVisible(args[1]));
        break;
      case ops.endMarkedContent:
        layers.pop();
        break;
      case ops.showText:
      case ops.showSpacedText: {
        const text = glyphText(args[0]);
        if (!text) break;
        state.drew = true;
        const { mode, fill, fillAlpha, stroke, strokeAlpha, clip } = state;
        runs.push({ text, paint: { mode, fill, fillAlpha, stroke, strokeAlpha, clip, hiddenLayer: layers.includes(true) }, order });
        break;
      }
    }
  }
  return { runs, areas };
}

/**
 * What lies beneath `points` (the bottom and top of a glyph) just before operator `order`: the
 * colour of the last rectangle covering them all (a rule through the text covers only one), else
 * white paper, and the colours of other shapes painted since whose bounding box covers them.
 */
export function backgroundAt(areas: readonly PaintedArea[], points: ReadonlyArray<readonly [number, number]>, order: number): Background {
  let background: Background = { solid: WHITE, shapes: [] };
  for (const area of areas) {
    if (area.order >= order) break;
    if (!points.every(([x, y]) => contains(area.box, x, y, 0))) continue;
    if (area.solid) background = { solid: area.colour, shapes: [] };
    else background.shapes.push(area.colour);
  }
  return background;
}

/** Whether (x, y) lies in `box`, with `slack` points to spare. */
export function contains(box: Box, x: number, y: number, slack: number): boolean {
  return x >= box[0] - slack && x <= box[2] + slack && y >= box[1] - slack && y <= box[3] + slack;
}

/**
 * The axis-aligned rectangles a path is made of (pdf.js `DrawOPS` codes: 0 moveTo, 1 lineTo,
 * 4 closePath), or none when any part of it is a curve or another shape.
 */
function rectanglesOf(path: unknown): Box[] {
  if (!path || typeof (path as ArrayLike<number>).length !== 'number') return [];
  const data = path as ArrayLike<number>;
  const boxes: Box[] = [];
  let points: Array<[number, number]> = [];
  const close = (): boolean => {
    if (points.length === 0) return true;
    const first = points[0]!;
    const last = points.at(-1)!;
    if (points.length === 5 && first[0] === last[0] && first[1] === last[1]) points.pop();
    if (points.length !== 4) return false;
    const axisAligned = points.every(([x, y], index) => {
      const [nextX, nextY] = points[(index + 1) % 4]!;
      return x === nextX || y === nextY;
    });
    if (!axisAligned) return false;
    const xs = points.map(([x]) => x);
    const ys = points.map(([, y]) => y);
    boxes.push([Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)]);
    points = [];
    return true;
  };
  for (let index = 0; index < data.length;) {
    const code = data[index];
    if (code === 0 || code === 1) {
      if (code === 0 && !close()) return [];
      points.push([data[index + 1]!, data[index + 2]!]);
      index += 3;
    } else if (code === 4) index += 1;
    else return [];
  }
  return close() ? boxes : [];
}

function glyphText(glyphs: unknown): string {
  if (!Array.isArray(glyphs)) return '';
  let text = '';
  for (const glyph of glyphs) {
    const unicode = (glyph as { unicode?: unknown } | null)?.unicode;
    if (typeof unicode === 'string') text += unicode;
  }
  return text;
}

function parseHex(value: unknown): Rgb | null {
  if (typeof value !== 'string' || !/^#[0-9a-f]{6}$/i.test(value)) return null;
  return [1, 3, 5].map((start) => parseInt(value.slice(start, start + 2), 16) / 255) as Rgb;
}

function asMatrix(value: unknown): Matrix | null {
  const numbers = value && typeof (value as ArrayLike<number>).length === 'number' ? Array.from(value as ArrayLike<number>) : [];
  return numbers.length === 6 && numbers.every(Number.isFinite) ? (numbers as Matrix) : null;
}

function asBox(value: unknown): Box | null {
  const numbers = value && typeof (value as ArrayLike<number>).length === 'number' ? Array.from(value as ArrayLike<number>) : [];
  if (numbers.length !== 4 || !numbers.every(Number.isFinite)) return null;
  const [a, b, c, d] = numbers as Box;
  return [Math.min(a, c), Math.min(b, d), Math.max(a, c), Math.max(b, d)];
}

/** `first` then `second` (PDF row-vector convention: a point p maps to p × first × second). */
function multiply(first: Matrix, second: Matrix): Matrix {
  const [a, b, c, d, e, f] = first;
  const [A, B, C, D, E, F] = second;
  return [a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F];
}

function transformBox(box: Box, matrix: Matrix): Box {
  const [a, b, c, d, e, f] = matrix;
  const xs: number[] = [];
  const ys: number[] = [];
  for (const [x, y] of [
    [box[0], box[1]],
    [box[0], box[3]],
    [box[2], box[1]],
    [box[2], box[3]],
  ] as const) {
    xs.push(a * x + c * y + e);
    ys.push(b * x + d * y + f);
  }
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}

function intersect(first: Box, second: Box): Box {
  return [Math.max(first[0], second[0]), Math.max(first[1], second[1]), Math.min(first[2], second[2]), Math.min(first[3], second[3])];
}
