/**
 * Capture every file in ../shared/fixtures and hold the results against fixtures/SOURCES.md:
 * the listed DOI must be found (share reported; the gate is 95% of the DOIs the listing says
 * are written in the document), negative controls must be rejected for the right reason, and a
 * per-publisher table is printed.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Article } from '../../src/contracts/article';
import { toCaptureFailure } from '../../src/capture/errors';
import { captureFile } from '../../src/cli/capture-command';
import { parseFixtureSources, type FixtureSource } from '../support/fixture-sources';
import { sharedDataSkipReason, sharedPath } from '../support/shared-data';
import type { CaptureFailure } from '../../src/contracts/capture-failure';

interface Outcome {
  source: FixtureSource;
  article?: Article;
  failure?: CaptureFailure;
  milliseconds: number;
}

const skipReason = sharedDataSkipReason();
if (skipReason) console.warn(skipReason);

/** Lower-case letters and digits only, so markup and punctuation differences do not count. */
function comparable(text: string): string {
  return text
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
}

/** The listing truncates titles at ~130 characters and sometimes quotes PDF page text instead. */
function titleMatches(expected: string, actual: string): boolean {
  const want = comparable(expected).slice(0, 60);
  return want.length > 0 && comparable(actual).includes(want);
}

describe.skipIf(skipReason !== undefined)('capture over every shared fixture', () => {
  const outcomes: Outcome[] = [];

  beforeAll(async () => {
    const sources = parseFixtureSources(readFileSync(sharedPath('fixtures', 'SOURCES.md'), 'utf8'));
    for (const source of sources) {
      const started = performance.now();
      try {
        const article = await captureFile(sharedPath('fixtures', source.file));
        outcomes.push({ source, article, milliseconds: performance.now() - started });
      } catch (error) {
        outcomes.push({ source, failure: toCaptureFailure(error), milliseconds: performance.now() - started });
      }
    }
    printPublisherTable(outcomes);
  });

  it('lists and captures every fixture file', () => {
    expect(outcomes.length).toBeGreaterThan(100);
    const crashed = outcomes.filter((outcome) => outcome.failure && !outcome.source.negativeControl);
    expect(crashed.map((outcome) => `${outcome.source.file}: ${outcome.failure?.code} ${outcome.failure?.message}`)).toEqual([]);
  });

  it('finds at least 95% of the DOIs written in the documents', () => {
    const expected = outcomes.filter((outcome) => outcome.source.doiInDocument);
    const found = expected.filter((outcome) => outcome.article?.doi === outcome.source.doi);
    const missed = expected.filter((outcome) => outcome.article?.doi !== outcome.source.doi);
    const listed = outcomes.filter((outcome) => outcome.source.doi && !outcome.source.negativeControl);
    const listedFound = listed.filter((outcome) => outcome.article?.doi === outcome.source.doi);
    console.log(
      `DOI found: ${found.length}/${expected.length} (${percent(found.length, expected.length)}) of DOIs written in the document; ` +
        `${listedFound.length}/${listed.length} (${percent(listedFound.length, listed.length)}) of all listed DOIs, ` +
        'including those SOURCES.md took from file names or SuperMat bibliography records',
    );
    for (const outcome of missed)
      console.log(`  missed ${outcome.source.file}: want ${outcome.source.doi}, got ${outcome.article?.doi ?? outcome.failure?.code}`);
    expect(found.length / expected.length).toBeGreaterThanOrEqual(0.95);
  });

  it('never reports a wrong DOI', () => {
    const wrong = outcomes.filter(
      (outcome) => outcome.source.doiInDocument && outcome.article?.doi && outcome.article.doi !== outcome.source.doi,
    );
    expect(wrong.map((outcome) => `${outcome.source.file}: ${outcome.article?.doi} ≠ ${outcome.source.doi}`)).toEqual([]);
  });

  it('gets the listed title for HTML and XML articles', () => {
    const checked = outcomes.filter(
      (outcome) => !outcome.source.negativeControl && !outcome.source.file.startsWith('pdf/') && !outcome.source.file.endsWith('.pdf'),
    );
    const wrong = checked.filter((outcome) => !titleMatches(outcome.source.title, outcome.article?.title ?? ''));
    console.log(`title matches: ${checked.length - wrong.length}/${checked.length} HTML/XML fixtures`);
    for (const outcome of wrong)
      console.log(`  title ${outcome.source.file}: got "${outcome.article?.title}", want "${outcome.source.title}"`);
    expect((checked.length - wrong.length) / checked.length).toBeGreaterThanOrEqual(0.95);
  });

  it('rejects negative controls with the right reason', () => {
    const reasons = Object.fromEntries(
      outcomes
        .filter((outcome) => outcome.source.negativeControl)
        .map((outcome) => [outcome.source.file, outcome.failure?.code ?? (outcome.article?.abstractOnly ? 'abstract-only' : 'captured')]),
    );
    expect(reasons).toEqual({
      'rsc/cde2__searchresults_NOT_AN_ARTICLE.html': 'search-results',
      'blocked/papis__ACS_jp003647e_cloudflare.html': 'bot-check',
      'blocked/papis__APS_PhysRevLett.122.145901_cloudflare.html': 'bot-check',
      // A publisher without an adapter: captured by the generic path, and it is a landing page.
      'other/papis__annualreviews_1_conmatphys.html': 'abstract-only',
      'pdf/scanned-control/ocrmypdf__c02-22_image_only_NOT_SCIENCE.pdf': 'no-text-layer',
    });
  });

  it('marks landing pages abstract-only and full articles not', () => {
    const landing = outcomes.filter((outcome) => /abstract\/landing page|abstract page/.test(outcome.source.kind) && outcome.article);
    const full = outcomes.filter((outcome) => /^full article page$|^full-text XML$/.test(outcome.source.kind) && outcome.article);
    const landingWrong = landing.filter((outcome) => !outcome.article?.abstractOnly).map((outcome) => outcome.source.file);
    const fullWrong = full.filter((outcome) => outcome.article?.abstractOnly).map((outcome) => outcome.source.file);
    console.log(
      `abstract-only: ${landing.length - landingWrong.length}/${landing.length} landing pages flagged; ${full.length - fullWrong.length}/${full.length} full texts not flagged`,
    );
    expect(fullWrong).toEqual([]);
    expect(landingWrong.length / Math.max(1, landing.length)).toBeLessThanOrEqual(0.1);
  });

  // Reference lists are left out of PDFs as they are of pages and XML, so a page that holds
  // only references has no block; the capture names such pages in a warning. Every other page
  // must yield body text. (pdf-fixtures.test.ts checks that every page has a text layer.)
  it('yields body text on every page of every text PDF except reference-only pages', () => {
    const pdfs = outcomes.filter((outcome) => outcome.source.file.endsWith('.pdf') && !outcome.source.negativeControl);
    expect(pdfs.length).toBeGreaterThan(30);
    const gaps = pdfs.flatMap((outcome) => {
      const article = outcome.article;
      if (!article?.pageCount) return [`${outcome.source.file}: ${outcome.failure?.code ?? 'no page count'}`];
      const pages = new Set(article.blocks.map((block) => block.page));
      const referenceOnly = new Set(
        article.warnings
          .filter((warning) => warning.startsWith('Reference list left out'))
          .flatMap((warning) => [...warning.matchAll(/\d+/g)].map(Number)),
      );
      const missing = Array.from({ length: article.pageCount }, (_, index) => index + 1).filter(
        (page) => !pages.has(page) && !referenceOnly.has(page),
      );
      return missing.length ? [`${outcome.source.file}: no text on pages ${missing.join(', ')}`] : [];
    });
    expect(gaps).toEqual([]);
  });
});

function percent(part: number, whole: number): string {
  return whole === 0 ? 'n/a' : `${((100 * part) / whole).toFixed(1)}%`;
}

function printPublisherTable(outcomes: Outcome[]): void {
  const groups = new Map<string, Outcome[]>();
  for (const outcome of outcomes) groups.set(outcome.source.group, [...(groups.get(outcome.source.group) ?? []), outcome]);
  const lines = [
    '| publisher | files | captured | DOI found (in document) | abstract-only | rejected | median ms |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const [group, items] of groups) {
    const inDocument = items.filter((item) => item.source.doiInDocument);
    const found = inDocument.filter((item) => item.article?.doi === item.source.doi).length;
    const times = items.map((item) => item.milliseconds).sort((a, b) => a - b);
    lines.push(
      `| ${group} | ${items.length} | ${items.filter((item) => item.article).length} | ${found}/${inDocument.length} | ` +
        `${items.filter((item) => item.article?.abstractOnly).length} | ${
          items
            .filter((item) => item.failure)
            .map((item) => item.failure?.code)
            .join(', ') || '-'
        } | ` +
        `${Math.round(times[Math.floor(times.length / 2)] ?? 0)} |`,
    );
  }
  console.log(lines.join('\n'));
}
