/** Synthetic text runs for layout tests: widths at 0.5 em per character (a Times-like average). */
import type { TextFragment } from '../../../../src/capture/pdf/text-lines';

export function fragment(text: string, x: number, y: number, fontSize = 10, extra: Partial<TextFragment> = {}): TextFragment {
  return { text, x, y, width: text.length * fontSize * 0.5, fontSize, fontName: 'F1', rotated: false, ...extra };
}

/** A column of `count` lines of body text, 12 pt apart, starting at baseline `top`. */
export function column(label: string, x: number, top: number, count: number, fontSize = 10): TextFragment[] {
  return Array.from({ length: count }, (_, index) =>
    fragment(`${label} line ${index + 1} of running body text here`, x, top - index * 12, fontSize),
  );
}
