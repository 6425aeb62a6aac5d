/**
 * Whether the reader can see an element: text a page hides with CSS must never be captured, or
 * it could ground facts nobody sees on screen.
 *
 * Two judges answer the same question, `isHidden(element)` ("this element and its subtree are
 * not shown"), and the capture takes whichever fits the document:
 * - `computedVisibility(window)` on a live page with layout (the extension): the browser's
 *   computed style, `checkVisibility()` and bounding boxes.
 * - `styleRuleVisibility(document)` without layout (CLI, jsdom, a DOMParser document): inline
 *   styles and the page's own `<style>` rules, parsed with PostCSS, matched with
 *   `element.matches()` and resolved by a small cascade (importance, specificity, order).
 *
 * What counts as hidden (both judges): `display:none`; `visibility:hidden|collapse`; zero font
 * size; `opacity:0`; a zero width or height with `overflow:hidden` (and no padding that opens
 * the box); an absolutely positioned box clipped to nothing (`clip: rect(0 0 0 0)`,
 * `clip-path: inset(50%)`); a box placed off screen (`position:absolute|fixed` with
 * `left`/`top` ≤ −1000px) or text pushed out by `text-indent` ≤ −999px. The live judge adds what
 * only layout and computed style can tell (see `computedVisibility`: colour against the
 * background, tiny fonts, faint opacity, transforms, covers). Markup (`hidden`,
 * `aria-hidden="true"` in any case, a closed `<details>`) is judged by `isHiddenByMarkup` in
 * dom-text.ts, before either judge.
 *
 * Both are conservative, because losing visible article text is worse than reading a hidden
 * line: rules under a media query or `@supports` never hide (they may only un-hide), print-only
 * rules are ignored, `<html>` and `<body>` are never judged hidden by style rules (pages hide
 * them until their scripts run, which never happens in the CLI), and an inherited hiding
 * property (visibility, font size, text indent) does not hide a subtree in which a descendant
 * sets it back (`.row{font-size:0} .cell{font-size:14px}` is a layout trick, not hidden text).
 * Verdicts are memoized per element, so a walk stays linear in the size of the page.
 */
import { parse, type ChildNode, type Container, type Rule } from 'postcss';
import { elementsByTag, someDescendantMemo } from '../tree-walk';
import { BLOCK_TAGS } from './dom-text';
import { subjectKey } from './selector-index';

/** True when the element and its whole subtree are not shown to the reader. */
export type VisibilityJudge = (element: Element) => boolean;

/** A judge that hides nothing (markup rules still apply through `isIgnorable`). */
export const NOTHING_HIDDEN: VisibilityJudge = () => false;

/**
 * The judge for `document`: computed style when `window` shows it with a real layout (a live
 * page in the browser), else the style-rule judgement (no layout: jsdom, DOMParser documents).
 */
export function pageVisibility(document: Document, window?: Window | null): VisibilityJudge {
  return window && hasLayout(document) ? computedVisibility(window) : styleRuleVisibility(document);
}

/**
 * The judge for a page judged elsewhere with layout (the CLI's headless Chromium, `mark-hidden.ts`):
 * hidden elements carry `attribute`.
 */
export function markedVisibility(attribute: string): VisibilityJudge {
  return (element) => element.hasAttribute(attribute);
}

/** True when the document is laid out (a browser tab): jsdom and parsed documents have no boxes. */
export function hasLayout(document: Document): boolean {
  const root = document.documentElement;
  if (!root || typeof root.getBoundingClientRect !== 'function') return false;
  const box = root.getBoundingClientRect();
  return box.width > 0 || box.height > 0;
}

/** Per judge, the elements known to be hidden with an ancestor (or not): `hiddenWithin`'s memo. */
const withinMemos = new WeakMap<VisibilityJudge, WeakMap<Element, boolean>>();

/**
 * True when `element` or one of its ancestors is hidden by `judge`. Ancestors are judged from
 * the top down and the answers remembered per judge, so a walk that asks this of every element
 * costs O(size of the page) however deep it is, and nothing below a hidden element is judged.
 */
export function hiddenWithin(element: Element, judge: VisibilityJudge): boolean {
  let memo = withinMemos.get(judge);
  if (!memo) {
    memo = new WeakMap();
    withinMemos.set(judge, memo);
  }
  const unknown: Element[] = [];
  let current: Element | null = element;
  let hidden = false;
  for (; current; current = current.parentElement) {
    const known = memo.get(current);
    if (known !== undefined) {
      hidden = known;
      break;
    }
    unknown.push(current);
  }
  for (let index = unknown.length - 1; index >= 0; index -= 1) {
    const ancestor = unknown[index]!;
    hidden = hidden || judge(ancestor);
    memo.set(ancestor, hidden);
  }
  return hidden;
}

// ---------------------------------------------------------------------------------------------
// Shared value tests

const ZERO_LENGTH = /^[+-]?0*\.?0+(?:[a-z]+|%)?$/;
const OFF_SCREEN_OFFSET = -1000;
const OFF_SCREEN_INDENT = -999;
/** Inherited properties whose hiding value a descendant can set back. */
type InheritedProperty = 'visibility' | 'font-size' | 'text-indent';

function isZeroLength(value: string | undefined): boolean {
  return value !== undefined && ZERO_LENGTH.test(value.trim());
}

/** A length in px, reading em/rem as 16px; undefined for other units and keywords. */
function pixels(value: string | undefined): number | undefined {
  const match = value === undefined ? null : /^([+-]?\d*\.?\d+)(px|r?em)?$/.exec(value.trim());
  if (!match) return undefined;
  const number = Number(match[1]);
  return match[2] === 'em' || match[2] === 'rem' ? number * 16 : match[2] === 'px' || number === 0 ? number : undefined;
}

