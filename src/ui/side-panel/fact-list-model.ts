/**
 * The fact list's rules, like Hypothesis's sidebar of annotations: every fact the page shows (the
 * quick scan's candidates before a run has records), grouped by property and then by material,
 * each with its value, conditions, status in words and, for a PDF, its page; counts per status
 * at the top; the facts the page could not mark named with the reason; and the keys that move
 * through the list. Pure: highlight items and the page's answer in, entries and words out, so
 * every rule is unit-tested; fact-list.tsx renders them.
 */
import type { Article } from '../../contracts/article';
import type { HighlightItem, ResponseOf } from '../../contracts/messages';
import { reviewKeyAction, type ReviewKeyInput } from './keyboard-review';

/** A fact's status as the highlights paint it. */
export type FactStatus = HighlightItem['status'];

/** One entry of the fact list. */
export interface ListedFact {
  /** The highlight item's id: what `highlight-scroll` is sent with. */
  id: string;
  material: string;
  /** The property's label ("Band gap"). */
  property: string;
  /** Value and unit as printed, with the display unit beside when it differs: "40 meV (0.040 eV)". */
  value: string;
  /** Conditions and provenance in words ("HSE06 · indirect · computed"); absent when none. */
  conditions?: string;
  status: FactStatus;
  /** 1-based page of a PDF; absent for a web page. */
  page?: number;
  /** Why the page could not mark this fact (the highlighter's reason); absent when marked or not known. */
  unplaced?: string;
}

const statusWordsOf: Record<FactStatus, string> = {
  candidate: 'Candidate — not yet checked',
  verified: 'Verified',
  needs_review: 'Needs review',
  rejected: 'Rejected',
};

/** The order of the status counts and of the words: candidates, verified, needs review, rejected. */
export const FACT_STATUS_ORDER: readonly FactStatus[] = ['candidate', 'verified', 'needs_review', 'rejected'];

/** The status in words: "Candidate — not yet checked", "Verified", "Needs review", "Rejected". */
export function statusWords(status: FactStatus): string {
  return statusWordsOf[status];
}

/** A property's facts, by material in order of first appearance. */
export interface FactGroup {
  property: string;
  materials: Array<{ material: string; facts: ListedFact[] }>;
}

/**
 * `facts` grouped by property, then by material, each in order of first appearance (reading
 * order when the facts are); the facts keep their order within a material.
 */
export function groupFacts(facts: readonly ListedFact[]): FactGroup[] {
  const groups = new Map<string, Map<string, ListedFact[]>>();
  for (const fact of facts) {
    const byMaterial = groups.get(fact.property) ?? new Map<string, ListedFact[]>();
    groups.set(fact.property, byMaterial);
    const list = byMaterial.get(fact.material) ?? [];
    byMaterial.set(fact.material, list);
    list.push(fact);
  }
  return [...groups].map(([property, byMaterial]) => ({
    property,
    materials: [...byMaterial].map(([material, list]) => ({ material, facts: list })),
  }));
}

/** The facts in the order the list shows them (group after group): the order j/k move in. */
export function listedOrder(groups: readonly FactGroup[]): ListedFact[] {
  return groups.flatMap((group) => group.materials.flatMap((entry) => entry.facts));
}

/**
 * The line above the list: the count of each status present, in `FACT_STATUS_ORDER`, then how
 * many the page could not mark: "2 verified · 1 needs review · 1 not marked in the page" (as the
 * verdict groups' counts write them);
 * "34 Candidate — not yet checked" reads badly, so candidates are "34 candidates — not yet checked".
 * An empty list → "No facts".
 */
export function statusCountsText(facts: readonly ListedFact[]): string {
  if (facts.length === 0) return 'No facts';
  const parts: string[] = [];
  for (const status of FACT_STATUS_ORDER) {
    const count = facts.filter((fact) => fact.status === status).length;
    if (count === 0) continue;
    parts.push(
      status === 'candidate'
        ? `${count} candidate${count === 1 ? '' : 's'} — not yet checked`
        : `${count} ${statusWords(status).toLowerCase()}`,
    );
  }
  const unplaced = facts.filter((fact) => fact.unplaced !== undefined).length;
  if (unplaced > 0) parts.push(`${unplaced} not marked in the page`);
  return parts.join(' · ');
}

/**
 * The fact as one sentence, for its entry's accessible name and the list of facts not marked:
 * "GaN, Band gap 3.4 eV (HSE06), Verified, page 3".
 */
export function factSentence(fact: ListedFact): string {
  const conditions = fact.conditions ? ` (${fact.conditions})` : '';
  const page = fact.page !== undefined ? `, page ${fact.page}` : '';
  return `${fact.material}, ${fact.property} ${fact.value}${conditions}, ${statusWords(fact.status)}${page}`;
}

/**
 * The 1-based page of the text at `offset` of `article.text` (the block holding it, or the last
 * block starting before it); undefined for an article without pages (a web page) or an offset
 * before every paged block.
 */
export function pageAt(article: Pick<Article, 'blocks'>, offset: number): number | undefined {
  let page: number | undefined;
  for (const block of article.blocks) {
    if (block.start > offset) break;
    if (block.page !== undefined) page = block.page;
  }
  return page;
}

/**
 * The fact list's entries for highlight `items` (the quick scan's or a run's, in reading order):
 * material, property, value and unit as on the item's card (with the display unit beside),
 * conditions and provenance, status, `pages[id]` when known, and `unplaced` = the page's reason
 * for each item `response` says it could not anchor. A failed `response` (a page without the
 * highlighter, e.g. Chrome's PDF viewer) or none yet marks nothing unplaced.
 */
export function listedFacts(
  items: readonly HighlightItem[],
  response?: ResponseOf<'highlight-show'>,
  pages: Readonly<Record<string, number>> = {},
): ListedFact[] {
  const failed = new Map(response?.ok ? response.report.failed.map((failure) => [failure.id, failure.reason] as const) : []);
  return items.map((item) => {
    const { card } = item;
    const unit = card.unit ? ` ${card.unit}` : '';
    const entry: ListedFact = {
      id: item.id,
      material: card.material,
      property: card.property,
      value: `${card.value}${unit}${card.display ? ` (${card.display})` : ''}`,
      status: item.status,
    };
    const conditions = [card.conditions, card.provenance].filter(Boolean).join(' · ');
    if (conditions) entry.conditions = conditions;
    const page = pages[item.id];
    if (page !== undefined) entry.page = page;
    const reason = failed.get(item.id);
    if (reason !== undefined) entry.unplaced = reason;
    return entry;
  });
}

/** What a key asks of the fact list: move to `position` (and locate it there), locate the focused fact, or nothing. */
export type FactKeyAction = { kind: 'move'; position: number } | { kind: 'locate' } | { kind: 'none' };

/**
 * The fact list's keys for the fact at `position` of `count`: j/k, the arrow keys, Home and End
 * move (as in the verdict list, `reviewKeyAction`: no wrap-around, nothing while typing or with
 * Ctrl/Meta/Alt); Enter and Space locate the focused fact; every other key is left alone.
 */
export function factKeyAction(input: ReviewKeyInput, position: number, count: number): FactKeyAction {
  const action = reviewKeyAction(input.key === ' ' ? { ...input, key: 'Enter' } : input, position, count);
  return action.kind === 'move' || action.kind === 'locate' ? action : { kind: 'none' };
}
