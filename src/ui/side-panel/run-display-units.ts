/**
 * The display units a run's facts are shown in: those of the catalogue the run resolved, the
 * built-in schemas and the reader's own properties it was started with (`settings.extraProperties`),
 * so a reader's property with its own display unit reads "40 meV (0.040 eV)" like a built-in one.
 */
import type { MatrixRunSettings } from '../../contracts/matrix-run';
import type { PropertyDefinition } from '../../contracts/property';
import { loadPropertySchemas, propertyCatalogue } from '../../properties';
import { displayUnitsOf, type DisplayUnitSchema } from '../../properties/display-unit';

/**
 * Display units by property name of the run started with `settings`: `displayUnitsOf` the run's
 * catalogue (`propertyCatalogue` of its `extraProperties` and `builtIn`, default
 * `loadPropertySchemas()`: the catalogue the run host resolves). No settings: the built-ins alone.
 */
export function runDisplayUnits(
  settings: Pick<MatrixRunSettings, 'extraProperties'> | undefined,
  builtIn: readonly PropertyDefinition[] = loadPropertySchemas(),
): ReadonlyMap<string, DisplayUnitSchema> {
  return displayUnitsOf(propertyCatalogue(settings?.extraProperties ?? [], builtIn));
}
