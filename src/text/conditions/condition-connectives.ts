/**
 * Words that only join a condition to a material's name or to another condition ("at the HSE06
 * level", "with SOC included", "VCCl2 at 0.04 eV/Å electric field"). They are read as part of
 * the condition next to them and never decide on their own. General English and the field's
 * phrasing of a calculation or measurement, not words of any dataset row. Shared by the
 * scorer's name splitter (src/eval/qualified-name.ts) and the gate's reading of a tool's
 * material descriptor (src/verify/paper-name.ts), so both drop the same words.
 */
export const CONDITION_CONNECTIVES: ReadonlySet<string> = new Set([
  'a',
  'an',
  'and',
  'applied',
  'approximation',
  'at',
  'by',
  'calculated',
  'calculation',
  'calculations',
  'computed',
  'electric',
  'field',
  'for',
  'from',
  'functional',
  'in',
  'included',
  'including',
  'level',
  'magnetic',
  'measured',
  'measurement',
  'measurements',
  'method',
  'of',
  'on',
  'phase',
  'the',
  'under',
  'using',
  'via',
  'with',
  'within',
  'without',
  'w/',
  'w/o',
]);

/** Is `word` a connective, once punctuation around it is cut off ("(with" → "with")? */
export function isConditionConnective(word: string): boolean {
  return CONDITION_CONNECTIVES.has(word.toLowerCase().replace(/^[^\p{L}\p{N}/]+|[^\p{L}\p{N}/]+$/gu, ''));
}
