/** The PolyIE loader on a tiny self-made split: documents rebuilt as articles, relations kept by schema. */
import { describe, expect, it } from 'vitest';
import { ArticleSchema } from '../../../src/contracts/article';
import { parsePolyie } from '../../../src/eval/polyie/polyie-dataset';
import { loadPropertySchemas } from '../../../src/properties';

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
