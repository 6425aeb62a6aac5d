/**
 * HTML capture on real saved publisher pages from ../shared/fixtures: for a few pages per
 * publisher, the DOI and title, a sentence / caption / table cell that must be in the text, and
 * a reference-list entry that must not be. (The all-corpus DOI check lives elsewhere.)
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ArticleSchema, type Article } from '../../src/contracts/article';
import { decodeDocumentBytes } from '../../src/capture/detect-type';
import { CaptureError } from '../../src/capture/errors';
import { captureHtml } from '../../src/capture/html/capture-html';
import { nodeDomParser } from '../../src/capture/node/node-dom';
import { sharedDataSkipReason, sharedPath } from '../support/shared-data';

const skipReason = sharedDataSkipReason();

function captureFixture(path: string): Article {
  const text = decodeDocumentBytes(new Uint8Array(readFileSync(sharedPath('fixtures', path))));
  return ArticleSchema.parse(captureHtml(nodeDomParser().parseFromString(text, 'text/html'), { url: null }));
}

interface Expectation {
  path: string;
  doi: string | null;
  title: string;
  adapter: string;
  /** Texts that must be in `Article.text` (body sentences, captions, table rows with tabs). */
  present: string[];
  /** Reference-list entries (or page furniture) that must not be. */
  absent: string[];
}

const FULL_ARTICLES: Expectation[] = [
  {
    path: 'acs/chp__Toland.et.al.2023_acs.jpca.3c05870.html',
    doi: '10.1021/acs.jpca.3c05870',
    title: 'Accelerated Scheme to Predict Ring-Opening Polymerization Enthalpy',
    adapter: 'acs',
    present: ['Figure 1. Flowchart describing the overall computational workflow', 'polymers w/ΔHexptROP only\t41'],
    absent: ['Borrelle, S. B.', 'Download MS PowerPoint Slide', 'This article is cited by'],
  },
  {
    path: 'rsc/cde2__test_paper_C7TA06843C.html',
    doi: '10.1039/c7ta06843c',
    title: 'High performance carbon-coated hollow Ni',
    adapter: 'rsc',
    present: [
      'Scheme 1 Schematic illustration showing the preparation of the Ni12P5@C/GNS composite.',
      'Material description\tPreparation strategy',
    ],
    absent: ['A. Devaraj, M. Gu, R. Colby', 'First published on'],
  },
  {
    path: 'elsevier/html-legacy/limesoup__101016jijfatigue201305006.html',
    // Only a PII is in this page: no DOI may be invented.
    doi: null,
    title: 'Multiaxial fatigue criteria versus experiments for small crack',
    adapter: 'elsevier',
    present: ['Fig. 1. Shapes and sizes of specimen and artificial micro-notches adopted in fatigue tests.', 'Bearing steel\t2360\t1980'],
    absent: ['T.A. Harris, M.N. Kotzalas', 'Received 8 April 2013'],
  },
  {
    path: 'springer/limesoup__101007s10853-006-0223-4.html',
    doi: '10.1007/s10853-006-0223-4',
    title: 'Affordable, safe housing based on expanded polystyrene',
    adapter: 'springer',
    present: ['Fig. 1 Wire mesh/truss panel', 'Materials\t$680\t$1,390'],
    absent: ['Day of mourning for Afghan quake victims'],
  },
  {
    path: 'nature/limesoup__101038nmat942.html',
    doi: '10.1038/nmat942',
    title: 'Two- versus three-dimensional quantum confinement',
    adapter: 'springer',
    present: ['Mean diameters: a, 4.49 ± 0.75 nm', 'Figure 2: Transmission electron microscope images of InP quantum wires.'],
    absent: ['Semiconductor quantum dots and related systems', 'Full size image'],
  },
  {
    path: 'wiley/limesoup__101002bio3051.html',
    doi: '10.1002/bio.3051',
    title: 'Rare earth activated yttrium aluminate phosphors',
    adapter: 'wiley',
    present: [
      'Table 1. Compositions and emission intensities of rare earth doped YAG samples',
      'Figure 1 Normalised XRD patterns (a), and FT‐IR spectra (b)',
    ],
    absent: ['Selecting conversion phosphors for white'],
  },
  {
    path: 'iop/papis__iopscience_2.html',
    doi: '10.1088/1748-605x/ab007b',
    title: 'Resorbable PCEC/gelatin-bismuth doped bioglass-graphene oxide',
    adapter: 'iop',
    present: ['Figure 1. Preparation of GBR bilayer membranes.', 'BG20\t5\t20\t0'],
    absent: ['Ueyama Y, Ishikawa K'],
  },
  {
    path: 'aip/limesoup__APL-Materials.10.1063-1.4817897.html',
    doi: '10.1063/1.4817897',
    title: 'Paramagnetic FexTa1-x alloys',
    adapter: 'aip',
    present: ['Hex=H0exp[−γ·t], (1)', 'Controlled magnetic interlayer coupling has enabled'],
    absent: ['H.-C. Tong, F. Liu', 'Baibich'],
  },
  {
    path: 'mdpi-triple/norma__metabo4040932_fulltext.html',
    doi: '10.3390/metabo4040932',
    title: 'Volatile Metabolite Profiling of Durum Wheat Kernels',
    adapter: 'mdpi',
    present: ['1\t2-Methylfuran\tAromatics', 'Figure 1. PCA t[1]/t[2] score plot of SPME-GC/MS data.'],
    absent: ['Influence of climatic factors on Fusarium species', 'Click here to'],
  },
  {
    path: 'ecs/limesoup__10114911543949.html',
    doi: '10.1149/1.1543949',
    title: 'Reactivity of Metallic Lithium Toward',
    adapter: 'ecs',
    present: ['Figure 1. Auger electron spectra of a thick, polycrystalline Li foil'],
    absent: ['Rendek L. J., Chottiner G. S.'],
  },
];