function isZeroOpacity(value: string | undefined): boolean {
  return value !== undefined && /^0*\.?0+%?$/.test(value.trim());
}

/** An opacity under `MIN_VISIBLE_OPACITY` (`0.01`, `5%`); a declared value, as the style rules read it. */
function isFaintOpacity(value: string | undefined): boolean {
  const match = value === undefined ? null : /^(\d*\.?\d+)(%?)$/.exec(value.trim());
  return match !== null && Number(match[1]) / (match[2] ? 100 : 1) < MIN_VISIBLE_OPACITY;
}

/** A declared font size under `MIN_READABLE_FONT_PX` in px, pt or rem (`1px`, `0.1px`, `2pt`); zero in any unit. */
function isTinyFont(value: string | undefined): boolean {
  if (value === undefined) return false;
  if (isZeroLength(value)) return true;
  const points = /^(\d*\.?\d+)pt$/.exec(value.trim());
  const size = points ? (Number(points[1]) * 4) / 3 : /(?:px|rem)$/.test(value.trim()) ? pixels(value) : undefined;
  return size !== undefined && size < MIN_READABLE_FONT_PX;
}

/**
 * A declared `transform` that leaves no text to see: a scale of zero on either axis, or a
 * translation by `OFF_SCREEN_OFFSET` or more to the left or up (`translateX(-9999px)`).
 */
function transformHides(value: string | undefined): boolean {
  if (!value) return false;
  for (const [, name, args] of value.matchAll(/([a-z0-9]+)\(([^)]*)\)/gi)) {
    const parts = args!.split(/\s*,\s*|\s+/).filter(Boolean);
    const numbers = parts.map(Number);
    const lengths = parts.map((part) => pixels(part) ?? 0);
    switch (name!.toLowerCase()) {
      case 'scale':
        if (numbers.some((number) => number === 0)) return true;
        break;
      case 'scalex':
      case 'scaley':
        if (numbers[0] === 0) return true;
        break;
      case 'translate':
      case 'translatex':
      case 'translatey':
      case 'translate3d':
        if (lengths.slice(0, 2).some((length) => length <= OFF_SCREEN_OFFSET)) return true;
        break;
    }
  }
  return false;
}

/** `clip: rect(…)` leaving at most one pixel in either direction (`rect(0 0 0 0)`, `rect(1px,1px,1px,1px)`). */
function clipHides(value: string | undefined): boolean {
  const match = value ? /^rect\(([^)]*)\)$/.exec(value.trim()) : null;
  if (!match) return false;
  const sides = match[1]!
    .split(/[\s,]+/)
    .filter(Boolean)
    .map(pixels);
  if (sides.length !== 4 || sides.some((side) => side === undefined)) return false;
  const [top, right, bottom, left] = sides as number[];
  return right! - left! <= 1 || bottom! - top! <= 1;
}

/** `clip-path` that leaves nothing: `inset(50%)` (or more), a zero circle or ellipse. */
function clipPathHides(value: string | undefined): boolean {
  if (!value) return false;
  const shape = /^(inset|circle|ellipse)\(([^)]*)\)/.exec(value.trim());
  if (!shape) return false;
  const args = shape[2]!
    .split(/\s+round\s+|\s+at\s+/)[0]!
    .trim()
    .split(/\s+/);
  if (shape[1] !== 'inset') return args.length > 0 && args.every((arg) => isZeroLength(arg));
  const percents = args.map((arg) => (/^\d*\.?\d+%$/.test(arg) ? parseFloat(arg) : arg === '0' ? 0 : NaN));
  if (percents.some(Number.isNaN) || percents.length === 0 || percents.length > 4) return false;
  const [top, right = top, bottom = top, left = right] = percents as number[];
  return top! + bottom! >= 100 || right! + left! >= 100;
}

/** The part of a declared value the judges read: trimmed, lower-case, without `!important`. */
function cleanValue(value: string): string {
  return value
    .replace(/!\s*important\s*$/i, '')
    .trim()
    .toLowerCase();
}

/** Memos of `someDescendantMemo`, one per inherited property (a reset of one is not a reset of another). */
function resetMemos(): Record<InheritedProperty, Map<Element, boolean>> {
  return { visibility: new Map(), 'font-size': new Map(), 'text-indent': new Map() };
}

// ---------------------------------------------------------------------------------------------
// Computed style (live page)

/**
 * Below this computed font size (CSS px) text is judged unreadable: 4px is a third of the
 * smallest body text in the shared fixtures (12px) and below any sub- or superscript seen there
 * (≈7px: 60 % of 12px); the `font-size:1px` trick sits far under it.
 */
const MIN_READABLE_FONT_PX = 4;
/**
 * Below this opacity text is judged invisible: 0.1 leaves 10 % of the ink (black on white
 * becomes #e6e6e6, a contrast ratio of 1.26 — near the limit below); fades and watermarks that
 * are meant to be read stay above 0.2.
 */
const MIN_VISIBLE_OPACITY = 0.1;
/**
 * Text whose contrast ratio with the background behind it is below this is judged invisible.
 * The ratio is WCAG 2.x's ((L1 + 0.05) / (L2 + 0.05), relative luminance L of sRGB:
 * https://www.w3.org/TR/WCAG21/#dfn-contrast-ratio), which runs from 1 (same colour) to 21;
 * WCAG asks 4.5 of body text and 3 of large text, and 1.2 is far below any text a page means to
 * be read (#fff on #ebebeb is 1.2), so only text coloured like its background falls under it.
 */
