/**
 * PDF capture on the real PDFs in ../shared/fixtures (skipped when absent). Expected DOIs and
 * titles are the ones printed on page 1 (SOURCES.md; for rows marked WARNING the SuperMat biblio
 * metadata belongs to another paper, and for arXiv preprints the journal DOI is not printed).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ArticleSchema, type Article } from '../../src/contracts/article';
import { CaptureError } from '../../src/capture/errors';
import { articleFromLayout, capturePdf } from '../../src/capture/pdf/capture-pdf';
import { readPdfLayout } from '../../src/capture/pdf/read-pdf';
import { sharedDataSkipReason, sharedPath } from '../support/shared-data';

const skipReason = sharedDataSkipReason();
const fixtures = skipReason ? '' : sharedPath('fixtures');

function pdfFiles(): string[] {
  if (skipReason) return [];
  const underPdf = (readdirSync(join(fixtures, 'pdf'), { recursive: true }) as string[]).map((file) => join('pdf', file));
  const mdpi = readdirSync(join(fixtures, 'mdpi-triple')).map((file) => join('mdpi-triple', file));
  return [...underPdf, ...mdpi].filter((file) => file.endsWith('.pdf')).sort();
}

const IMAGE_ONLY = 'pdf/scanned-control/ocrmypdf__c02-22_image_only_NOT_SCIENCE.pdf';

function bytes(file: string): Uint8Array {
  return new Uint8Array(readFileSync(join(fixtures, file)));
}

const captured = new Map<string, Article>();
async function capture(file: string): Promise<Article> {
  const known = captured.get(file);
  if (known) return known;
  const article = await capturePdf(bytes(file), {});
  captured.set(file, article);
  return article;
}

describe.skipIf(skipReason !== undefined)('PDF fixtures', () => {
  const textPdfs = pdfFiles().filter((file) => file !== IMAGE_ONLY);

  it('finds the PDFs (45 text PDFs in the shared set)', () => {
    expect(textPdfs.length).toBeGreaterThanOrEqual(44);
  });

  it.each(textPdfs)('%s yields text on every page and a valid article', async (file) => {
    const layout = await readPdfLayout(bytes(file));
    const emptyPages = layout.pages.filter((page) => page.characterCount === 0).map((page) => page.pageNumber);
    expect(emptyPages, `pages without text in ${relative(fixtures, join(fixtures, file))}`).toEqual([]);
    expect(layout.pageErrors).toEqual([]);
    const article = articleFromLayout(layout, null);
    captured.set(file, article);
    expect(ArticleSchema.safeParse(article).success).toBe(true);
    expect(article.text.length).toBeGreaterThan(1000);
    expect(article.pageCount).toBe(layout.pages.length);
    expect(article.blocks.every((block) => block.page !== undefined && block.page >= 1 && block.page <= layout.pages.length)).toBe(true);
  });

  it('reports the image-only scan as no-text-layer', async () => {
    const error = await capturePdf(bytes(IMAGE_ONLY), {}).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(CaptureError);
    expect((error as CaptureError).code).toBe('no-text-layer');
  });

  it('reports the first half of a real PDF as truncated', async () => {
    const whole = bytes('pdf/iop/limesoup__cm_28_9_094014.pdf');
    const error = await capturePdf(whole.subarray(0, Math.floor(whole.length / 2)), {}).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(CaptureError);
    expect((error as CaptureError).code).toBe('truncated');
  });

  it.each([
    [
      'pdf/iop/limesoup__cm_28_9_094014.pdf',
      '10.1088/0953-8984/28/9/094014',
      'Surface etching, chemical modification and characterization of silicon nitride and silicon oxide',
    ],
    [
      'pdf/iop/limesoup__2dm_3_1_011003.pdf',
      '10.1088/2053-1583/3/1/011003',
      'Low tension graphene drums for electromechanical pressure sensing',
    ],
    [
      'pdf/iop/limesoup__sms_25_12_125015.pdf',
      '10.1088/0964-1726/25/12/125015',
      'High performance of macro-flexible piezoelectric energy harvester',
    ],
    [
      'mdpi-triple/norma__metabo4040932_fulltext.pdf',
      '10.3390/metabo4040932',
      'Volatile Metabolite Profiling of Durum Wheat Kernels Contaminated by Fusarium poae',
    ],
    ['pdf/physics-misc/grobid__0807.3577_JCAP.pdf', '10.1088/1475-7516/2008/10/003', 'Apparent and average accelerations of the Universe'],
    [
      'pdf/supercon/supermat__PhysRevX.9.021044-CC.pdf',
      '10.1103/physrevx.9.021044',
      'Normal State 17O NMR Studies of Sr2RuO4 under Uniaxial Stress',
    ],
    [
      'pdf/supercon/supermat__piva2015combined-CC.pdf',
      '10.1088/0953-8984/27/14/145701',
      'Combined external pressure and Cu-substitution studies on BaFe2As2 single crystals',
    ],
    // arXiv preprints: the journal DOI is not printed, so none may be reported.
    ['pdf/supercon/supermat__1903.04321-CC.pdf', null, 'Enhanced, homogeneous type II superconductivity in Cu-intercalated PdTe2'],
    ['pdf/supercon/supermat__EPL0410207-CC.pdf', null, 'Upper critical field in Ba1-xKxBiO3: magnetotransport versus magnetotunneling'],
    // WARNING rows: SuperMat's biblio DOI/title belong to another paper; page 1 is the truth.
    ['pdf/supercon/supermat__L089157004-CC.pdf', null, 'Superconductivity and Quantum Criticality in CeCoIn5'],
    ['pdf/supercon/supermat__SSC1270493-CC.pdf', null, 'Superconductivity in CoSr2(Y1-xCax)Cu2O7+δ'],
  ] as const)('%s: DOI %s and title', async (file, doi, title) => {
    const article = await capture(file);
    expect(article.doi).toBe(doi);
    if (doi) expect(article.doiOrigin).toBe('pdf-text');
    expect(article.title.startsWith(title), article.title).toBe(true);
  });

  it("takes authors, journal and volume from a publisher's XMP packet (IOP), none from a packet without a publication name", async () => {
    const iop = await capture('pdf/iop/limesoup__sms_25_12_125015.pdf');
    expect(iop).toMatchObject({ journal: 'Smart Materials and Structures', volume: '25' });
    expect(iop.authors).toEqual(['Zhou Zeng', 'Rongyu Xia', 'Linlin Gai', 'Xian Wang', 'Di Lin', 'Haosu Luo', 'Faxin Li', 'Dong Wang']);
    // Its XMP gives the PDF's own pages 1–8; the paper is cited by article number: no pages.
    expect(iop.pages ?? null).toBeNull();
    const preprint = await capture('pdf/supercon/supermat__1903.04321-CC.pdf');
    expect(preprint).toMatchObject({ authors: [], journal: null });
  });

  it('reads a two-column REVTeX preprint in column order, without the arXiv stamp or the reference list', async () => {
    const article = await capture('pdf/supercon/supermat__1903.04321-CC.pdf');
    expect(article.text).toContain(
      'Though initial experimental papers suggested the possibility of an unconventional nature of the superconducting phase of PdTe2, a number of experiments confirmed that the superconductivity in PdTe2 is conventional in nature [9, 10].',
    );
    // The last body paragraph of the left column continues at the top of the right column.
    expect(article.text).toMatch(/such zero-bias peaks in presence of sufficiently large magnetic field/);
    expect(article.text).not.toContain('arXiv:1903.04321');
    expect(article.text).not.toContain('Han-Jin Noh');
    expect(article.warnings.join(' ')).toContain('1903.04321v1');
  });

  it('reads the two-column IOP paper with its sections, without running headers', async () => {
    const article = await capture('pdf/iop/limesoup__cm_28_9_094014.pdf');
    const headings = article.blocks.filter((block) => block.kind === 'heading').map((block) => block.text);
    expect(headings).toEqual(expect.arrayContaining(['1. Introduction', '2. Experimental section', '2.1. Materials', '4. Conclusions']));
    const materials = article.blocks.find((block) => block.section === '2.1. Materials' && block.kind === 'paragraph');
    expect(materials?.text).toMatch(/^The following chemicals were used as received without further purification/);
    // The running header "J. Phys.: Condens. Matter 28 (2016) 094014" is printed on every page.
    expect(article.text.match(/J\. Phys\.: Condens\. Matter 28 \(2016\) 094014/g)?.length ?? 0).toBeLessThanOrEqual(1);
    expect(article.blocks.some((block) => block.kind === 'caption' && block.text.startsWith('Figure 1.'))).toBe(true);
  });

  it('keeps chemical formulas whole across line ends', async () => {
    const article = await capture('pdf/supercon/supermat__EPL0410207-CC.pdf');
    expect(article.text).toContain('Ba1-xKxBiO3');
    expect(article.text).not.toMatch(/Ba1-\s+xKx/);
  });

  it('captures the 59-page review with the title printed on it', async () => {
    const article = await capturePdf(bytes('pdf/supercon/supermat__hott2013review-CC.pdf'), {});
    expect(article.pageCount).toBe(59);
    expect(article.title).toBe('Review on Superconducting Materials');
  });
});
