/** The shape every quantity reader returns (the public API shared with scan and rules). */
import type { ReportedValue } from '../../contracts/triplet';
import type { NumberAmbiguity } from './number';

/**
 * A value with its unit found in text: `text === source.slice(start, end)`. `unit` is the
 * canonical symbol ('' when none), `unitText` as printed (for list members it lies after the
 * last member: "3.2, 3.4 and 3.6 eV"). `si` is filled when the unit converts.
 */
export interface Quantity {
  start: number;
  end: number;
  text: string;
  value: ReportedValue;
  valueText: string;
  unit: string;
  unitText: string;
  dimension?: string;
  si?: { value: ReportedValue; unit: string };
  /** Set when a number of the value reads two ways ("1,043": 1043 or 1.043) and nothing said which (`parseNumber`). */
  ambiguity?: NumberAmbiguity;
}
