/**
 * Loads the built-in property schemas (one JSON file per property in `./data/`) and any
 * user-defined ones, validating each with `PropertySchema`.
 */
import { z } from 'zod';
import { PropertySchema, type PropertyDefinition } from '../contracts/property';
import bandGap from './data/band-gap.json';
import betSurfaceArea from './data/bet-surface-area.json';
import bulkModulus from './data/bulk-modulus.json';
import curieTemperature from './data/curie-temperature.json';
import d33 from './data/d33.json';
import density from './data/density.json';
import latticeA from './data/lattice-a.json';
import latticeB from './data/lattice-b.json';
import latticeC from './data/lattice-c.json';
import latticeConstant from './data/lattice-constant.json';
import neelTemperature from './data/neel-temperature.json';
import tc from './data/tc.json';

// Static imports (not a directory read) so the same loader works in the extension bundle.
const builtInData: unknown[] = [
  bandGap,
  tc,
  bulkModulus,
  curieTemperature,
  neelTemperature,
  latticeConstant,
  latticeA,
  latticeB,
  latticeC,
  d33,
  density,
  betSurfaceArea,
];

/** A schema failed validation; `message` names the schema and every zod issue with its path. */
export class PropertySchemaError extends Error {
  override readonly name = 'PropertySchemaError';
}

function describe(data: unknown, index: number): string {
  const name = typeof data === 'object' && data !== null && 'name' in data ? String((data as { name: unknown }).name) : undefined;
  return name ? `property schema "${name}"` : `property schema #${index + 1}`;
}

/** Validate one schema; throws `PropertySchemaError` with zod's readable issue list. */
export function parsePropertySchema(data: unknown, index = 0): PropertyDefinition {
  const result = PropertySchema.safeParse(data);
  if (!result.success) throw new PropertySchemaError(`${describe(data, index)} is invalid:\n${z.prettifyError(result.error)}`);
  return result.data;
}

/**
 * The built-in schemas followed by `extra` (user-defined, unvalidated input such as parsed JSON).
 * A user schema with the name of a built-in one replaces it. Returns `PropertyDefinition[]`.
 * Throws `PropertySchemaError` on the first invalid schema, on a built-in one without a
 * `displayUnit`, or on two extra schemas sharing a name.
 */
export function loadPropertySchemas(extra: unknown[] = []): PropertyDefinition[] {
  const builtIn = builtInData.map((data, index) => parsePropertySchema(data, index));
  // Optional in the contract (readers' stored properties predate it), required of built-ins.
  const undisplayed = builtIn.find((schema) => schema.displayUnit === undefined);
  if (undisplayed) throw new PropertySchemaError(`built-in property schema "${undisplayed.name}" names no displayUnit`);
  const users = extra.map((data, index) => parsePropertySchema(data, index));
  const userNames = new Set<string>();
  for (const schema of users) {
    if (userNames.has(schema.name)) throw new PropertySchemaError(`property schema "${schema.name}" is defined twice`);
    userNames.add(schema.name);
  }
  return propertyCatalogue(users, builtIn);
}

/**
 * The resolved property catalogue with `own` schemas (a reader's own properties, or those a run
 * asks for), the one list a run's stages read (the scan's rival properties, the gate, display
 * units): the `builtIn` schemas (default `loadPropertySchemas()`, read afresh) whose names `own`
 * does not take, in their order, then `own` in its order — an own schema named like a built-in
 * one replaces it. Pure; never throws; `own` is not validated here (`loadPropertySchemas` does).
 */
export function propertyCatalogue(
  own: readonly PropertyDefinition[],
  builtIn: readonly PropertyDefinition[] = loadPropertySchemas(),
): PropertyDefinition[] {
  const named = new Set(own.map((schema) => schema.name));
  return [...builtIn.filter((schema) => !named.has(schema.name)), ...own];
}

/** The schemas whose `name` is in `names` (all when `names` is empty); throws on an unknown name. */
export function selectPropertySchemas(schemas: PropertyDefinition[], names: string[]): PropertyDefinition[] {
  if (names.length === 0) return schemas;
  return names.map((name) => {
    const schema = schemas.find((candidate) => candidate.name === name);
    if (!schema) throw new PropertySchemaError(`unknown property "${name}"; known: ${schemas.map((known) => known.name).join(', ')}`);
    return schema;
  });
}
