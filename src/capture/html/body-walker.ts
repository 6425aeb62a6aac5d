/**
 * The read-only walk that turns a content root into Article blocks.
 *
 * Each element is one of: ignored (scripts, hidden by markup or CSS, excluded selectors), a heading (sets the
 * section of what follows), a table (one `table` block, rows on lines, cells split by tabs), a
 * caption, a figure (only its caption and tables are read: image labels and "Download slide"
 * links are noise), or a container. In a container, runs of text and inline elements between
 * block children become one paragraph each, so a `<div>` holding only text is one paragraph and
 * a `<section>` holding `<p>`s is several.
 *
 * Back matter (references, "Cited by", metrics, author information…) is recognized by its
 * heading: when the heading opens its own container, the rest of that container is left out;
 * in a flat page, nothing is emitted until a heading of the same or a higher level appears.
 * That is more robust across publishers than per-site selectors alone, which are used too
 * (`exclude`), because the heading text is what readers see and rarely changes.
 */
import type { ArticleBuilder } from '../article-builder';
import { countDescendants, findDescendant, someDescendantMemo, walkElements } from '../tree-walk';
import { selectAll } from './selector-index';
import {
  ABSTRACT_HEADING,
  BACK_MATTER_HEADING,
  BARE_CAPTION_LABEL,
  BULLET,
  CAPTION_HEADING,
  PAGE_CONTROL_TEXT,
  MAX_LABEL_CHARS,
  MAX_TERM_CHARS,
  backMatterContainer,
  isDataTable,
} from './block-rules';
import { BLOCK_TAGS, compactText, headingLevel, inClosedDetails, isElement, isIgnorable, isText, tagOf, visibleText } from './dom-text';
import { NOTHING_HIDDEN, type VisibilityJudge } from './visibility';

/** The elements a walk's rules select, resolved once (`selectAll`); `excluded` is the `exclude` rule's matches. */
export interface WalkSelections {
  excluded: ReadonlySet<Element>;
  captions: ReadonlySet<Element>;
  sectionHeadings: ReadonlySet<Element>;
  figures: ReadonlySet<Element>;
}

/** Resolve the selectors of `rules` in `scope` in one walk (see `selectAll`). */
export function selectWalkElements(scope: Element | Document, rules: WalkRules): WalkSelections {
  const [excluded, captions, sectionHeadings, figures] = selectAll(scope, [
    rules.exclude,
    rules.caption,
    rules.sectionHeading,
    rules.figure,
  ]);
  return { excluded: excluded!, captions: captions!, sectionHeadings: sectionHeadings!, figures: figures! };
}

export interface WalkRules {
  /** Elements left out with their whole subtree (navigation, author lists, reference lists…). */
  exclude: string;
  /** Caption elements besides `figcaption` and `caption`. */
  caption: string;
  /** Section-title elements besides `h1`–`h6`. */
  sectionHeading: string;
  /** Figure containers besides `figure`. */
  figure: string;
  /** The article title, so a repeated title heading is not emitted as a section. */
  title: string | null;
}

/** A container being read: the next child to read and the inline text run so far. */
interface ContainerFrame {
  element: Element;
  inFigure: boolean;
  next: Node | null;
  run: string;
}

export class BodyWalker {
  private section: string | undefined;
  /** While set, we are inside back matter opened by a heading of this level. */
  private skipLevel: number | undefined;
  /** A back-matter container whose heading was just read: the rest of it is left out. */
  private skipContainer: Element | undefined;
  /** `someDescendantMemo` answers: "holds a block element" and "holds a figure part that is not a heading". */
  private readonly blockBelow = new Map<Element, boolean>();
  private readonly captionPartBelow = new Map<Element, boolean>();
  private readonly dataTables = new Map<Element, boolean>();
  /** The containers being read, innermost last (the walk keeps its own stack: pages nest deeper than the call stack). */
  private frames: ContainerFrame[] = [];
  private readonly normalizedTitle: string | null;
  /**
   * A short run held back to lead the next paragraph: a list or footnote label ("a", "(i)"), a
   * nomenclature term (`<dt>`), so that "LP" and "loading path" become one block "LP loading path".
   */
  private pendingLabel = '';
  /** Set by `readAs`: every block gets this section and headings are not emitted. */
  private fixedSection: string | undefined;