const MIN_TEXT_CONTRAST = 1.2;
/** A transform that shrinks area to under 1 % (`scale(0)`, `scale(0.05)`) leaves no readable text. */
const MIN_TRANSFORM_AREA = 0.01;

/** An sRGB colour with alpha (0–1), as the browser computes it: `rgb(…)` or `rgba(…)`. */
type Rgba = [red: number, green: number, blue: number, alpha: number];

/** `rgb(r, g, b)` / `rgba(r, g, b, a)` (and `transparent`); undefined for other colour syntaxes. */
function parseColor(value: string): Rgba | undefined {
  if (value.trim() === 'transparent') return [0, 0, 0, 0];
  const match = /^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)(?:\s*[,/]\s*([\d.]+)(%?))?\s*\)$/.exec(value.trim());
  if (!match) return undefined;
  const alpha = match[4] === undefined ? 1 : Number(match[4]) / (match[5] ? 100 : 1);
  return [Number(match[1]), Number(match[2]), Number(match[3]), alpha];
}

/** `top` painted over `bottom` (source-over compositing). */
function over(top: Rgba, bottom: Rgba): Rgba {
  const alpha = top[3] + bottom[3] * (1 - top[3]);
  if (alpha === 0) return [0, 0, 0, 0];
  const mix = (index: number): number => (top[index]! * top[3] + bottom[index]! * bottom[3] * (1 - top[3])) / alpha;
  return [mix(0), mix(1), mix(2), alpha];
}

