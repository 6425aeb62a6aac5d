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
import { BLOCK_TAGS, childNodesOf, compactText, headingLevel, isElement, isIgnorable, isText, tagOf, visibleText } from './dom-text';
import { NOTHING_HIDDEN, type VisibilityJudge } from './visibility';

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

export class BodyWalker {
  private section: string | undefined;
  /** While set, we are inside back matter opened by a heading of this level. */
  private skipLevel: number | undefined;
  /** A back-matter container whose heading was just read: the rest of it is left out. */
  private skipContainer: Element | undefined;
  private readonly blockMemo = new WeakMap<Element, boolean>();
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
    /** The document (or subtree) the walked roots belong to; selectors are resolved in it. */
    scope: ParentNode,
    /** Elements the page hides with CSS (`visibility.ts`): left out with their subtree. */
    private readonly isHidden: VisibilityJudge = NOTHING_HIDDEN,
  ) {
    this.normalizedTitle = rules.title ? squash(rules.title) : null;
    const [excluded, captions, sectionHeadings, figures] = selectAll(scope, [
      rules.exclude,
      rules.caption,
      rules.sectionHeading,
      rules.figure,
    ]);
    this.captions = captions ?? new Set();
    // A caption is read even when a broad exclusion covers it (Wiley writes table captions as
    // <header class="article-table-caption">, and every <header> is excluded as page furniture).
    this.excluded = new Set([...(excluded ?? [])].filter((element) => !this.captions.has(element)));
    this.sectionHeadings = sectionHeadings ?? new Set();
    this.figures = figures ?? new Set();
  }

  /** Walk one content root, appending blocks to the builder in reading order. */
  walk(root: Element): void {
    this.visitContainer(root, false);
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
    this.visitContainer(root, false);
    this.releaseLabel();
  }

  private skipped(element: Element): boolean {
    return this.excluded.has(element) || this.alreadyRead.has(element) || isIgnorable(element) || this.isHidden(element);
  }

  /** True for elements that break the text flow: block tags, or inline tags that contain blocks. */
  private isBlock(element: Element): boolean {
    const memo = this.blockMemo.get(element);
    if (memo !== undefined) return memo;
    let block = BLOCK_TAGS.has(tagOf(element)) || this.isHeading(element) || this.isCaption(element);
    if (!block) {
      for (let child = element.firstElementChild; child; child = child.nextElementSibling) {
        if (this.isBlock(child)) {
          block = true;
          break;
        }
      }
    }
    this.blockMemo.set(element, block);
    return block;
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

  private visit(element: Element, inFigure: boolean): void {
    if (this.skipped(element)) return;
    if (this.isHeading(element)) return this.visitHeading(element);
    if (this.skipLevel !== undefined) {
      // In back matter: emit nothing, but keep looking for the heading that ends it.
      if (this.isBlock(element) && tagOf(element) !== 'table') this.visitContainer(element, inFigure);
      return;
    }
    if (tagOf(element) === 'table') {
      if (isDataTable(element)) return this.visitTable(element);
      if (element.getElementsByTagName('tr').length === 1 && element.getElementsByTagName('p').length === 0) {
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
    this.visitContainer(element, inFigure);
  }

  /** Emit inline runs between block children as paragraphs (captions inside a figure). */
  private visitContainer(element: Element, inFigure: boolean): void {
    let run = '';
    const flush = (): void => {
      if (run.trim() && this.skipLevel === undefined) this.addText(inFigure ? 'caption' : 'paragraph', run, tagOf(element) === 'dt');
      run = '';
    };
    for (const child of childNodesOf(element)) {
      if (isText(child)) {
        run += child.nodeValue ?? '';
      } else if (isElement(child)) {
        if (tagOf(child) === 'img') {
          run += this.runText(child);
          continue;
        }
        if (this.skipped(child)) continue;
        if (this.isBlock(child)) {
          flush();
          this.visit(child, inFigure);
          if (this.skipContainer === element) {
            this.skipContainer = undefined;
            run = '';
            return;
          }
        } else {
          run += tagOf(child) === 'br' ? ' ' : this.runText(child);
        }
      }
    }
    flush();
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

  private visitFigure(element: Element): void {
    // Image and equation tables (old RSC pages put every figure in a <table>) are not parts: their captions are.
    // Headings inside a figure ("Figure 2: TEM images…" on old Nature pages) are caption titles.
    const parts = [...element.getElementsByTagName('*')].filter((part) =>
      tagOf(part) === 'table' ? isDataTable(part) : this.isCaption(part) || headingLevel(part) !== undefined,
    );
    if (!parts.some((part) => headingLevel(part) === undefined)) {
      // No marked caption (old pages put the caption in a <p> next to the image, under a
      // "Figure 2: …" heading): read all the figure's text as caption.
      this.visitContainer(element, true);
      return;
    }
    for (const part of parts) {
      if (parts.some((other) => other !== part && other.contains(part))) continue;
      if (this.skippedWithin(part, element)) continue;
      if (tagOf(part) === 'table') this.visitTable(part);
      else if (headingLevel(part) !== undefined && !CAPTION_HEADING.test(compactText(part))) continue;
      else this.addText('caption', this.runText(part));
    }
  }

  /** True when `element` or one of its ancestors below `root` is skipped. */
  private skippedWithin(element: Element, root: Element): boolean {
    for (let current: Element | null = element; current && current !== root; current = current.parentElement) {
      if (this.skipped(current)) return true;
    }
    return false;
  }

  private visitTable(table: Element): void {
    this.releaseLabel();
    for (const caption of table.children) if (tagOf(caption) === 'caption') this.addText('caption', this.runText(caption));
    this.releaseLabel();
    const rows = [...table.getElementsByTagName('tr')].filter((row) => row.closest('table') === table && !this.skippedWithin(row, table));
    const lines = rows.map((row) =>
      [...row.children]
        .filter((cell) => /^t[dh]$/.test(tagOf(cell)) && !this.skipped(cell))
        // Tabs and newlines inside a cell would break the row/cell structure.
        .map((cell) => this.runText(cell).replace(/\s+/g, ' ').trim())
        .join('\t'),
    );
    this.builder.add('table', lines.join('\n'), { section: this.section, preserveLines: true });
  }
}

function squash(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}
