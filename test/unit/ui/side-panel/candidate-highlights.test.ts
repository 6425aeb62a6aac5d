import { describe, expect, it } from 'vitest';
import { HighlightItemSchema } from '../../../../src/contracts/messages';
import { loadPropertySchemas } from '../../../../src/properties';
import { scanFor } from '../../../support/scan-for';
import {
  CANDIDATE_NOTE,
  candidateHighlightItems,
  candidateStatusCode,
  candidateStatusText,
  MAX_CANDIDATE_HIGHLIGHTS,
  scanHighlightItems,
  showsCandidates,
  UNKNOWN_MATERIAL,
  type CandidateState,
} from '../../../../src/ui/side-panel/candidate-highlights';
import { articleFromBlocks, paragraph, table } from '../../text/article-from-blocks';
import { record, runRow } from '../run-fixtures';

const schemas = loadPropertySchemas();
const labels = new Map(schemas.map((schema) => [schema.name, schema.label]));
const label = (name: string) => labels.get(name) ?? name;

// Sentences from test/unit/text/scan.test.ts (bandgap-200: 10.1039/C7CP03960C and 10.1021/ic4018135;
// the table of PhysRevB.90.214101), after a heading. Blocks are joined by "\n\n":
//   b0 "Electronic structure"  [0, 20)
//   b1 [22, 115): "We studied H-MoSe2 monolayers. " is 31 characters, so its second sentence starts at 53
//   b2 [117, 189)
//   b3 [191, 293): header row + first data row end at 191 + 81 = 272
const header = '\tV0 (Å3)\tK0 (GPa)\tK0′\tPressure medium';
const article = articleFromBlocks([
  paragraph('Electronic structure'),
  paragraph('We studied H-MoSe2 monolayers. It is a semiconductor with a direct band gap of about 1.13 eV.'),
  paragraph('This is similar to LaOBiS2 where the energy gap was found to be 0.82 eV.'),
  table(`${header}\n3C-SrMnO3−δ BM3\t55.58(2)\t146(5)\t6.4(5)\tNeon\nPXRD V0\t55.259(3)\t\t\t`),
]);
const { candidates } = scanFor(article, schemas);

