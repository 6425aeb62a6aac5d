/**
 * SOFC-Exp as papers with truths for `assay eval sofc-exp --context`: a stand-in for papers the
 * retrieval was never tuned on. Retrieval's ranking, packing and budgets were chosen on
 * bandgap-200, SuperMat and PolyIE; none of the 45 SOFC-Exp papers (train, dev and test alike)
 * was read for that, their capture is another (a PMC plain-text export), and their properties are
 * not built-in ones but properties a reader defines (`SOFC_EXP_READER_PROPERTIES`), as a user of
 * the extension adds one in the property editor.
 *
 * Truths: the experiment frames' values of the slots those properties name (`loadSofcExp`,
 * slot → property by synonym as `slotSchemas` maps it), with the frame's materials as aliases.
 * The unit is the one the paper prints at the value: the annotated value text often leaves it
 * out ("350" of "at 350, 375 and 400 °C") or glues words to it ("2-μm-thick", "°C14" with a
 * reference mark), so it is read from the text at the value's offset (`printedUnit`), else the
 * property's canonical unit.
 */
import type { Article } from '../../contracts/article';
import type { PropertyDefinition } from '../../contracts/property';
import { parsePropertySchema, propertyCatalogue } from '../../properties';
import { parseQuantities } from '../../text/quantities';
import { normalizeUnit } from '../../text/units';
import type { ValueTruth } from '../value-corpus/value-corpus';
import { loadSofcExp } from './sofc-exp-dataset';
import type { TruthTriplet } from '../triplet-scorer-types';

/**
 * The properties a reader would define to ask for SOFC-Exp's length and temperature slots,
 * named as materials-science writing names them (not read off the corpus): a layer's thickness
 * ("a 10 μm thick YSZ electrolyte") and a cell's working temperature. The corpus' other slots
 * (power density, open-circuit voltage, conductivity, area-specific resistance, current density,
 * degradation rate, time of operation) have dimensions a property schema cannot name yet.
 */
export const SOFC_EXP_READER_PROPERTIES: readonly PropertyDefinition[] = [
  parsePropertySchema({
    name: 'thickness',
    label: 'Thickness',
    synonyms: ['thickness', 'thick'],
    dimension: 'length',
    canonicalUnit: 'μm',
    units: ['μm', 'nm', 'mm'],
    plausibleRange: { min: 0, max: 10_000 },
    note: "A reader's property: the thickness of a film, layer, electrolyte or support, from nanometres to a centimetre.",
  }),
  parsePropertySchema({
    name: 'working_temperature',
    label: 'Working temperature',
    synonyms: ['working temperature', 'operating temperature', 'operation temperature'],
    dimension: 'temperature',
    canonicalUnit: 'K',
    units: ['K', '°C'],
    plausibleRange: { min: 0, max: 2_000 },
    note: "A reader's property: the temperature a device (a fuel cell, an electrolyser, a sensor) is operated at.",
  }),
];

/** Sets of the corpus read, all of them (none was used to tune retrieval). */
export const SOFC_EXP_CONTEXT_SETS = ['train', 'dev', 'test'] as const;

/**
 * The unit printed at the truth's value: the quantity `parseQuantities` reads at its offset in
 * `text` (to the end of the line), else the annotated unit without the words glued to it
 * ("-μm-thick" → "μm"), when it is a unit (`normalizeUnit`); "" when neither is.
 */
function printedUnit(text: string, truth: ValueTruth): string {
  const lineEnd = text.indexOf('\n', truth.start);
  const atValue = parseQuantities(text.slice(truth.start, lineEnd < 0 ? undefined : lineEnd)).find((quantity) => quantity.start === 0);
  if (atValue?.unit) return atValue.unit;
  return normalizeUnit(truth.unit.replace(/^[-\s]+|[-\s]*thick$/gu, '')) ?? '';
}

/**
 * The SOFC-Exp papers of every set with their truths of `SOFC_EXP_READER_PROPERTIES` (module
 * comment), at most `limit` papers with truths, in set and metadata order. `schemas` is the
 * catalogue the reader properties join (`propertyCatalogue`). Rejects when a corpus file is missing.
 */
export async function loadSofcExpEvidence(
  dataRoot: string,
  schemas: readonly PropertyDefinition[],
  limit?: number,
): Promise<Array<{ paper: string; article: Article; truths: TruthTriplet[] }>> {
  const catalogue = propertyCatalogue([...SOFC_EXP_READER_PROPERTIES], schemas);
  const readers = new Map(SOFC_EXP_READER_PROPERTIES.map((property) => [property.name, property]));
  const cases: Array<{ paper: string; article: Article; truths: TruthTriplet[] }> = [];
  for (const set of SOFC_EXP_CONTEXT_SETS) {
    for (const paper of await loadSofcExp(dataRoot, catalogue, { set })) {
      const truths = paper.truths.flatMap((truth): TruthTriplet[] => {
        const property = truth.schema === undefined ? undefined : readers.get(truth.schema);
        if (!property || truth.value === null) return [];
        const unit = printedUnit(paper.text, truth) || property.canonicalUnit;
        return [{ aliases: truth.aliases, property: property.name, value: truth.value, unit, valueText: truth.valueText }];
      });
      if (truths.length > 0) cases.push({ paper: paper.id, article: paper.article, truths });
      if (cases.length === limit) return cases;
    }
  }
  return cases;
}
