/**
 * The real scorer dependencies for `assay eval`: SI conversion through the project's unit table
 * (`src/text/units`) with the Cornell SciLLM factor CSV as fallback, and material equality from
 * `src/text/materials`: `sameMaterialStrict` for strict scoring, `sameMaterial` for lenient; and
 * the condition reader of `src/text/conditions`, with which strict scoring compares the condition
 * qualifiers of a name (`BPN-GaN (HSE06)`; issue 26).
 */
import { readRegularFile } from '../capture/node/regular-file';
import { join } from 'node:path';
import { findConditionMentions, methodsCompatible } from '../text/conditions/index';
import { sameMaterial, sameMaterialStrict } from '../text/materials/index';
import { normalizeUnit, toSI } from '../text/units/index';
import { createSiConverter, parseSiFactors } from './si-conversion';
import type { ScorerDependencies } from './triplet-scorer-types';

/** Relative path of the factor CSV under the data root. */
export const SI_FACTORS_PATH = join('datasets', 'cornell-scillm', 'supercon-extraction', 'scoring', 'si_conversion_factors.csv');

/** Load the factor CSV from `dataRoot` and build the dependencies; rejects when the CSV is missing. */
export async function loadScorerDependencies(dataRoot: string): Promise<ScorerDependencies> {
  const factors = parseSiFactors(await readRegularFile(join(dataRoot, SI_FACTORS_PATH), 'utf8'));
  return {
    convert: createSiConverter({ toSI, normalizeUnit }, factors),
    sameMaterial,
    sameMaterialStrict,
    conditions: { findConditionMentions, methodsCompatible },
  };
}
