/**
 * Turns the body of an article in any of the supported XML formats into blocks. The formats
 * differ in element names but share one shape (sections with titles, paragraphs with floats
 * and display formulas embedded in them, figures with captions, tables with captions), so one
 * walker is configured with a `BodyVocabulary` per format.
 *
 * Paragraphs are mixed content: a `<p>` that contains a `<table-wrap>` (JATS), a `<ce:display>`
 * (Elsevier) or a `<figure>` (IOP) is split there, so the float is its own block and the text
 * before and after are paragraphs, in reading order.
 */
import type { ArticleBuilder } from '../article-builder';
import { captionText, tableText } from './float-text';
import { inlineText, type InlineOptions } from './inline-text';
import { someDescendantMemo } from '../tree-walk';
import { childElements } from './xml-dom';

export interface BodyVocabulary {
  /** Elements that open a (sub)section: `sec`, `ce:section`, `sec-level1`… */
  sections: ReadonlySet<string>;
  /** Children of a section that make up its heading (`label`, `title`, `section-title`, `heading`). */
  headingParts: ReadonlySet<string>;
  paragraphs: ReadonlySet<string>;
  figures: ReadonlySet<string>;
  tables: ReadonlySet<string>;
  /** Display formulas: emitted as their own paragraph block. */
  formulas: ReadonlySet<string>;
  /** Block containers walked through (`list`, `ce:display`, `boxed-text`, `fig-group`…). */
  containers: ReadonlySet<string>;
  /** List items: one paragraph each unless they hold floats. */
  listItems: ReadonlySet<string>;
  /** Dropped with their content (`ref-list`, `ce:bibliography`, …). */
  skip: ReadonlySet<string>;
  /** Children of a table that are footnotes, emitted as a caption block after the table. */
  tableFootnotes: ReadonlySet<string>;
  /** Overrides the default heading (heading parts joined) for formats that keep the number in an attribute. */
  heading?: (section: Element, inline: InlineOptions) => string;
}

export interface WalkerHooks {
  /** Called for an element named `float-anchor`: the floats it places, emitted after the enclosing paragraph. */
  anchor?: (anchor: Element) => Element[];
}

/**
 * Work left to do, innermost last: a run of mixed content being read, or the section lock to
 * restore when a section ends. The walker keeps this stack itself instead of recursing, so a
 * document nested thousands of levels deep cannot overflow the call stack.
 */
type Task =
  | { kind: 'mixed'; parent: Element; section: string | undefined; ignore: ReadonlySet<string>; next: Node | null; run: Node[] }
  | { kind: 'unlock'; previous: string | undefined };

export class BlockWalker {
  /** Floats already written, so an anchored float is not written again where it physically sits. */
  readonly emitted = new Set<Element>();
  private pendingFloats: Element[] = [];
  private lockedSection: string | undefined;
  private readonly tasks: Task[] = [];
  /** `someDescendantMemo` answers to "holds a float" (list items). */
  private readonly floatsBelow = new Map<Element, boolean>();

  constructor(
    private readonly builder: ArticleBuilder,
    private readonly vocabulary: BodyVocabulary,
    private readonly inline: InlineOptions = {},
    private readonly hooks: WalkerHooks = {},
  ) {}

  /**
   * Write a section: a heading block (its title, or `defaultHeading` when it has none), then its
   * content with `section` set to that heading. With `lock`, every block inside keeps the
   * section name (an abstract's sub-headings stay in section "Abstract").
   */
  walkSection(section: Element, context: string | undefined, options: { defaultHeading?: string; lock?: boolean } = {}): void {
    const base = this.tasks.length;
    this.startSection(section, context, options);
    this.drain(base);
  }

  /**
   * Walk mixed content: runs of text and inline elements become paragraphs, block-level
   * children become their own blocks. `ignore` names children to pass over (a section's title).
   */
  walkMixed(parent: Element, section: string | undefined, ignore: ReadonlySet<string> = new Set()): void {
    const base = this.tasks.length;
    this.startMixed(parent, section, ignore);
    this.drain(base);
  }

  /** Write one block-level element (see `isBlock`). */
  walkBlock(element: Element, section: string | undefined): void {
    const base = this.tasks.length;
    this.startBlock(element, section);
    this.drain(base);
  }

  /** Write a figure or table: its caption as a caption block, then (tables) the cells and footnotes. */
  writeFloat(float: Element, section: string | undefined): void {
    if (this.emitted.has(float)) return;
    this.emitted.add(float);
    const options = { section: this.sectionName(section) };
    this.builder.add('caption', captionText(float, this.inline), options);
    if (!this.vocabulary.tables.has(float.localName)) return;
    this.builder.add('table', tableText(float, this.inline), { ...options, preserveLines: true });
    for (const footnote of childElements(float).filter((child) => this.vocabulary.tableFootnotes.has(child.localName))) {
      this.builder.add('caption', inlineText([footnote], this.inline), options);
    }
  }

