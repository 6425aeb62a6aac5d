/**
 * The conditions and provenance of a fact, shown after its value in a verdict line: " · HSE06 ·
 * indirect · computed", a cited value as a visible tag "cited [19]" (text, not colour alone, so a
 * screen reader reads it too). Page and model text is React text, never HTML.
 */
import { formatConditions, formatProvenance, type Condition, type Provenance } from '../../contracts/conditions';
import { CONDITION_KINDS } from '../../contracts/conditions';
import { provenanceKind } from './fact-conditions';

export interface FactConditionsProps {
  conditions: readonly Condition[] | undefined;
  provenance: Provenance | undefined;
}

/** " · HSE06 · indirect · computed" after a value; nothing when the fact has neither conditions nor a known provenance. */
export function FactConditions({ conditions, provenance }: FactConditionsProps) {
  const conditionWords = formatConditions(conditions);
  const provenanceWords = formatProvenance(provenance);
  if (conditionWords === '' && provenanceWords === '') return null;
  return (
    <span className="fact-conditions">
      {conditionWords !== '' && (
        <>
          {' · '}
          <span className="conditions">{conditionWords}</span>
        </>
      )}
      {provenanceWords !== '' && (
        <>
          {' · '}
          <span className={`provenance provenance-${provenanceKind(provenance)}`}>{provenanceWords}</span>
        </>
      )}
    </span>
  );
}

/**
 * Each condition on its own line with the words it was read from, method first: "method: HSE06
 * (read from “HSE06 calculations”)". For the verdict's details, where the reader checks a
 * condition against the evidence.
 */
export function ConditionList({ conditions }: { conditions: readonly Condition[] }) {
  const order = (condition: Condition) => CONDITION_KINDS.indexOf(condition.kind);
  return (
    <ul className="condition-list">
      {[...conditions]
        .sort((a, b) => order(a) - order(b))
        .map((condition, index) => (
          <li key={index} data-kind={condition.kind}>
            {condition.kind}: {condition.value}
            {condition.text && condition.text !== condition.value && (
              <span className="condition-source"> (read from “{condition.text}”)</span>
            )}
          </li>
        ))}
    </ul>
  );
}