  // Selector matches are collected once per walk (`selectAll`, one tree pass) rather than tested
  // with `matches()` per element: the exclusion lists are long and every element is visited.
  private readonly excluded: ReadonlySet<Element>;
  private readonly captions: ReadonlySet<Element>;
  private readonly sectionHeadings: ReadonlySet<Element>;
  private readonly figures: ReadonlySet<Element>;

  constructor(
    private readonly builder: ArticleBuilder,
    rules: WalkRules,
    /** Elements already read (the abstract): left out of this walk. */
    private readonly alreadyRead: ReadonlySet<Element>,
    /**
     * The document (or subtree) the walked roots belong to, where the rules' selectors are
     * resolved; or the selections already resolved in a scope holding the walked roots.
     */
    scope: Element | Document | WalkSelections,
    /** Elements the page hides with CSS (`visibility.ts`): left out with their subtree. */
    private readonly isHidden: VisibilityJudge = NOTHING_HIDDEN,
  ) {
    this.normalizedTitle = rules.title ? squash(rules.title) : null;
    const { excluded, captions, sectionHeadings, figures } = 'excluded' in scope ? scope : selectWalkElements(scope, rules);
    this.captions = captions;
    // A caption is read even when a broad exclusion covers it (Wiley writes table captions as
    // <header class="article-table-caption">, and every <header> is excluded as page furniture).
    this.excluded = new Set([...excluded].filter((element) => !captions.has(element)));
    this.sectionHeadings = sectionHeadings;
    this.figures = figures;
  }

  /** Walk one content root, appending blocks to the builder in reading order. */
  walk(root: Element): void {
    this.readContainers(root, false);
    this.releaseLabel();
  }

  /**
   * Read one element as a fixed section (the abstract): its own headings ("Abstract",
   * "Background", …) are not emitted and do not change the section; back-matter headings
   * inside it ("Keywords") still end what is read.
   */
  readAs(root: Element, section: string): void {
    this.fixedSection = section;
    this.section = section;
    this.readContainers(root, false);
    this.releaseLabel();
  }

  private skipped(element: Element): boolean {
    return this.excluded.has(element) || this.alreadyRead.has(element) || isIgnorable(element) || this.isHidden(element);
  }

  /** True for elements that break the text flow: block tags, or inline tags that contain blocks. */
  private isBlock(element: Element): boolean {
    return this.isOwnBlock(element) || someDescendantMemo(element, (inner) => this.isOwnBlock(inner), this.blockBelow);
  }

  private isOwnBlock(element: Element): boolean {
    return BLOCK_TAGS.has(tagOf(element)) || this.isHeading(element) || this.isCaption(element);
  }

  private isDataTable(table: Element): boolean {
    let verdict = this.dataTables.get(table);
    if (verdict === undefined) {
      verdict = isDataTable(table);
      this.dataTables.set(table, verdict);
    }
    return verdict;
  }

  private isHeading(element: Element): boolean {
    return headingLevel(element) !== undefined || this.sectionHeadings.has(element);
  }

  private isCaption(element: Element): boolean {
    const tag = tagOf(element);
    return tag === 'figcaption' || tag === 'caption' || this.captions.has(element);
  }

  private isFigure(element: Element): boolean {
    return tagOf(element) === 'figure' || this.figures.has(element);
  }

  /** Text of an inline run, leaving out skipped descendants. */
  private runText(node: Node): string {
    return visibleText(node, (element) => this.skipped(element));
  }

