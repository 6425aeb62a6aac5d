/**
 * The PolyIE loader on a tiny self-made split: documents rebuilt as articles, relations kept by
 * schema; and `evaluatePolyie` on a data root holding only a test split (it reads every
 * `*_split.json` there and says which in `split`).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ArticleSchema } from '../../../src/contracts/article';
import type { Triplet } from '../../../src/contracts/triplet';
import { parsePolyie, polyieSplitFiles } from '../../../src/eval/polyie/polyie-dataset';
import { evaluatePolyie } from '../../../src/eval/polyie/polyie-evaluation';
import { evidenceSplit } from '../../../src/eval/evidence/evidence-datasets';
import { loadPropertySchemas } from '../../../src/properties';
import { testDependencies } from './scorer-doubles';

const split = JSON.stringify({
  text: [[['P3HT', 'has', 'an', 'optical', 'band', 'gap', 'of', '1.9', 'eV', 'and', 'a', 'PCE', 'of', '4', '%', '.']]],
  label: [[[]]],
  relation: [
    [
      [
        [
          [0, 1],
          [3, 6],
          [7, 9],
        ],
        [
          [0, 1],
          [11, 12],
          [13, 15],
        ],
      ],
    ],
  ],
});

describe('parsePolyie', () => {
  it('keeps the relations whose property has a schema, on an article of the tokens', () => {
    const [paper] = parsePolyie(split, 'validation_split', loadPropertySchemas());
    expect(paper!.id).toBe('validation_split/0');
    expect(ArticleSchema.safeParse(paper!.article).success).toBe(true);
    expect(paper!.article.text).toBe('P3HT has an optical band gap of 1.9 eV and a PCE of 4 % .');
    expect(paper!.truths).toEqual([
      { aliases: ['P3HT'], property: 'band_gap', value: { kind: 'number', value: 1.9 }, unit: 'eV', valueText: '1.9 eV' },
    ]);
    expect(paper!).toMatchObject({ relations: 2, withoutSchema: 1 });
  });
});

describe('evaluatePolyie', () => {
  const withDataRoot = async (files: string[], body: (dataRoot: string) => Promise<void>) => {
    const dataRoot = mkdtempSync(join(tmpdir(), 'assay-polyie-'));
    try {
      mkdirSync(join(dataRoot, 'datasets', 'polyie'), { recursive: true });
      for (const file of files) writeFileSync(join(dataRoot, 'datasets', 'polyie', file), split);
      await body(dataRoot);
    } finally {
      rmSync(dataRoot, { recursive: true, force: true });
    }
  };
  const p3ht: Triplet = {
    material: 'P3HT',
    property: 'band_gap',
    value: { kind: 'number', value: 1.9 },
    unit: 'eV',
    valueText: '1.9 eV',
    engine: 'oracle',
  };

  it('reads a data root holding only test_split.json, and says so in split', async () => {
    await withDataRoot(['test_split.json'], async (dataRoot) => {
      const result = await evaluatePolyie({
        dataRoot,
        engine: { name: 'oracle', extractor: async () => [p3ht] },
        dependencies: testDependencies,
      });
      expect(result).toMatchObject({ dataset: 'polyie', split: 'test', properties: ['band_gap'], relations: 2, withoutSchema: 1 });
      expect(result.strict).toMatchObject({ predictions: 1, truths: 1, matched: 1 });
      expect(result.papers.map((paper) => paper.paper)).toEqual(['test_split/0']);
      // --context and --attribution on polyie say the same.
      expect(await evidenceSplit('polyie', dataRoot)).toBe('test');
    });
  });

  it('reads train, validation, test in that order, then others by name; rejects a folder with none', async () => {
    await withDataRoot(
      ['test_split.json', 'extra_split.json', 'validation_split.json', 'train_split.json', 'notes.json'],
      async (dataRoot) => {
        expect(await polyieSplitFiles(dataRoot)).toEqual([
          'train_split.json',
          'validation_split.json',
          'test_split.json',
          'extra_split.json',
        ]);
        const result = await evaluatePolyie({
          dataRoot,
          engine: { name: 'none', extractor: async () => [] },
          dependencies: testDependencies,
        });
        expect(result.split).toBe('train+validation+test+extra');
      },
    );
    await withDataRoot([], async (dataRoot) => {
      await expect(polyieSplitFiles(dataRoot)).rejects.toThrow(/no \*_split\.json/);
    });
  });
});