describe.skipIf(skipReason)('HTML capture of real full-text pages', () => {
  it.each(FULL_ARTICLES)('$path', (expected) => {
    const article = captureFixture(expected.path);
    expect(article.doi).toBe(expected.doi);
    expect(article.title.startsWith(expected.title)).toBe(true);
    expect(article.adapter).toBe(expected.adapter);
    expect(article.abstractOnly).toBe(false);
    expect(article.blocks.some((block) => block.section === 'Abstract')).toBe(true);
    for (const text of expected.present) expect(article.text).toContain(text);
    for (const text of expected.absent) expect(article.text).not.toContain(text);
  });

  it('finds the DOI of a legacy ScienceDirect page without DOI meta in the page itself', () => {
    const article = captureFixture('elsevier/html-legacy/norma__j.ympev.2014.10.009_fulltext.html');
    expect([article.doi, article.doiOrigin]).toEqual(['10.1016/j.ympev.2014.10.009', 'body']);
    expect(article.warnings.join(' ')).toMatch(/body/);
  });
});

describe.skipIf(skipReason)('HTML capture of real landing pages and non-articles', () => {
  it.each([
    ['acs/papis__acs_4.html', '10.1021/nl2028766', 'europium hydroxide nanorods'],
    ['aps/papis__RevModPhys.94.045004.html', '10.1103/revmodphys.94.045004', 'electron scattering instrumentation'],
    ['elsevier/html/papis__sciencedirect_1.html', '10.1016/s0009-2614(97)04014-1', 'Cr2 potential energy curve'],
  ])('%s is abstract only, with the abstract and without page furniture', (path, doi, abstractWords) => {
    const article = captureFixture(path);
    expect(article).toMatchObject({ doi, abstractOnly: true });
    expect(article.text).toContain(abstractWords);
    expect(article.text).not.toMatch(/Authorization Required|KEYWORDS|Get rights and content/);
  });

  it.each([
    ['blocked/papis__ACS_jp003647e_cloudflare.html', 'bot-check'],
    ['rsc/cde2__searchresults_NOT_AN_ARTICLE.html', 'search-results'],
  ])('%s is rejected as %s', (path, code) => {
    expect(() => captureFixture(path)).toThrow(CaptureError);
    try {
      captureFixture(path);
    } catch (error) {
      expect((error as CaptureError).code).toBe(code);
    }
  });
});
