/**
 * Where the attribution measurement locates a truth (`locateTruth`): a value of 0 written as
 * "zero", and, among several sentences printing the value, the one that names the property.
 * Self-written articles; the converter is SI by a small table.
 */
import { describe, expect, it } from 'vitest';
import { ArticleBuilder } from '../../../src/capture/article-builder';
import type { Article } from '../../../src/contracts/article';
import { locateTruth } from '../../../src/eval/attribution/locate-truth';
import type { SiConverter } from '../../../src/eval/si-conversion';
import { loadPropertySchemas } from '../../../src/properties';
import type { TruthTriplet } from '../../../src/eval/triplet-scorer-types';

const toJoule: Record<string, number> = { eV: 1.602176634e-19, meV: 1.602176634e-22 };
const convert: SiConverter = (value, unit) => (toJoule[unit] === undefined ? null : { value: value * toJoule[unit], unit: 'J' });
const bandGap = loadPropertySchemas().find((schema) => schema.name === 'band_gap')!;

function article(...paragraphs: string[]): Article {
  const builder = new ArticleBuilder();
  for (const text of paragraphs) builder.add('paragraph', text);
  const { text, blocks } = builder.build();
  return {
    doi: null,
    doiOrigin: null,
    title: 'A test paper',
    authors: [],
    journal: null,
    year: null,
    url: null,
    source: 'text',
    adapter: 'test',
    blocks,
    text,
    abstractOnly: false,
    warnings: [],
  };
}

const truth = (material: string, value: number, source?: string): TruthTriplet => ({
  aliases: [material],
  property: 'band_gap',
  value: { kind: 'number', value },
  unit: 'eV',
  ...(source ? { source } : {}),
});

const located = (paper: Article, span: { start: number; end: number } | null) => (span ? paper.text.slice(span.start, span.end) : null);

describe('locateTruth', () => {
  it('takes the truth’s own sentence when it writes a value of 0 as "zero"', () => {
    const paper = article('The contact barrier of 1T-MoS2 with Au is 0 eV. 1T-MoS2 is a zero-gap metal in our calculation.');
    const span = locateTruth(paper, truth('1T-MoS2', 0, '1T-MoS2 is a zero-gap metal in our calculation.'), convert);
    expect(span?.how).toBe('source');
    expect(located(paper, span)).toBe('1T-MoS2 is a zero-gap metal in our calculation.');
  });

  it('reads "zero" as a value only in the truth’s own sentence, and no other number word', () => {
    const paper = article('At zero field 1T-MoS2 shows no splitting. One of the SnSe samples was annealed.');
    expect(locateTruth(paper, truth('1T-MoS2', 0), convert)).toBeNull();
    expect(locateTruth(paper, truth('SnSe', 1), convert)).toBeNull();
  });

  it('prefers, among sentences printing the value, the first that names the property', () => {
    const paper = article('The Schottky barrier of ZnO on Pt is 3.3 eV. The band gap of ZnO is 3.3 eV.');
    const span = locateTruth(paper, truth('ZnO', 3.3), convert, undefined, bandGap);
    expect(located(paper, span)).toBe('The band gap of ZnO is 3.3 eV.');
    expect(span?.byPropertyName).toBe(true);
    // Without the schema, reading order decides; when the first sentence names it, nothing is marked.
    expect(located(paper, locateTruth(paper, truth('ZnO', 3.3), convert))).toBe('The Schottky barrier of ZnO on Pt is 3.3 eV.');
    const first = article('The band gap of ZnO is 3.3 eV. The Schottky barrier of ZnO on Pt is 3.3 eV.');
    expect(locateTruth(first, truth('ZnO', 3.3), convert, undefined, bandGap)?.byPropertyName).toBeUndefined();
  });
});