/** WCAG 2.x relative luminance (https://www.w3.org/TR/WCAG21/#dfn-relative-luminance). */
function luminance([red, green, blue]: Rgba): number {
  const channel = (value: number): number => {
    const unit = value / 255;
    return unit <= 0.04045 ? unit / 12.92 : ((unit + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(red) + 0.7152 * channel(green) + 0.0722 * channel(blue);
}

/** WCAG 2.x contrast ratio of two opaque colours, 1 to 21. */
export function contrastRatio(first: Rgba, second: Rgba): number {
  const [light, dark] = [luminance(first), luminance(second)].sort((a, b) => b - a) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** Area scale of a computed `transform` (`matrix(a, b, c, d, e, f)`): |ad − bc|; 1 for `none` or 3D. */
function transformArea(value: string): number {
  const match = /^matrix\(([^)]*)\)$/.exec(value.trim());
  if (!match) return 1;
  const [a, b, c, d] = match[1]!.split(',').map(Number) as [number, number, number, number];
  const area = Math.abs(a * d - b * c);
  return Number.isFinite(area) ? area : 1;
}

/** `clip-path: polygon(…)` whose points are all the same point (`polygon(0 0, 0 0, 0 0)`): nothing shows. */
function polygonHides(value: string | undefined): boolean {
  const match = value ? /^polygon\(\s*(?:(?:nonzero|evenodd)\s*,)?([^)]*)\)$/.exec(value.trim()) : null;
  if (!match) return false;
  const points = match[1]!.split(',').map((point) => point.trim().replace(/\s+/g, ' '));
  return points.length > 0 && points.every((point) => point === points[0]);
}

/** Computed style of elements that make a stacking context (what paints below a `z-index:-1` child). */
function makesStackingContext(style: CSSStyleDeclaration): boolean {
  return (
    (style.position !== 'static' && style.zIndex !== 'auto') ||
    Number(style.opacity) < 1 ||
    style.transform !== 'none' ||
    style.filter !== 'none' ||
    style.isolation === 'isolate' ||
    style.mixBlendMode !== 'normal'
  );
}

/** Replaced elements: they paint content of their own over whatever is behind them. */
const PAINTED_TAGS = new Set(['img', 'picture', 'video', 'canvas', 'svg', 'iframe', 'object', 'embed', 'input', 'textarea', 'select']);

/**
 * The judge for a live page: the browser's computed style and layout. `display: contents`
 * wrappers (no box of their own, children shown) are never hidden. On top of the rules shared
 * with the style-rule judge (file comment) it judges what only layout shows: a box placed
 * wholly above or left of the page (by offsets, negative margins or a transform), a transform
 * that shrinks it to nothing, `content-visibility:hidden`, a computed font size under
 * `MIN_READABLE_FONT_PX`, opacity under `MIN_VISIBLE_OPACITY`, text whose colour has a contrast
 * ratio under `MIN_TEXT_CONTRAST` with the background behind it, and a `z-index` below zero under
 * an opaque cover. Colour and cover are judged only where the background is known: any
 * background image, blend, filter, text shadow or stroke, or another painted box over the text,
 * and the text counts as visible.
 */
export function computedVisibility(window: Window): VisibilityJudge {
  const document = window.document;
  const memo = new WeakMap<Element, boolean>();
  const resets = resetMemos();
  const colourResets = new Map<Element, boolean>();
  const styleOf = (element: Element): CSSStyleDeclaration => window.getComputedStyle(element);
  const resetBelow = (element: Element, property: InheritedProperty, hides: (value: string) => boolean): boolean => {
    return someDescendantMemo(element, (descendant) => !hides(styleOf(descendant).getPropertyValue(property)), resets[property]);
  };
  const rightToLeft = styleOf(document.documentElement).direction === 'rtl';
  let painters: { element: Element; box: DOMRect; opaque: boolean }[] | undefined;
  /** Boxes that paint something (a background or replaced content), found once when first needed. */
  const paintersOnPage = (): { element: Element; box: DOMRect; opaque: boolean }[] => {
    if (painters) return painters;
    painters = [];
    for (const element of Array.from(document.body?.getElementsByTagName('*') ?? [])) {
      const style = styleOf(element);
      if (style.display === 'none' || style.visibility !== 'visible') continue;
      const background = parseColor(style.backgroundColor);
      const image = style.backgroundImage !== 'none' || PAINTED_TAGS.has(element.localName.toLowerCase());
      if (!image && (!background || background[3] === 0)) continue;
      const box = element.getBoundingClientRect();
      if (box.width > 0 && box.height > 0) painters.push({ element, box, opaque: image || background![3] === 1 });
    }
    return painters;
  };
  /** Painted boxes over the centre of `box` that are neither `element`'s ancestors nor its descendants. */
  const othersOver = (element: Element, box: DOMRect): { element: Element; opaque: boolean }[] => {
    const x = box.left + box.width / 2;
    const y = box.top + box.height / 2;
    return paintersOnPage().filter(
      (painter) =>
        painter.box.left <= x &&
        x <= painter.box.right &&
        painter.box.top <= y &&
        y <= painter.box.bottom &&
        !painter.element.contains(element) &&
        !element.contains(painter.element),
    );
  };
  /**
   * The opaque colour behind `element`'s text: its own and its ancestors' background colours
   * composited over the white canvas; undefined when that cannot be told from colours alone.
   */
  const backgroundBehind = (element: Element): Rgba | undefined => {
    const layers: Rgba[] = [];
    for (let current: Element | null = element; current; current = current.parentElement) {
      const style = styleOf(current);
      if (style.backgroundImage !== 'none' || style.filter !== 'none' || style.mixBlendMode !== 'normal') return undefined;
      if (/text/.test(`${style.backgroundClip} ${style.getPropertyValue('-webkit-background-clip')}`)) return undefined;
      if (current !== element && (style.position === 'absolute' || style.position === 'fixed')) return undefined;
      const colour = parseColor(style.backgroundColor);
      if (!colour) return undefined;
      if (colour[3] > 0) layers.push(colour);
      if (colour[3] === 1) break;
    }
    let behind: Rgba = [255, 255, 255, 1];
    for (let index = layers.length - 1; index >= 0; index -= 1) behind = over(layers[index]!, behind);
    return behind;
  };
  /** True when `element`'s own text is drawn in a colour the reader cannot tell from its background. */
  const blendsIn = (element: Element, style: CSSStyleDeclaration, box: DOMRect): boolean => {
    const fill = parseColor(style.getPropertyValue('-webkit-text-fill-color') || style.color);
    if (!fill) return false;
    if (style.textShadow !== 'none' || (pixels(style.getPropertyValue('-webkit-text-stroke-width')) ?? 0) > 0) return false;
    if (style.position === 'absolute' || style.position === 'fixed') return false;
    const behind = backgroundBehind(element);
    if (!behind || contrastRatio(over(fill, behind), behind) >= MIN_TEXT_CONTRAST) return false;
    return othersOver(element, box).length === 0;
  };
  /** True when a descendant draws its text differently (another colour or background): it may show. */
  const colourResetBelow = (element: Element, style: CSSStyleDeclaration): boolean => {
    const paint = (target: CSSStyleDeclaration): string =>
      `${target.getPropertyValue('-webkit-text-fill-color') || target.color}|${target.textShadow}`;
    const own = paint(style);
    return someDescendantMemo(
      element,
      (descendant) => {
        const inner = styleOf(descendant);
        return paint(inner) !== own || inner.backgroundColor !== 'rgba(0, 0, 0, 0)' || inner.backgroundImage !== 'none';
      },
      colourResets,
    );
  };
  /** True when a box with a negative `z-index` is painted over by an opaque background. */
  const coveredBelow = (element: Element, box: DOMRect): boolean => {
    // Ancestors below the stacking context paint their backgrounds over a negative z-index child.
    // <body> and <html> are left out: their background is the canvas's, painted below everything.
    for (let current = element.parentElement; current && current !== document.body; current = current.parentElement) {
      const style = styleOf(current);
      if (makesStackingContext(style)) break;
      const colour = parseColor(style.backgroundColor);
      if (style.backgroundImage !== 'none' || (colour && colour[3] === 1)) return true;
    }
    return othersOver(element, box).some((painter) => painter.opaque);
  };
  /** True when the text of `element` lies wholly above or left of the page, where no scrolling reaches. */
  const offPage = (element: Element, box: DOMRect): boolean => {
    const left = !rightToLeft && box.left + window.scrollX < 0;
    if (!left && box.top + window.scrollY >= 0) return false;
    // The box may reach onto the page while its text does not (`margin-left:-9999px` widens a block).
    const range = document.createRange();
    range.selectNodeContents(element);
    const text = range.getBoundingClientRect();
    const ink = text.width > 0 || text.height > 0 ? text : box;
    if (!(box.width > 0 || box.height > 0)) return false;
    if (!((!rightToLeft && ink.right + window.scrollX <= 0) || ink.bottom + window.scrollY <= 0)) return false;
    // Inside a box the reader can scroll (a carousel scrolled on), it can be scrolled back.
    for (let current = element.parentElement; current && current !== document.body; current = current.parentElement) {
      if (/auto|scroll/.test(`${styleOf(current).overflowX} ${styleOf(current).overflowY}`)) return false;
    }
    return true;
  };
  const judge = (element: Element): boolean => {
    const style = styleOf(element);
    if (style.display === 'contents') return false;
    if (style.display === 'none') return true;
    const withCheck = element as Element & { checkVisibility?: (options?: object) => boolean };
    // False for descendants of display:none and of content-visibility:hidden (closed <details>).
    if (typeof withCheck.checkVisibility === 'function' && !withCheck.checkVisibility()) return true;
    // The element's box is drawn, its content is not.
    if (style.getPropertyValue('content-visibility') === 'hidden') return true;
    if (isZeroOpacity(style.opacity) || Number(style.opacity) < MIN_VISIBLE_OPACITY) return true;
    const positioned = style.position === 'absolute' || style.position === 'fixed';
    if (positioned && clipHides(style.clip)) return true;
    if (clipPathHides(style.clipPath) || polygonHides(style.clipPath)) return true;
    // Transforms do not apply to inline boxes.
    if (style.display !== 'inline' && transformArea(style.transform) < MIN_TRANSFORM_AREA) return true;
    const box = element.getBoundingClientRect();
    const clipsOverflow = /hidden|clip/.test(`${style.overflowX} ${style.overflowY}`);
    if (clipsOverflow && style.display !== 'inline' && (box.width === 0 || box.height === 0)) return true;
    if (offPage(element, box)) return true;
    if (style.position !== 'static' && /^-/.test(style.zIndex) && coveredBelow(element, box)) return true;
    const hiddenVisibility = (value: string): boolean => value === 'hidden' || value === 'collapse';
    if (hiddenVisibility(style.visibility) && !resetBelow(element, 'visibility', hiddenVisibility)) return true;
    const tinyFont = (value: string): boolean => (pixels(value) ?? MIN_READABLE_FONT_PX) < MIN_READABLE_FONT_PX;
    if (tinyFont(style.fontSize) && !resetBelow(element, 'font-size', tinyFont)) return true;
    const pushedOut = (value: string): boolean => (pixels(value) ?? 0) <= OFF_SCREEN_INDENT;
    if (pushedOut(style.textIndent) && !resetBelow(element, 'text-indent', pushedOut)) return true;
    return blendsIn(element, style, box) && !colourResetBelow(element, style);
  };
  return (element) => {
    let verdict = memo.get(element);
    if (verdict === undefined) {
      verdict = judge(element);
      memo.set(element, verdict);
    }
    return verdict;
  };
}

// ---------------------------------------------------------------------------------------------
// Style rules (no layout)

/** The properties the style-rule judge reads; others are dropped at parse time. */
const READ_PROPERTIES = new Set([
  'display',
  'content-visibility',
  'transform',
  'max-width',
  'max-height',
  'visibility',
  'font-size',
  'opacity',
  'width',
  'height',
  'overflow-x',
  'overflow-y',
  'clip',
  'clip-path',
  'position',
  'left',
  'top',
  'text-indent',
  'padding',
  'padding-top',
  'padding-right',
  'padding-bottom',
  'padding-left',
]);

interface Declaration {
  property: string;
  value: string;
  important: boolean;
}

interface StyleRule {
  selector: string;
  specificity: number;
  order: number;
  /** Inside `@layer`: below every unlayered rule of the same importance. */
  layered: boolean;
  declarations: Declaration[];
}

/** A declaration that can hide the element it applies to, alone or with others (candidates only). */
function mayHide({ property, value }: Declaration): boolean {
  // A custom property's value is known only in the cascade: `display: var(--h)` may hide.
  if (/var\(/.test(value)) return !property.startsWith('--');
  switch (property) {
    case 'display':
      return value === 'none';
    case 'content-visibility':
      return value === 'hidden';
    case 'visibility':
      return value === 'hidden' || value === 'collapse';
    case 'font-size':
      return isTinyFont(value);
    case 'opacity':
      return isZeroOpacity(value) || isFaintOpacity(value);
    case 'width':
    case 'height':
    case 'max-width':
    case 'max-height':
      return isZeroLength(value);
    case 'clip':
      return clipHides(value);
    case 'clip-path':
      return clipPathHides(value) || polygonHides(value);
    case 'transform':
      return transformHides(value);
    case 'left':
    case 'top':
      return (pixels(value) ?? 0) <= OFF_SCREEN_OFFSET;
    case 'text-indent':
      return (pixels(value) ?? 0) <= OFF_SCREEN_INDENT;
    default:
      return false;
  }
}

/**
 * A CSS identifier with its escapes decoded (`\64 isplay` → `display`, `dis\play` → `display`):
 * the browser reads property names that way, so a page can hide a rule from plain matching.
 */
function unescapeIdentifier(name: string): string {
  if (!name.includes('\\')) return name;
  return name.replace(/\\(?:([0-9a-f]{1,6})\s?|(.))/gi, (_, hex: string | undefined, character: string | undefined) =>
    hex ? String.fromCodePoint(Number.parseInt(hex, 16) || 0xfffd) : character!,
  );
}

/** Split a declaration into the read properties it sets (shorthands `overflow` and `font` expanded). */
function expand(property: string, rawValue: string, important: boolean): Declaration[] {
  const trimmed = unescapeIdentifier(property.trim());
  // Custom properties keep their case (`--H` is not `--h`) and their value's case.
  if (trimmed.startsWith('--')) return [{ property: trimmed, value: rawValue.replace(/!\s*important\s*$/i, '').trim(), important }];
  const name = trimmed.toLowerCase();
  const value = cleanValue(rawValue);
  if (name === 'overflow') {
    const [x, y = x] = value.split(/\s+/);
    return [
      { property: 'overflow-x', value: x!, important },
      { property: 'overflow-y', value: y!, important },
    ];
  }
  if (name === 'font') {
    // `font: 0/0 a` is the classic hack; any other `font` sets a real size.
    const zero = value.split(/\s+/).some((token) => /^[+-]?0*\.?0+(?:[a-z]+|%)?(?:\/\S+)?$/.test(token));
    return [{ property: 'font-size', value: zero ? '0' : 'medium', important }];
  }
  return READ_PROPERTIES.has(name) ? [{ property: name, value, important }] : [];
}

/** Declarations of an inline `style` attribute (split at `;` outside parentheses and quotes). */
function inlineDeclarations(style: string): Declaration[] {
  const declarations: Declaration[] = [];
  let depth = 0;
  let quote = '';
  let start = 0;
  const take = (end: number): void => {
    const text = style.slice(start, end);
    const colon = text.indexOf(':');
    if (colon > 0) declarations.push(...expand(text.slice(0, colon), text.slice(colon + 1), /!\s*important\s*$/i.test(text)));
    start = end + 1;
  };
  for (let index = 0; index < style.length; index += 1) {
    const character = style[index]!;
    if (quote) {
      if (character === quote) quote = '';
    } else if (character === '"' || character === "'") quote = character;
    else if (character === '(') depth += 1;
    else if (character === ')') depth = Math.max(0, depth - 1);
    else if (character === ';' && depth === 0) take(index);
  }
  take(style.length);
  return declarations;
}

/** Where a media query list applies: everywhere the screen is concerned, sometimes, or only in print. */
function mediaScope(query: string | null): 'always' | 'sometimes' | 'never' {
  const text = (query ?? '').trim().toLowerCase();
  if (text === '' || /^(?:only\s+)?(?:screen|all)(?:\s*,\s*(?:only\s+)?(?:screen|all|print))*$/.test(text)) return 'always';
  const queries = text.split(',').map((part) => part.trim());
  if (queries.every((part) => /^(?:only\s+)?(?:print|speech)\b/.test(part))) return 'never';
  return 'sometimes';
}

/** Top-level commas of a selector list. */
function splitSelectors(list: string): string[] {
  const items: string[] = [];
  let depth = 0;
  let start = 0;
  for (let index = 0; index < list.length; index += 1) {
    const character = list[index];
    if (character === '(' || character === '[') depth += 1;
    else if (character === ')' || character === ']') depth -= 1;
    else if (character === ',' && depth === 0) {
      items.push(list.slice(start, index).trim());
      start = index + 1;
    }
  }
  items.push(list.slice(start).trim());
  return items.filter(Boolean);
}

/** Specificity as one number (ids, then classes/attributes/pseudo-classes, then types), approximately. */
function specificityOf(selector: string): number {
  const plain = selector
    .replace(/:where\((?:[^()]|\([^()]*\))*\)/gi, '')
    .replace(/:(?:not|is|has|matches)\(/gi, ' ')
    .replace(/\[[^\]]*\]/g, '.a')
    .replace(/[()]/g, ' ');
  const ids = plain.match(/#[\w-]+/g)?.length ?? 0;
  const classes = (plain.match(/\.[\w-]+/g)?.length ?? 0) + (plain.match(/:[\w-]+/g)?.length ?? 0);
  const types = plain.match(/(?:^|[\s>+~])[a-zA-Z][\w-]*/g)?.length ?? 0;
  return ids * 1_000_000 + classes * 1_000 + types;
}

const PSEUDO_ELEMENT = /::|:(?:before|after|first-line|first-letter|marker|placeholder|selection)\b/i;
/** Pseudo-classes that only a user action or the URL makes true: rules with them are for another state. */
const STATEFUL_PSEUDO = /:(?:hover|active|focus|focus-visible|focus-within|target|visited|checked)\b/i;

/**
 * The key a selector's subject (rightmost compound) is filed under: `#id`, `.class` or a tag, lower
 * case (`subjectKey` of selector-index.ts); `*` when it names none of these (escaped names, a bare
 * attribute condition, `:first-child`): such rules are tested on every element.
 */
function ruleSubjectKey(selector: string): string {
  const key = subjectKey(selector, (name) => name.toLowerCase());
  return key === null || key.startsWith('@') ? '*' : key;
}

const NO_RULES: StyleRule[] = [];
const NO_DECLARATIONS: Declaration[] = [];

/** Rules filed by subject key, so an element is tested only against rules that could match it. */
class RuleIndex {
  private readonly byKey = new Map<string, StyleRule[]>();
  size = 0;

  add(rule: StyleRule): void {
    const key = ruleSubjectKey(rule.selector);
    const list = this.byKey.get(key) ?? [];
    list.push(rule);
    this.byKey.set(key, list);
    this.size += 1;
  }

  /** The rules that match `element` (selectors that throw are dropped). */
  matching(element: Element): StyleRule[] {
    if (this.size === 0) return NO_RULES;
    const keys = ['*', element.localName.toLowerCase()];
    if (element.hasAttributes()) {
      const id = element.getAttribute('id');
      if (id) keys.push(`#${id.toLowerCase()}`);
      const classes = element.getAttribute('class');
      if (classes) for (const name of new Set(classes.toLowerCase().split(/\s+/))) if (name) keys.push(`.${name}`);
    }
    if (keys.every((key) => !this.byKey.has(key))) return NO_RULES;
    const matched: StyleRule[] = [];
    for (const key of keys) {
      for (const rule of this.byKey.get(key) ?? []) {
        try {
          if (element.matches(rule.selector)) matched.push(rule);
        } catch {
          // A selector this DOM cannot evaluate (vendor pseudo-classes): it decides nothing.
        }
      }
    }
    return matched;
  }
}

/** The page's `<style>` rules that the judge reads: every rule, and those that may hide. */
function readStyleRules(styles: Iterable<Element>): { all: RuleIndex; hiding: RuleIndex } {
  const all = new RuleIndex();
  const hiding = new RuleIndex();
  let order = 0;
  const readRule = (node: Rule, scope: 'always' | 'sometimes', layered: boolean): void => {
    let declarations: Declaration[] = [];
    node.each((child) => {
      if (child.type === 'decl') declarations.push(...expand(child.prop, child.value, child.important === true));
    });
    // Under a condition a rule may only un-hide: its hiding declarations are dropped.
    if (scope === 'sometimes') declarations = declarations.filter((declaration) => !mayHide(declaration));
    if (declarations.length === 0) return;
    const hides = declarations.some(mayHide);
    for (const selector of splitSelectors(node.selector)) {
      if (PSEUDO_ELEMENT.test(selector)) continue;
      if (hides && STATEFUL_PSEUDO.test(selector)) continue;
      order += 1;
      const rule = { selector, specificity: specificityOf(selector), order, layered, declarations };
      all.add(rule);
      if (hides) hiding.add(rule);
    }
  };
  // Rules in sheet order, at-rules entered where they stand; an explicit stack, not recursion
  // (a sheet can nest @media/@supports thousands deep).
  const visit = (root: Container, rootScope: 'always' | 'sometimes'): void => {
    const stack: { nodes: ChildNode[]; next: number; scope: 'always' | 'sometimes'; layered: boolean }[] = [
      { nodes: root.nodes ?? [], next: 0, scope: rootScope, layered: false },
    ];
    while (stack.length > 0) {
      const frame = stack[stack.length - 1]!;
      const node = frame.nodes[frame.next];
      if (!node) {
        stack.pop();
        continue;
      }
      frame.next += 1;
      if (node.type === 'rule') readRule(node, frame.scope, frame.layered);
      if (node.type !== 'atrule') continue;
      const name = node.name.toLowerCase();
      if (!node.nodes || /keyframes|font-face|page|counter-style|property/.test(name)) continue;
      // A cascade layer always applies; its rules only rank below unlayered ones (`cascade`).
      const layer = name === 'layer';
      const inner = name === 'media' ? mediaScope(node.params) : layer ? 'always' : 'sometimes';
      const scope = inner === 'always' ? frame.scope : 'sometimes';
      if (inner !== 'never') stack.push({ nodes: node.nodes, next: 0, scope, layered: frame.layered || layer });
    }
  };
  for (const style of styles) {
    const scope = mediaScope(style.getAttribute('media'));
    if (scope === 'never') continue;
    try {
      visit(parse(style.textContent ?? ''), scope);
    } catch {
      // PostCSS recovers from most broken CSS; a sheet it rejects hides nothing.
    }
  }
  return { all, hiding };
}

/**
 * The declared values that win for `element` (rules by importance, cascade layer, specificity,
 * order; inline style). Rules inside `@layer` lose to unlayered rules of the same importance
 * whatever their specificity (CSS Cascade 5); `!important` in a layer is ranked like any
 * `!important`, which can only keep text that the browser hides.
 */
function cascade(element: Element, rules: RuleIndex, inline: Declaration[]): Map<string, string> {
  const entries: { declaration: Declaration; layer: number; rank: number; order: number }[] = [];
  for (const rule of rules.matching(element)) {
    for (const declaration of rule.declarations) {
      entries.push({ declaration, layer: rule.layered && !declaration.important ? 0 : 1, rank: rule.specificity, order: rule.order });
    }
  }
  // Inline style beats every selector; `!important` beats everything not important.
  for (const declaration of inline) entries.push({ declaration, layer: 1, rank: Number.MAX_SAFE_INTEGER, order: 0 });
  entries.sort(
    (a, b) =>
      Number(a.declaration.important) - Number(b.declaration.important) || a.layer - b.layer || a.rank - b.rank || a.order - b.order,
  );
  const values = new Map<string, string>();
  for (const { declaration } of entries) values.set(declaration.property, declaration.value);
  return values;
}

/**
 * The judge for a document without layout: inline styles and the page's `<style>` rules (see
 * the file comment for what hides and what is left alone). Rules are parsed once; elements are
 * judged on demand and memoized, and an element no hiding rule or style could touch costs a
 * few map look-ups. `styles` are the page's `<style>` elements, when the caller has them.
 */
export function styleRuleVisibility(document: Document, styles: Iterable<Element> = elementsByTag(document, 'style')): VisibilityJudge {
  const { all, hiding } = readStyleRules(styles);
  // Maps, not WeakMaps: the judge lives for one capture, and weak keys cost the garbage
  // collector far more on a page of 100,000 elements.
  const inlineMemo = new Map<Element, Declaration[]>();
  const valuesMemo = new Map<Element, Map<string, string>>();
  const verdicts = new Map<Element, boolean>();
  const resets = resetMemos();
  // A tiny (not zero) font size is set back by other values than a zero one is: its own memo.
  const tinyResets = new Map<Element, boolean>();
  const inlineOf = (element: Element): Declaration[] => {
    if (!element.hasAttributes()) return NO_DECLARATIONS;
    let declarations = inlineMemo.get(element);
    if (!declarations) {
      const style = element.getAttribute('style');
      declarations = style ? inlineDeclarations(style) : [];
      inlineMemo.set(element, declarations);
    }
    return declarations;
  };
  const valuesOf = (element: Element): Map<string, string> => {
    let values = valuesMemo.get(element);
    if (!values) {
      values = cascade(element, all, inlineOf(element));
      valuesMemo.set(element, values);
    }
    return values;
  };
  /** The custom property `name` as `element` inherits it (custom properties inherit), or undefined. */
  const customProperty = (element: Element, name: string): string | undefined => {
    for (let current: Element | null = element; current; current = current.parentElement) {
      const value = valuesOf(current).get(name);
      if (value !== undefined && value !== 'inherit') return value;
    }
    return undefined;
  };
  /**
   * `valuesOf` with `var(--name, fallback)` substituted in the read properties (nested custom
   * properties up to eight deep); a reference to nothing leaves the value unknown (`unset`).
   */
  const resolvedValuesOf = (element: Element): Map<string, string> => {
    const values = valuesOf(element);
    if (![...values].some(([property, value]) => !property.startsWith('--') && value.includes('var('))) return values;
    const resolved = new Map(values);
    for (const [property, value] of values) {
      if (property.startsWith('--') || !value.includes('var(')) continue;
      let text = value;
      for (let depth = 0; depth < 8 && text.includes('var('); depth += 1) {
        text = text.replace(/var\(\s*(--[^,\s)]+)\s*(?:,\s*([^()]*(?:\([^()]*\)[^()]*)*))?\)/g, (_, name: string, fallback?: string) => {
          return customProperty(element, name) ?? fallback?.trim() ?? 'unset';
        });
      }
      resolved.set(property, text.includes('var(') ? 'unset' : cleanValue(text));
    }
    return resolved;
  };
  /** True when a descendant declares `property` with a value that does not hide. */
  const resetBelow = (
    element: Element,
    property: InheritedProperty,
    hides: (value: string) => boolean,
    memo: Map<Element, boolean> = resets[property],
  ): boolean => {
    return someDescendantMemo(
      element,
      (descendant) => {
        const value = valuesOf(descendant).get(property);
        return value !== undefined && value !== 'inherit' && value !== 'unset' && !hides(value);
      },
      memo,
    );
  };
  const judge = (element: Element): boolean => {
    const tag = element.localName.toLowerCase();
    if (tag === 'html' || tag === 'body') return false;
    if (!inlineOf(element).some(mayHide) && hiding.matching(element).length === 0) return false;
    const values = resolvedValuesOf(element);
    const display = values.get('display');
    if (display === 'none' || values.get('content-visibility') === 'hidden') return true;
    const opacity = values.get('opacity');
    if (isZeroOpacity(opacity) || isFaintOpacity(opacity)) return true;
    const position = values.get('position');
    const positioned = position === 'absolute' || position === 'fixed';
    if (positioned && clipHides(values.get('clip'))) return true;
    const clipPath = values.get('clip-path');
    if (clipPathHides(clipPath) || polygonHides(clipPath)) return true;
    if (positioned && [values.get('left'), values.get('top')].some((offset) => (pixels(offset) ?? 0) <= OFF_SCREEN_OFFSET)) return true;
    const boxDisplay = display ?? (BLOCK_TAGS.has(tag) ? 'block' : undefined);
    // Transforms do not apply to inline boxes: an element whose display is unknown is not judged.
    const boxed = positioned || (boxDisplay !== undefined && boxDisplay !== 'inline' && boxDisplay !== 'contents');
    if (boxed && transformHides(values.get('transform'))) return true;
    if (zeroBox(values, boxDisplay, positioned)) return true;
    const hiddenVisibility = (value: string): boolean => value === 'hidden' || value === 'collapse';
    const visibility = values.get('visibility');
    if (visibility && hiddenVisibility(visibility) && !resetBelow(element, 'visibility', hiddenVisibility)) return true;
    // A relative size (em, %) of zero is still zero: only other sizes set the text back.
    const zeroFont = (value: string): boolean => isZeroLength(value) || /^[\d.]+(?:em|%)$/.test(value);
    const fontSize = values.get('font-size');
    if (isZeroLength(fontSize) && !resetBelow(element, 'font-size', zeroFont)) return true;
    // At most 1em of a tiny size is still tiny; a larger relative size may be readable.
    const tinyFont = (value: string): boolean => {
      const relative = /^(\d*\.?\d+)(em|%)$/.exec(value);
      return isTinyFont(value) || (relative !== null && Number(relative[1]) / (relative[2] === '%' ? 100 : 1) <= 1);
    };
    if (isTinyFont(fontSize) && !resetBelow(element, 'font-size', tinyFont, tinyResets)) return true;
    const pushedOut = (value: string): boolean => (pixels(value) ?? 0) <= OFF_SCREEN_INDENT;
    const indent = values.get('text-indent');
    return indent !== undefined && pushedOut(indent) && !resetBelow(element, 'text-indent', pushedOut);
  };
  return (element) => {
    let verdict = verdicts.get(element);
    if (verdict === undefined) {
      verdict = judge(element);
      verdicts.set(element, verdict);
    }
    return verdict;
  };
}

/** A zero width or height whose overflow is clipped and that no padding opens (not for inline boxes). */
function zeroBox(values: Map<string, string>, display: string | undefined, positioned: boolean): boolean {
  const clipped = [values.get('overflow-x'), values.get('overflow-y')].some((value) => value === 'hidden' || value === 'clip');
  if (!clipped) return false;
  // Width and height do not apply to inline boxes: an element whose display is unknown (a <span>
  // without `display`) is not judged.
  const boxed = positioned || (display !== undefined && display !== 'inline' && display !== 'contents');
  if (!boxed) return false;
  const padding = ['padding', 'padding-top', 'padding-right', 'padding-bottom', 'padding-left'].some((property) => {
    const value = values.get(property);
    return value !== undefined && !value.split(/\s+/).every(isZeroLength);
  });
  if (padding) return false;
  return ['width', 'height', 'max-width', 'max-height'].some((property) => isZeroLength(values.get(property)));
}