describe('candidateHighlightItems', () => {
  it('turns each candidate into a candidate item quoting its sentence or table row, marking the value', () => {
    const { items, total } = candidateHighlightItems(article, candidates, label);
    expect(total).toBe(3);
    expect(items.map((item) => [item.id, item.status, item.position?.start, item.position?.end, item.mark])).toEqual([
      ['candidate-0', 'candidate', 53, 115, 'about 1.13 eV'],
      ['candidate-1', 'candidate', 117, 189, '0.82 eV'],
      ['candidate-2', 'candidate', 191, 272, '146(5)'],
    ]);
    expect(items[0]!.quote).toEqual({
      type: 'TextQuoteSelector',
      exact: 'It is a semiconductor with a direct band gap of about 1.13 eV.',
      prefix: '\nWe studied H-MoSe2 monolayers. ', // 32 characters before offset 53
      suffix: '\n\nThis is similar to LaOBiS2 whe',
    });
    expect(items[2]!.quote.exact).toBe(`${header}\n3C-SrMnO3−δ BM3\t55.58(2)\t146(5)\t6.4(5)\tNeon`);
    expect(items.map((item) => item.card)).toEqual([
      // "a direct band gap": the direction the scan read for the value (issue 26), as the verdicts say it.
      { material: 'H-MoSe2', property: label('band_gap'), value: 'about 1.13', unit: 'eV', conditions: 'direct', agreed: CANDIDATE_NOTE },
      { material: 'LaOBiS2', property: label('band_gap'), value: '0.82', unit: 'eV', agreed: CANDIDATE_NOTE },
      { material: '3C-SrMnO3−δ', property: label('bulk_modulus'), value: '146(5)', unit: 'GPa', agreed: CANDIDATE_NOTE },
    ]);
    // Every item is a valid `highlight-show` item, and its quote is the article's text at its position.
    for (const item of items) {
      expect(HighlightItemSchema.safeParse(item).success).toBe(true);
      expect(article.text.slice(item.position!.start, item.position!.end)).toBe(item.quote.exact);
      expect(item.quote.exact).toContain(item.mark);
    }
  });

  it('gives a value printed in another unit its display-unit value for the card, and none to one already in it', () => {
    const inMeV = articleFromBlocks([paragraph('The band gap of bilayer graphene under bias opens to 250 meV at 10 K.')]);
    const [item] = candidateHighlightItems(inMeV, scanFor(inMeV, schemas).candidates, label).items;
    expect(item!.card).toMatchObject({ value: '250', unit: 'meV', display: '0.250 eV' });
    expect(HighlightItemSchema.safeParse(item).success).toBe(true);
    // 1.13 eV is already in the band gap's display unit: nothing is repeated.
    expect(candidateHighlightItems(article, candidates, label).items[0]!.card.display).toBeUndefined();
  });

  it("shows a candidate's conditions, provenance and doubts on its card, as text", () => {
    // General sentences of the kinds issue 26 names: a "respectively" pair of methods, a cited value,
    // and two methods the sentence does not pair with its value.
    const facts = articleFromBlocks([
      paragraph('The band gap of GaN is 1.86 and 2.31 eV at the GGA/PBE and HSE06 levels, respectively.'),
      paragraph('SnS was shown to be a semiconductor with a band gap of 1.3 eV [12].'),
      paragraph('Using PBE and HSE06 we find that ZnO has a band gap of 2.9 eV.'),
    ]);
    const { items } = candidateHighlightItems(facts, scanFor(facts, schemas).candidates, label);
    expect(items.map((item) => [item.card.material, item.card.value, item.card.conditions, item.card.provenance])).toEqual([
      ['GaN', '1.86', 'GGA-PBE', 'computed'],
      ['GaN', '2.31', 'HSE06', 'computed'],
      ['SnS', '1.3', undefined, 'cited [12]'],
      ['ZnO', '2.9', undefined, 'computed'],
    ]);
    expect(items[2]!.card.doubts).toEqual(['cited [12]: a value the paper quotes from elsewhere, not its own result']);
    expect(items[3]!.card.doubts?.[0]).toMatch(/two methods \(PBE, HSE06\)/);
    expect(items[0]!.card.doubts).toBeUndefined();
    for (const item of items) expect(HighlightItemSchema.safeParse(item).success).toBe(true);
  });

  it('caps the items at the limit (default 500) and still counts every candidate', () => {
    expect(MAX_CANDIDATE_HIGHLIGHTS).toBe(500);
    const many = Array.from({ length: 501 }, () => candidates[0]!);
    const capped = candidateHighlightItems(article, many, label);
    expect(capped.items).toHaveLength(500);
    expect(capped.total).toBe(501);
    expect(capped.items.at(-1)?.id).toBe('candidate-499');
    const two = candidateHighlightItems(article, candidates, label, 2);
    expect(two.items.map((item) => item.id)).toEqual(['candidate-0', 'candidate-1']);
  });

  it('names a missing material, falls back to the unit symbol, and leaves out a span it cannot quote', () => {
    const [first] = candidates;
    const unlinked = { ...first!, material: null, quantity: { ...first!.quantity, unitText: '' } };
    const empty = { ...first!, segment: { ...first!.segment, start: 60, end: 60 } };
    const outside = { ...first!, segment: { ...first!.segment, end: article.text.length + 1 } };
    const { items, total } = candidateHighlightItems(article, [empty, unlinked, outside], label);
    expect(total).toBe(3);
    // The ids keep the candidates' indices: the one item is the second candidate.
    expect(items.map((item) => [item.id, item.card.material, item.card.unit])).toEqual([['candidate-1', UNKNOWN_MATERIAL, 'eV']]);
  });
});

