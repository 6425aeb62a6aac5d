/**
 * PolyIE (Cheng et al., arXiv 2311.07715; jerry3027/PolyIE, Apache-2.0; see the dataset's
 * SOURCE.md): polymer papers as token lists with (compound, property name, property value[,
 * condition]) relations. Files `polyie/*_split.json` (every one the data root holds: the shared
 * data has train and validation, not test; `polyieSplitFiles`), each one JSON object `{ text: [doc][chunk][token], label, relation:
 * [doc][chunk][[CN span], [PN span], [PV span], …] }` with [start, end) token offsets.
 *
 * The loader rebuilds each document as an `Article` (one paragraph block per chunk, tokens
 * joined by single spaces, as the tokens carry no spacing) and keeps the relations whose
 * whole property name is a synonym or symbol of a property schema (`findPropertyMentions`): PolyIE's
 * "optical band gap" becomes `band_gap`; PCE, Voc, HOMO levels have no schema and are left out.
 */
import { readdir } from 'node:fs/promises';
import { readRegularFile } from '../../capture/node/regular-file';
import { join } from 'node:path';
import { ArticleBuilder } from '../../capture/article-builder';
import type { Article } from '../../contracts/article';
import type { PropertyDefinition } from '../../contracts/property';
import { findPropertyMentions } from '../../properties';
import { parseValueText } from '../../text/quantities/value-text';
import type { TruthTriplet } from '../triplet-scorer-types';

/** Order of the splits upstream names; any other `*_split.json` follows, by name. */
const SPLIT_ORDER = ['train_split.json', 'validation_split.json', 'test_split.json'];

/**
 * The split files `datasets/polyie/` under `dataRoot` holds (`*_split.json`), train, validation,
 * test first, then any other by name. Rejects when the folder is missing or holds none.
 */
export async function polyieSplitFiles(dataRoot: string): Promise<string[]> {
  const folder = join(dataRoot, 'datasets', 'polyie');
  const rank = (name: string) => (SPLIT_ORDER.includes(name) ? SPLIT_ORDER.indexOf(name) : SPLIT_ORDER.length);
  const files = (await readdir(folder))
    .filter((name) => name.endsWith('_split.json'))
    .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  if (files.length === 0) throw new Error(`PolyIE: no *_split.json in ${folder}`);
  return files;
}

/** What `split` says for the files read: their names without "_split.json", joined by "+" ("train+validation"). */
export function polyieSplitName(files: readonly string[]): string {
  return files.map((file) => file.replace(/_split\.json$/u, '')).join('+');
}

/** One rebuilt document. */
export interface PolyiePaper {
  /** `<file stem>/<document index>`, e.g. "validation_split/3". */
  id: string;
  article: Article;
  truths: TruthTriplet[];
  /** Relations of the document in all, and those whose property has no schema. */
  relations: number;
  withoutSchema: number;
}

interface PolyieFile {
  text: string[][][];
  relation: Array<Array<Array<Array<[number, number]>>>>;
}

/** Tokens [start, end) of a chunk joined by spaces. */
const words = (tokens: readonly string[], [start, end]: readonly [number, number]) => tokens.slice(start, end).join(' ');

/**
 * Parse one PolyIE split (its JSON text) into papers. `schemas` decide which relations are kept.
 * A value without a unit takes the schema's canonical unit. Throws on JSON without `text` and
 * `relation` arrays.
 */
export function parsePolyie(jsonText: string, stem: string, schemas: readonly PropertyDefinition[]): PolyiePaper[] {
  const data = JSON.parse(jsonText) as PolyieFile;
  if (!Array.isArray(data.text) || !Array.isArray(data.relation)) throw new Error(`PolyIE ${stem}: expected "text" and "relation" arrays`);
  return data.text.map((chunks, documentIndex) => {
    const builder = new ArticleBuilder();
    const truths: TruthTriplet[] = [];
    let relations = 0;
    let withoutSchema = 0;
    chunks.forEach((tokens, chunkIndex) => {
      builder.add('paragraph', tokens.join(' '));
      for (const relation of data.relation[documentIndex]?.[chunkIndex] ?? []) {
        const [material, name, value] = relation;
        if (!material || !name || !value) continue;
        relations += 1;
        // The whole annotated name must be the synonym or symbol: "current density" is no density.
        const nameText = words(tokens, name);
        const mention = findPropertyMentions(nameText, schemas).find((found) => found.text.length === nameText.trim().length);
        const property = mention?.property;
        const parsed = parseValueText(words(tokens, value));
        const schema = schemas.find((candidate) => candidate.name === property);
        if (!schema || !parsed) {
          withoutSchema += 1;
          continue;
        }
        truths.push({
          aliases: [words(tokens, material)],
          property: schema.name,
          value: parsed.value,
          unit: parsed.unitText || schema.canonicalUnit,
          valueText: words(tokens, value),
          ...(parsed.bound ? { bound: parsed.bound } : {}),
        });
      }
    });
    const { text, blocks } = builder.build();
    const article: Article = {
      doi: null,
      doiOrigin: null,
      title: `PolyIE ${stem} document ${documentIndex}`,
      authors: [],
      journal: null,
      year: null,
      url: null,
      source: 'text',
      adapter: 'polyie',
      blocks,
      text,
      abstractOnly: false,
      warnings: [],
    };
    return { id: `${stem}/${documentIndex}`, article, truths, relations, withoutSchema };
  });
}

/**
 * Load the PolyIE splits `files` (default: every one the data root holds, `polyieSplitFiles`)
 * under `dataRoot` (`datasets/polyie/`), documents in file order; rejects when a file is missing.
 */
export async function loadPolyie(
  dataRoot: string,
  schemas: readonly PropertyDefinition[],
  files?: readonly string[],
): Promise<PolyiePaper[]> {
  const papers: PolyiePaper[] = [];
  for (const file of files ?? (await polyieSplitFiles(dataRoot)))
    papers.push(
      ...parsePolyie(await readRegularFile(join(dataRoot, 'datasets', 'polyie', file), 'utf8'), file.replace(/\.json$/u, ''), schemas),
    );
  return papers;
}
