/**
 * The Chain-of-Verification questions asked of every property (Eunomia, ../shared/seeds/001_*,
 * Methods 5.1.2: user-defined verification queries; Fig. 2: the agent confused thermal with
 * water stability and the check removed it). Built-in questions hold for any property, so they
 * expect nothing except what is true by definition of a correct triplet; a dataset with a stricter
 * purpose (measured values only) says so in its own schema's questions.
 */
import type { PropertyDefinition } from '../contracts/property';
import type { VerificationQuestion } from '../contracts/verification-question';

/**
 * The built-in questions for `property`, in the order asked:
 * - `property_match` (yes / no, expects "yes"): is the value given as this property and not as
 *   another quantity — true by definition of a correct triplet; catches the confusion of
 *   semantically close properties that Eunomia's CoV was built for (Tc vs a magnetic transition,
 *   an optical gap vs an absorption peak);
 * - `origin` (measured / computed / cited): recorded only — both measured and computed values
 *   belong in a general dataset;
 * - `phase` (free text): which phase or polymorph the value belongs to;
 * - `conditions` (free text): temperature, pressure, field, doping.
 */
export function builtInQuestions(property: Pick<PropertyDefinition, 'label'>): VerificationQuestion[] {
  return [
    {
      id: 'property_match',
      question: `Does the evidence give this value as the ${property.label.toLowerCase()} of the material, rather than as a different quantity?`,
      choices: ['yes', 'no'],
      expected: ['yes'],
    },
    {
      id: 'origin',
      question:
        'Was the value measured in this work, computed (calculation or simulation), or cited from another work? Answer "not stated" when the evidence does not say.',
      choices: ['measured', 'computed', 'cited'],
      expected: [],
    },
    {
      id: 'phase',
      question: 'Which phase, polymorph or crystal structure of the material is the value for (a few words, e.g. "wurtzite")?',
      choices: [],
      expected: [],
    },
    {
      id: 'conditions',
      question: 'Under which conditions was the value obtained: temperature, pressure, field or doping (a few words, e.g. "300 K")?',
      choices: [],
      expected: [],
    },
  ];
}

/**
 * Every question asked for `property`: the built-in ones (`builtInQuestions`), each replaced by
 * the schema's question of the same id when it has one (a measured-values dataset redefines
 * `origin` with `expected: ['measured']`), then the schema's other questions. Ids are unique.
 */
export function questionsFor(property: Pick<PropertyDefinition, 'label' | 'questions'>): VerificationQuestion[] {
  const own = new Map(property.questions.map((question) => [question.id, question]));
  const builtIn = builtInQuestions(property).map((question) => own.get(question.id) ?? question);
  const builtInIds = new Set(builtIn.map((question) => question.id));
  return [...builtIn, ...property.questions.filter((question) => !builtInIds.has(question.id))];
}