  /**
   * Read one block child. Headings, tables, captions and figures are read here; a container is
   * pushed on `frames`, to be read by the loop of `readContainers`.
   */
  private visit(element: Element, inFigure: boolean): void {
    if (this.skipped(element)) return;
    if (this.isHeading(element)) return this.visitHeading(element);
    if (this.skipLevel !== undefined) {
      // In back matter: emit nothing, but keep looking for the heading that ends it.
      if (this.isBlock(element) && tagOf(element) !== 'table') this.pushContainer(element, inFigure);
      return;
    }
    if (tagOf(element) === 'table') {
      if (this.isDataTable(element)) return this.visitTable(element);
      const isRow = (inner: Element): boolean => tagOf(inner) === 'tr';
      if (countDescendants(element, isRow, 2) === 1 && !findDescendant(element, (inner) => tagOf(inner) === 'p')) {
        // A one-row layout table is a numbered equation ("H = H0 exp[−γt]" | "(1)"): one paragraph.
        this.addText(inFigure ? 'caption' : 'paragraph', this.runText(element));
        return;
      }
    }
    if (this.isCaption(element)) {
      this.addText('caption', this.runText(element));
      return;
    }
    if (this.isFigure(element)) return this.visitFigure(element);
    this.pushContainer(element, inFigure);
  }

  private pushContainer(element: Element, inFigure: boolean): void {
    this.frames.push({ element, inFigure, next: element.firstChild, run: '' });
  }

  /**
   * Read `root` as a container and everything it holds, in reading order: runs of text and
   * inline elements between block children become paragraphs (captions inside a figure), block
   * children are read by `visit`. A loop over an explicit stack of containers, so any nesting
   * depth is read without recursion.
   */
  private readContainers(root: Element, inFigure: boolean): void {
    const frames = this.frames;
    const base = frames.length;
    this.pushContainer(root, inFigure);
    while (frames.length > base) {
      const frame = frames[frames.length - 1]!;
      const child = frame.next;
      if (!child) {
        this.flush(frame);
        frames.pop();
        this.childRead(base);
        continue;
      }
      frame.next = child.nextSibling;
      if (isText(child)) {
        if (!inClosedDetails(child)) frame.run += child.nodeValue ?? '';
        continue;
      }
      if (!isElement(child)) continue;
      if (tagOf(child) === 'img') {
        frame.run += this.runText(child);
        continue;
      }
      if (this.skipped(child)) continue;
      if (!this.isBlock(child)) {
        frame.run += tagOf(child) === 'br' ? ' ' : this.runText(child);
        continue;
      }
      this.flush(frame);
      const depth = frames.length;
      this.visit(child, frame.inFigure);
      // A container child is read later by this loop; anything else has been read now.
      if (frames.length === depth) this.childRead(base);
    }
  }

  /**
   * A block child of the innermost container has been read. When it was a back-matter heading
   * that opens that container (`skipContainer`), the rest of the container is left out.
   */
  private childRead(base: number): void {
    const frame = this.frames[this.frames.length - 1];
    if (this.frames.length <= base || !frame || this.skipContainer !== frame.element) return;
    this.skipContainer = undefined;
    this.frames.pop();
  }

  /** Emit a container's pending run of inline text as a paragraph (a caption inside a figure). */
  private flush(frame: ContainerFrame): void {
    if (frame.run.trim() && this.skipLevel === undefined) {
      this.addText(frame.inFigure ? 'caption' : 'paragraph', frame.run, tagOf(frame.element) === 'dt');
    }
    frame.run = '';
  }

  /** Add a paragraph or caption, holding back labels and dropping bare bullets. */
  private addText(kind: 'paragraph' | 'caption', raw: string, isTerm = false): void {
    // A stray separator left by a label ("<b>:</b> Volatile metabolites…") is not text.
    const text = raw
      .replace(/\s+/g, ' ')
      .trim()
      .replace(/^[:;,]\s+/, '');
    if (!text || BULLET.test(text) || PAGE_CONTROL_TEXT.test(text)) return;
    // A bare caption label ("Table 1.") leads the caption text that follows it (PMC), unless
    // that caption repeats the label itself (ACS 2023: "Figure 1", then "Figure 1. Flowchart…").
    if (
      text.length <= MAX_LABEL_CHARS ||
      (isTerm && text.length <= MAX_TERM_CHARS) ||
      (kind === 'caption' && BARE_CAPTION_LABEL.test(text))
    ) {
      this.pendingLabel = this.pendingLabel ? `${this.pendingLabel} ${text}` : text;
      return;
    }
    const repeatsLabel = this.pendingLabel !== '' && squash(text).startsWith(squash(this.pendingLabel));
    this.builder.add(kind, this.pendingLabel && !repeatsLabel ? `${this.pendingLabel} ${text}` : text, { section: this.section });
    this.pendingLabel = '';
  }