  private startSection(section: Element, context: string | undefined, options: { defaultHeading?: string; lock?: boolean }): void {
    const heading = this.headingOf(section) || options.defaultHeading || '';
    const name = this.lockedSection ?? (heading || context);
    if (heading) this.builder.add('heading', heading, { section: name });
    // Runs after the section's content (the stack is last in, first out).
    this.tasks.push({ kind: 'unlock', previous: this.lockedSection });
    if (options.lock) this.lockedSection = name;
    this.startMixed(section, name, this.vocabulary.headingParts);
  }

  private startMixed(parent: Element, section: string | undefined, ignore: ReadonlySet<string>): void {
    this.tasks.push({ kind: 'mixed', parent, section, ignore, next: parent.firstChild, run: [] });
  }

  /** Write a block now, or queue its content (sections, containers) for `drain`. */
  private startBlock(element: Element, section: string | undefined): void {
    const name = element.localName;
    const vocabulary = this.vocabulary;
    if (vocabulary.skip.has(name)) return;
    if (vocabulary.sections.has(name)) return this.startSection(element, section, {});
    if (vocabulary.figures.has(name) || vocabulary.tables.has(name)) return this.writeFloat(element, section);
    if (vocabulary.formulas.has(name)) {
      this.builder.add('paragraph', inlineText(childNodeList(element), this.inline), { section: this.sectionName(section) });
      return;
    }
    if (vocabulary.listItems.has(name) && !this.holdsFloats(element)) {
      this.builder.add('paragraph', inlineText([element], this.inline), { section: this.sectionName(section) });
      return;
    }
    this.startMixed(element, section, new Set());
  }

  /** Do the queued work down to `base` tasks, in document order. */
  private drain(base: number): void {
    while (this.tasks.length > base) {
      const task = this.tasks[this.tasks.length - 1]!;
      if (task.kind === 'unlock') {
        this.tasks.pop();
        this.lockedSection = task.previous;
        continue;
      }
      const node = task.next;
      if (!node) {
        this.flush(task);
        this.tasks.pop();
        this.emitPendingFloats(task.section);
        continue;
      }
      task.next = node.nextSibling;
      const element = node.nodeType === 1 ? (node as Element) : undefined;
      if (element && task.ignore.has(element.localName)) continue;
      if (element?.localName === 'float-anchor' && this.hooks.anchor) {
        this.pendingFloats.push(...this.hooks.anchor(element));
        continue;
      }
      if (element && this.isBlock(element)) {
        this.flush(task);
        this.startBlock(element, task.section);
      } else {
        task.run.push(node);
      }
    }
  }

  /** Write the run of inline content read so far as one paragraph. */
  private flush(task: Extract<Task, { kind: 'mixed' }>): void {
    if (task.run.length) this.builder.add('paragraph', inlineText(task.run, this.inline), { section: this.sectionName(task.section) });
    task.run = [];
  }

  private emitPendingFloats(section: string | undefined): void {
    const floats = this.pendingFloats;
    this.pendingFloats = [];
    for (const float of floats) this.writeFloat(float, section);
  }

  private isBlock(element: Element): boolean {
    const vocabulary = this.vocabulary;
    return [
      vocabulary.sections,
      vocabulary.paragraphs,
      vocabulary.figures,
      vocabulary.tables,
      vocabulary.formulas,
      vocabulary.containers,
      vocabulary.listItems,
      vocabulary.skip,
    ].some((names) => names.has(element.localName));
  }

  /** True when a figure, table or float anchor is below `element` (remembered, so nested list items cost one walk). */
  private holdsFloats(element: Element): boolean {
    const vocabulary = this.vocabulary;
    const isFloat = (descendant: Element): boolean => {
      const name = descendant.localName;
      return vocabulary.figures.has(name) || vocabulary.tables.has(name) || name === 'float-anchor';
    };
    return someDescendantMemo(element, isFloat, this.floatsBelow);
  }

  private headingOf(section: Element): string {
    if (this.vocabulary.heading) return this.vocabulary.heading(section, this.inline);
    const parts = childElements(section).filter((child) => this.vocabulary.headingParts.has(child.localName));
    return inlineText(parts, this.inline).replace(/\s+/g, ' ').trim();
  }

  private sectionName(section: string | undefined): string | undefined {
    return this.lockedSection ?? section;
  }
}

/** The child nodes of `element`, as an array. */
function childNodeList(element: Element): Node[] {
  const nodes: Node[] = [];
  for (let child = element.firstChild; child; child = child.nextSibling) nodes.push(child);
  return nodes;
}
