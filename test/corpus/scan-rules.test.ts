/**
 * The scan and the rules extractor on real captured articles: candidates are found, and every
 * rules triplet grounds (quote at its position, value and unit in the quote, and the grounding
 * gate of src/verify agrees): a grounding rate of 100%.
 */
import { readdirSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Article } from '../../src/contracts/article';
import type { Triplet } from '../../src/contracts/triplet';
import { captureFile } from '../../src/cli/capture-command';
import { extractWithRules } from '../../src/extract/rules';
import { scanFor } from '../support/scan-for';
import { ground } from '../../src/verify/ground';
import { expectEvidenceInText } from '../support/expect-evidence';
import { sharedDataSkipReason, sharedPath } from '../support/shared-data';

const skipReason = sharedDataSkipReason();

function expectGrounded(triplets: Triplet[], article: Article): void {
  for (const triplet of triplets) {
    expectEvidenceInText(triplet, article);
    const { quote } = triplet.evidence!;
    const verdict = ground(triplet, article);
    const label = `${triplet.material} ${triplet.property} ${triplet.valueText} ${triplet.unit}: ${quote.exact.slice(0, 200)}`;
    expect(verdict.anchored, label).toBe(true);
    // Table triplets included: a cell printed without its unit ("146(5)" under "K0 (GPa)") grounds
    // because the quote takes in the header row. On failure the diff shows the gate's reasons.
    expect(verdict.reasons, label).toEqual(verdict.grounded ? verdict.reasons : ['grounded']);
  }
}

// Articles with known facts: [fixture path under ../shared, property, a triplet expected among the rules output].
const fixtures: [string, string, [string, string, string]][] = [
  ['fixtures/aps/xml/limesoup__10.1103_PhysRevB.90.214101.xml', 'bulk_modulus', ['SrMnO2.5', 'bulk_modulus', '121']],
  ['fixtures/pdf/supercon/supermat__P066020501-CC.pdf', 'tc', ['YBa2Cu3O7', 'tc', '93']],
  ['datasets/bandgap-200/text-pub/7_10.1021_ic4018135.txt', 'band_gap', ['LaOBiS2', 'band_gap', '0.82']],
  ['fixtures/acs/chp__Toland.et.al.2023_acs.jpca.3c05870.html', '', ['', '', '']],
];

describe.skipIf(skipReason !== undefined)('scan and rules on real articles', () => {
  it.each(fixtures)('%s', async (path, property, expected) => {
    const article = await captureFile(sharedPath(path));
    const scan = scanFor(article);
    expect(scan.quantities.length).toBeGreaterThan(0);
    if (property) expect(scan.candidates.some((candidate) => candidate.property === property)).toBe(true);
    const triplets = extractWithRules(article);
    expectGrounded(triplets, article);
    if (expected[0]) {
      expect(triplets.map((triplet) => [triplet.material, triplet.property, triplet.valueText])).toContainEqual(expected);
    }
  });

  it('grounds a table triplet whose unit is printed only in the column header (PhysRevB.90.214101 Table III)', async () => {
    const article = await captureFile(sharedPath('fixtures/aps/xml/limesoup__10.1103_PhysRevB.90.214101.xml'));
    const fromTable = extractWithRules(article).filter((triplet) => triplet.evidence!.quote.exact.includes('\t'));
    expect(fromTable.map((triplet) => [triplet.property, triplet.valueText, triplet.unit])).toContainEqual([
      'bulk_modulus',
      '146(5)',
      'GPa',
    ]);
    for (const triplet of fromTable)
      expect(ground(triplet, article)).toMatchObject({ anchored: true, valueInQuote: true, unitInQuote: true, grounded: true });
  });

  describe('every bandgap-200 publisher text', () => {
    const folder = sharedPath('datasets', 'bandgap-200', 'text-pub');
    const articles: Article[] = [];
    beforeAll(async () => {
      for (const file of readdirSync(folder)
        .filter((name) => name.endsWith('.txt'))
        .sort())
        articles.push(await captureFile(`${folder}/${file}`));
    });

    it('grounds every rules triplet (grounding rate 100%)', () => {
      let count = 0;
      for (const article of articles) {
        const triplets = extractWithRules(article);
        expectGrounded(triplets, article);
        count += triplets.length;
      }
      expect(articles.length).toBe(100);
      expect(count).toBeGreaterThan(10);
    });
  });
});