  /** Emit a held label on its own before a block it cannot lead (heading, table). */
  private releaseLabel(): void {
    if (!this.pendingLabel) return;
    if (this.skipLevel === undefined) this.builder.add('paragraph', this.pendingLabel, { section: this.section });
    this.pendingLabel = '';
  }

  private visitHeading(element: Element): void {
    const text = compactText(element, (inner) => this.skipped(inner));
    if (!text) return;
    const level = headingLevel(element) ?? 3;
    if (this.skipLevel !== undefined) {
      if (level > this.skipLevel) return;
      this.skipLevel = undefined;
    }
    if (BACK_MATTER_HEADING.test(text)) {
      // A heading that opens its own container ("<div class=keywords><h3>Keywords</h3>…</div>")
      // ends with that container; a heading in a flat page runs to the next heading of its level.
      const container = backMatterContainer(element, level);
      if (container) this.skipContainer = container;
      else this.skipLevel = level;
      return;
    }
    if (this.fixedSection !== undefined) return;
    this.releaseLabel();
    if (CAPTION_HEADING.test(text)) {
      this.addText('caption', text);
      return;
    }
    if (this.normalizedTitle && squash(text) === this.normalizedTitle) return;
    if (ABSTRACT_HEADING.test(text)) {
      // The abstract itself was read first; its heading only names the section that follows.
      this.section = 'Abstract';
      return;
    }
    this.section = text;
    this.builder.add('heading', text, { section: text });
  }

  /** A figure part: a data table, a caption, or a heading (a caption title on old pages). */
  private isFigurePart(element: Element): boolean {
    return tagOf(element) === 'table' ? this.isDataTable(element) : this.isCaption(element) || headingLevel(element) !== undefined;
  }

  private visitFigure(element: Element): void {
    // Image and equation tables (old RSC pages put every figure in a <table>) are not parts: their captions are.
    // Headings inside a figure ("Figure 2: TEM images…" on old Nature pages) are caption titles.
    const captionPart = (part: Element): boolean => this.isFigurePart(part) && headingLevel(part) === undefined;
    if (!someDescendantMemo(element, captionPart, this.captionPartBelow)) {
      // No marked caption (old pages put the caption in a <p> next to the image, under a
      // "Figure 2: …" heading): read all the figure's text as caption.
      this.pushContainer(element, true);
      return;
    }
    // The outermost parts, in document order; parts inside skipped elements are left out.
    const parts: Element[] = [];
    walkElements(element, (inner) => {
      if (this.skipped(inner)) return false;
      if (!this.isFigurePart(inner)) return true;
      parts.push(inner);
      return false;
    });
    for (const part of parts) {
      if (tagOf(part) === 'table') this.visitTable(part);
      else if (headingLevel(part) !== undefined && !CAPTION_HEADING.test(compactText(part))) continue;
      else this.addText('caption', this.runText(part));
    }
  }

  private visitTable(table: Element): void {
    this.releaseLabel();
    for (let caption = table.firstElementChild; caption; caption = caption.nextElementSibling) {
      if (tagOf(caption) === 'caption') this.addText('caption', this.runText(caption));
    }
    this.releaseLabel();
    // Rows of this table (not of a table inside it), unless they or a wrapper below the table are skipped.
    const rows: Element[] = [];
    walkElements(table, (element) => {
      if (this.skipped(element) || tagOf(element) === 'table') return false;
      if (tagOf(element) === 'tr') rows.push(element);
      return true;
    });
    const lines = rows.map((row) => {
      const cells: string[] = [];
      for (let cell = row.firstElementChild; cell; cell = cell.nextElementSibling) {
        // Tabs and newlines inside a cell would break the row/cell structure.
        if (/^t[dh]$/.test(tagOf(cell)) && !this.skipped(cell)) cells.push(this.runText(cell).replace(/\s+/g, ' ').trim());
      }
      return cells.join('\t');
    });
    this.builder.add('table', lines.join('\n'), { section: this.section, preserveLines: true });
  }
}

function squash(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}
