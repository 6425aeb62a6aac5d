/**
 * The words an LLM-NERRE entity is scored on. Upstream (lbnlp/NERRE `doping/step3_score.py`,
 * Dagdelen et al., "Structured information extraction from scientific text with large language
 * models", Nat. Commun. 15, 1418 (2024)) splits every entity on spaces and scores the words.
 * docs/EVAL.md adds one rule: formula-type entities must match whole. A formula written across
 * spaces (`TiO 2`, `g-C 3 N 4`) would otherwise earn partial credit for a stray `2` or `N`, so
 * its words are merged into one token, written without the spaces (`TiO2`, `g-C3N4`).
 */
import { parseFormula, parseMaterial } from '../../text/materials';

/** Decides whether an entity is a formula and, if so, which formula core it holds (`TiO2`). */
export type FormulaCore = (entity: string) => string | null;

/**
 * The default `FormulaCore`: `parseFormula` decides whether the entity is a formula (descriptors
 * such as `films` or `mesoporous` are allowed around it); `parseMaterial` gives the core it read.
 */
export function materialsFormulaCore(entity: string): string | null {
  if (parseFormula(entity) === null) return null;
  return parseMaterial(entity)?.formula ?? null;
}

/**
 * Words of one entity: split on whitespace (empty words dropped, as upstream does). When the
 * entity is a formula whose core is not already one word, the shortest run of consecutive words
 * whose concatenation contains the core becomes one token (words joined without spaces), so the
 * formula matches only whole. Trade-off: a formula core that a parser rewrote (Unicode
 * subscripts, SuperCon oxygen) is not found in the words and the entity is split as upstream
 * splits it; the scorer never guesses a merge it cannot see in the text.
 * Example: `surface-alkalinized g-C 3 N 4` → [`surface-alkalinized`, `g-C3N4`];
 * `TiO2 films` → [`TiO2`, `films`] (the core is already whole).
 */
export function entityWords(entity: string, formulaCore: FormulaCore = materialsFormulaCore): string[] {
  const words = entity.split(/\s+/).filter((word) => word.length > 0);
  if (words.length < 2) return words;
  const core = formulaCore(entity);
  if (!core || words.some((word) => word.includes(core))) return words;
  let best: [number, number] | null = null;
  for (let start = 0; start < words.length; start++) {
    for (let end = start + 2; end <= words.length; end++) {
      if (!words.slice(start, end).join('').includes(core)) continue;
      if (!best || end - start < best[1] - best[0]) best = [start, end];
      break;
    }
  }
  if (!best) return words;
  return [...words.slice(0, best[0]), words.slice(best[0], best[1]).join(''), ...words.slice(best[1])];
}

/** Words of several entities, in order, with repeats (upstream joins the entities, then splits). */
export function entitiesWords(entities: readonly string[], formulaCore: FormulaCore = materialsFormulaCore): string[] {
  return entities.flatMap((entity) => entityWords(entity, formulaCore));
}
