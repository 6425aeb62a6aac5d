/**
 * The property schema: what one extractable property is called in papers, which unit it is
 * reported in, and which values are physically plausible. Built-in schemas are the JSON files in
 * `./data/`; users add their own (validated by the same zod schema) through
 * `loadPropertySchemas(extra)`.
 */
import { z } from 'zod';
import { VerificationQuestionSchema } from './verification-question';

/** Physical dimensions the scan knows how to match a quantity's unit against. */
export const PropertyDimensionSchema = z.enum([
  'energy',
  'temperature',
  'pressure',
  'length',
  'density',
  'piezoelectric coefficient',
  'specific surface area',
]);
export type PropertyDimension = z.infer<typeof PropertyDimensionSchema>;

/**
 * When a symbol counts as a mention:
 * - `word`: anywhere it stands as a whole word (case-sensitive), e.g. "Tc", "Eg";
 * - `lattice-assignment`: only when followed by "=" (or ≈, ~) and a number with a length unit,
 *   as in "a = 3.905 Å" — needed for one-letter symbols like the lattice constants a, b, c, which
 *   are ordinary words ("a", "b") everywhere else.
 */
export const SymbolContextSchema = z.enum(['word', 'lattice-assignment']);
export type SymbolContext = z.infer<typeof SymbolContextSchema>;

const nonBlank = z.string().trim().min(1, 'must not be blank');

export const PropertySchema = z
  .object({
    /** Identifier used in triplets and on the command line: lower-case snake case, e.g. "band_gap". */
    name: z.string().regex(/^[a-z][a-z0-9_]*$/, 'name must be lower-case snake case, e.g. "band_gap"'),
    /** Human label, e.g. "Band gap". */
    label: nonBlank,
    /** Names as written in papers; matched case-insensitively, whole words. */
    synonyms: z.array(nonBlank).min(1, 'give at least one synonym (the name as written in papers)'),
    /** Symbols as written in papers ("Tc", "Eg"); matched case-sensitively, whole words. */
    symbols: z.array(nonBlank).default([]),
    symbolContext: SymbolContextSchema.default('word'),
    /**
     * Names that stand for the property only in context: "the gap of X is 40 meV" names the band
     * gap, "superconductivity at 9 K" the Tc, but "gap" or "superconductivity" alone name
     * nothing measurable. They count for the attribution check (`src/verify/attribution.ts`) only,
     * where the evidence already prints a value in one of `units` (or the name is qualified as
     * "zero": "a zero gap"), and only when no other property of the same dimension is named there.
     * Never used by the deterministic scan (`findPropertyMentions`). Matched like `synonyms`
     * (case-insensitive whole words, optional plural). Default [].
     */
    contextualSynonyms: z.array(nonBlank).default([]),
    /**
     * Words that, written right before a contextual synonym, make it another quantity: a
     * "superconducting gap" or a "spin gap" is not a band gap. Matched case-insensitively as
     * whole words, hyphen or space between them and the synonym ("spin-gap", "spin gap"). Default [].
     */
    contextualExclusions: z.array(nonBlank).default([]),
    dimension: PropertyDimensionSchema,
    /** The unit values are compared and range-checked in, e.g. "eV", "K", "GPa". */
    canonicalUnit: nonBlank,
    /** Units a value of this property is reported in (canonical unit symbols), canonical first. */
    units: z.array(nonBlank).min(1, 'list at least the canonical unit'),
    /**
     * The unit the field prints values of this property in ("eV", "K", "GPa", "Å"): the dataset
     * table, plot, hover cards and CSV export show each value converted to it beside the value as
     * printed (src/properties/display-unit.ts). Every built-in schema gives one (the loader and a
     * test check it converts from `canonicalUnit`); optional for a reader's own properties, which
     * fall back to `canonicalUnit` (`displayUnitOf`), so properties stored before it stay valid.
     */
    displayUnit: nonBlank.optional(),
    /**
     * Inclusive bounds in `canonicalUnit`. The scan drops values outside as misreadings; the gate
     * (`src/verify/value-doubts.ts`) sends a fact outside to review, giving the range and `source`.
     */
    plausibleRange: z.object({
      min: z.number(),
      max: z.number(),
      /**
       * Where the bounds come from: the record holders and their references ("LiF, the widest
       * known gap, 14.2 eV: Piacentini et al., Phys. Rev. B 13, 5530 (1976)"). Every built-in
       * schema gives one (a test checks it); optional for a reader's own properties.
       */
      source: nonBlank.optional(),
    }),
    /** Notes on the names, units and range (the range's references are in `plausibleRange.source`). */
    note: nonBlank,
    /**
     * Where the names come from: groups of `synonyms`, `symbols`, `contextualSynonyms` and
     * `contextualExclusions`, each with the general reference that lists them (IUPAC, a
     * textbook, a standard, a Wikipedia article), never a paper the names were tuned on. Built-in
     * schemas cover every name (a test checks it); optional for user schemas.
     */
    sources: z.array(z.object({ terms: z.array(nonBlank).min(1), source: nonBlank })).optional(),
    /**
     * Chain-of-Verification questions asked of every verified triplet of this property (Eunomia
     * Methods 5.1.2), after the built-in ones (`questionsFor` in src/properties); a question with
     * a built-in id replaces that one.
     */
    questions: z.array(VerificationQuestionSchema).default([]),
  })
  .superRefine((schema, context) => {
    if (schema.plausibleRange.min > schema.plausibleRange.max) {
      context.addIssue({ code: 'custom', path: ['plausibleRange'], message: 'plausibleRange.min is greater than plausibleRange.max' });
    }
    if (!schema.units.includes(schema.canonicalUnit)) {
      context.addIssue({ code: 'custom', path: ['units'], message: `units must include the canonical unit "${schema.canonicalUnit}"` });
    }
    const ids = schema.questions.map((question) => question.id);
    for (const [index, id] of ids.entries()) {
      if (ids.indexOf(id) !== index)
        context.addIssue({ code: 'custom', path: ['questions', index, 'id'], message: `two questions share the id "${id}"` });
    }
  });
export type PropertyDefinition = z.infer<typeof PropertySchema>;
