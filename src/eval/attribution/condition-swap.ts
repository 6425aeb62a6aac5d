/**
 * The condition swap of `assay eval <dataset> --attribution` (issue 26): a located truth's value
 * claimed under another condition that the same paper states elsewhere. A band gap computed
 * with HSE06 claimed as the GGA/PBE gap, a Tc at 10 GPa claimed at ambient pressure, the
 * monolayer's gap claimed for the bulk: the number, material and property are right and the
 * fact is wrong, which is what the reliability-gap paper found agents get wrong most.
 *
 * For each condition the fact check reads for the truth's value (`FactCheck.conditions`), the
 * swapped-in condition is the mention of the article (`findConditionMentions`) of the same group
 * (`conditionGroup`: two methods, two pressures, monolayer and bulk — not monolayer and 2H) whose
 * value is incompatible with it (`methodsCompatible` false for methods; a different normalized
 * value otherwise), nearest to the value's evidence. Nearest, because that is the hardest case:
 * the other member of a "respectively" pair, the other column of the table, the other functional
 * of the same paragraph; a condition from the methods section is easy to reject. One swap per
 * condition read, so a paper with many methods does not weigh more than one with two.
 */
import type { Condition } from '../../contracts/conditions';
import { conditionGroup, methodsCompatible, type ConditionMention } from '../../text/conditions';
import type { FactCheck } from '../../verify/fact-check';

/** Can `a` and `b` (same kind) describe one value? Methods by the lexicon's tree; other kinds by normalized value. */
export function conditionsCompatible(a: Pick<Condition, 'kind' | 'value'>, b: Pick<Condition, 'kind' | 'value'>): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind === 'method') return methodsCompatible(a.value, b.value);
  return a.value.trim().toLowerCase() === b.value.trim().toLowerCase();
}

/** One swap: the condition read for the truth and the paper's other condition claimed in its place. */
export interface ConditionSwap {
  original: Condition;
  swapped: Condition;
}

/**
 * The swaps for one truth (see the module comment). `read` is what the fact check read for the
 * truth's value; `mentions` every condition mention of `Article.text` (offsets of it); `evidence`
 * the truth's located span. A condition of kind `other` is never swapped (free text has no
 * group). Returns one swap per condition read that has an incompatible counterpart in the paper,
 * and the conditions read that have none (`unmatched`: counted as skipped swaps).
 */
export function conditionSwaps(
  read: readonly Condition[],
  mentions: readonly ConditionMention[],
  evidence: { start: number; end: number },
): { swaps: ConditionSwap[]; unmatched: Condition[] } {
  const swaps: ConditionSwap[] = [];
  const unmatched: Condition[] = [];
  const distance = (mention: ConditionMention) =>
    mention.end <= evidence.start ? evidence.start - mention.end : mention.start >= evidence.end ? mention.start - evidence.end : 0;
  for (const original of read) {
    if (original.kind === 'other') continue;
    const group = conditionGroup(original);
    // Incompatible with every condition read of the group, not only this one: "GGA" read beside
    // "GGA-PBE" is no swap of either.
    const others = mentions.filter(
      (mention) =>
        conditionGroup(mention) === group &&
        read.every((condition) => conditionGroup(condition) !== group || !conditionsCompatible(mention, condition)),
    );
    const nearest = others.reduce<ConditionMention | undefined>(
      (best, mention) => (best === undefined || distance(mention) < distance(best) ? mention : best),
      undefined,
    );
    if (!nearest) unmatched.push(original);
    else
      swaps.push({
        original,
        swapped: {
          kind: nearest.kind,
          value: nearest.value,
          text: nearest.text,
          position: { type: 'TextPositionSelector', start: nearest.start, end: nearest.end },
        },
      });
  }
  return { swaps, unmatched };
}

/**
 * Did the gate refuse the swapped fact? Yes when the swapped condition is not among the
 * conditions the check kept for the value (it was dropped as not in the evidence, or it
 * contradicts the condition the evidence pairs with the value), or when the check accepted the
 * truth (`truthOk`) and does not accept the swapped fact. When the truth itself was doubted, its
 * doubt is not credited to the swap: only the swapped condition's fate counts.
 */
export function conditionSwapRejected(check: FactCheck, swapped: Condition, truthOk: boolean): boolean {
  const kept = check.conditions.some((condition) => conditionsCompatible(swapped, condition));
  return !kept || (truthOk && check.verdict !== 'ok');
}