describe('scanHighlightItems pages', () => {
  it('gives each candidate of a PDF the page of its text, and none on a web page', () => {
    const paged = articleFromBlocks([
      { ...paragraph('We studied H-MoSe2 monolayers. It is a semiconductor with a direct band gap of about 1.13 eV.'), page: 1 },
      { ...paragraph('Results continue here.'), page: 2 },
      { ...paragraph('This is similar to LaOBiS2 where the energy gap was found to be 0.82 eV.'), page: 3 },
    ]);
    const { items, pages } = scanHighlightItems(paged, schemas);
    expect(items.map((item) => [item.card.material, pages[item.id]])).toEqual([
      ['H-MoSe2', 1],
      ['LaOBiS2', 3],
    ]);
    expect(scanHighlightItems(article, schemas).pages).toEqual({});
  });
});

describe('showsCandidates', () => {
  it('shows candidates when the paper has no run, or a run without records (going or ended), until records were seen', () => {
    expect(showsCandidates(undefined, false)).toBe(false); // still loading
    expect(showsCandidates(null, false)).toBe(true);
    expect(showsCandidates(null, true)).toBe(false);
    expect(showsCandidates(runRow(), false)).toBe(true);
    expect(showsCandidates(runRow(), true)).toBe(false); // a new run after one with results
    expect(showsCandidates(runRow({ records: [record('verified')] }), false)).toBe(false);
    // A run that ended without a record (failed at once, stopped, or found nothing) leaves the candidates.
    expect(showsCandidates(runRow({ status: 'interrupted' }), false)).toBe(true);
    expect(showsCandidates(runRow({ status: 'done' }), false)).toBe(true);
    expect(showsCandidates(runRow({ status: 'cancelled' }), false)).toBe(true);
    expect(showsCandidates(runRow({ status: 'interrupted' }), true)).toBe(false);
    expect(showsCandidates(runRow({ status: 'done', records: [record('rejected')] }), false)).toBe(false);
  });
});

describe('candidate status', () => {
  const { items } = candidateHighlightItems(article, candidates, label);
  const line = (state: CandidateState) => [candidateStatusCode(state), candidateStatusText(state)];

  it('says what the scan and the page did', () => {
    expect(line({ phase: 'scanning' })).toEqual(['scanning', 'Looking for values in the paper…']);
    expect(line({ phase: 'failed', message: 'boom' })).toEqual(['failed', 'The quick scan failed: boom']);
    expect(line({ phase: 'ready', items: [], total: 0 })).toEqual(['none', 'The quick scan found no values to highlight.']);
    expect(line({ phase: 'ready', items, total: 3 })).toEqual(['sending', 'Highlighting 3 candidates…']);
    const report = (anchored: string[], failed: string[]) => ({
      ok: true as const,
      report: {
        anchored,
        failed: failed.map((id) => ({ id, reason: 'The quote is not in the page.' })),
        method: 'custom-highlight' as const,
      },
    });
    expect(line({ phase: 'ready', items, total: 3, response: report(['candidate-0', 'candidate-1', 'candidate-2'], []) })).toEqual([
      'shown',
      '3 candidates highlighted',
    ]);
    expect(line({ phase: 'ready', items, total: 3, response: report(['candidate-0'], ['candidate-1', 'candidate-2']) })).toEqual([
      'shown',
      '1 candidate highlighted · 2 not found in the page',
    ]);
    // Capped: 3 items sent of 700 found.
    expect(line({ phase: 'ready', items, total: 700, response: report(['candidate-0', 'candidate-1', 'candidate-2'], []) })[1]).toBe(
      '3 candidates highlighted · the first 3 of 700',
    );
    expect(line({ phase: 'ready', items, total: 3, response: { ok: false, failure: { code: 'no-tab', message: 'No tab.' } } })).toEqual([
      'unreachable',
      'Candidates are not highlighted in this page: No tab.',
    ]);
  });
});
