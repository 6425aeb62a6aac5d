/**
 * `assay verify` on a real dev paper: bandgap-200 paper 18 (10.1088/0953-8984/27/11/115503, SmN
 * by LSDA+U+SO), with a hand-written triplets file: one true fact of manual_pub__manual.csv,
 * the same fact without a quote (located), and one trap per value role, each with its status
 * and reason. The traps marked "fact check" need `checkFact` (src/verify/fact-check.ts).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { runVerify, type VerifyOutput, type VerifyResult } from '../../../../src/cli/verify-command';
import { projectRoot, sharedDataSkipReason, sharedPath } from '../../../support/shared-data';

const skip = sharedDataSkipReason();
const paper = sharedPath('datasets', 'bandgap-200', 'text-pub', '18_10.1088_0953-8984_27_11_115503.txt');

// Quotes copied from the paper's text (text-pub), as a tool would give them.
const caption =
  'LSDA+U orbital resolved density of states of half-metallic SmN. Although not very clear from this picture, the minority spin channel shows a gap of 1.04 eV';
const facts = [
  // 0. True: truth "SmN (no SOC FM minority channel)" 1.04 eV of manual_pub__manual.csv, with its method.
  {
    material: 'SmN',
    property: 'band_gap',
    value: 1.04,
    unit: 'eV',
    quote: caption,
    conditions: [{ kind: 'method', value: 'LSDA+U', text: 'LSDA+U' }],
  },
  // 1. True, no quote: truth "SmN (FM phase, LSDA+U+SO)" ~−0.15 eV, its sentence located in the paper.
  { material: 'SmN', property: 'Band gap', value: '~−0.15', unit: 'eV' },
  // 2. Difference: an increment of U, not a band gap.
  {
    material: 'SmN',
    property: 'band_gap',
    value: '1',
    unit: 'eV',
    quote:
      'We have therefore evaluated the magnetic properties for a higher value of U, i.e. U = 9.22 eV. This corresponds to an increment of 1 eV with respect to our selected value.',
  },
  // 3. Model parameter: the Hubbard U of the issue ("GdN 6.4 eV").
  {
    material: 'GdN',
    property: 'band_gap',
    value: 6.4,
    unit: 'eV',
    quote:
      'They determine a U parameter equal to 6.4 eV in order to ﬁx the experimental band gap of GdN, while J was set to zero for sake of simplicity.',
  },
  // 4. Another quantity sharing the unit: the spin–orbit coupling constant.
  {
    material: 'SmN',
    property: 'band_gap',
    value: 0.16,
    unit: 'eV',
    quote:
      'From our simulations we can extract the SO coupling constant λ ≈0.16 eV. This value is signiﬁcantly smaller than the exchange (Hund) interaction parameter J = 1.07 eV, which demonstrates that for this compound a relatively weak',
  },
  // 5. Cited: "… 0.7 eV [19]".
  {
    material: 'SmN',
    property: 'band_gap',
    value: 0.7,
    unit: 'eV',
    quote: 'Later on, SmN was shown to be a semiconductor with a band gap of 0.7 eV [19].',
  },
  // 6. Wrong material: SmN's gap given to GdN.
  { material: 'GdN', property: 'band_gap', value: 1.04, unit: 'eV', quote: caption },
  // 7. Value not in the quote.
  { material: 'SmN', property: 'band_gap', value: 0.5, unit: 'eV', quote: caption },
];

let folder = '';
let stdout = '';
let stderr = '';

beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'assay-verify-'));
  writeFileSync(join(folder, 'facts.jsonl'), facts.map((fact) => JSON.stringify(fact)).join('\n') + '\n');
});

beforeEach(() => {
  stdout = '';
  stderr = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((stdout += String(chunk)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((stderr += String(chunk)), true));
});

afterEach(() => {
  vi.restoreAllMocks();
});

async function verifyJson(): Promise<VerifyResult[]> {
  expect(await runVerify([paper, '--triplets', join(folder, 'facts.jsonl'), '--json'])).toBe(0);
  const output = JSON.parse(stdout) as VerifyOutput;
  expect(output.results.map((result) => result.index)).toEqual(facts.map((_, index) => index));
  return output.results;
}

describe.skipIf(skip)(`assay verify on a real dev paper${skip ? ` (${skip})` : ''}`, () => {
  it('verifies the true fact, keeps its method with the words it was read from, and anchors its quote', async () => {
    const [fact] = await verifyJson();
    expect(fact).toMatchObject({ status: 'verified', fact: { material: 'SmN', property: 'band_gap', value: '1.04', unit: 'eV' } });
    expect(fact!.conditions).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'method', text: 'LSDA+U' })]));
    expect(fact!.evidence).toMatchObject({ found: 'quote', quote: expect.stringContaining('gap of 1.04 eV') });
    expect(fact!.evidence!.end).toBeGreaterThan(fact!.evidence!.start);
  });

  it('locates the evidence of a fact without a quote: the sentence that prints the value and names the material', async () => {
    const located = (await verifyJson())[1]!;
    expect(located.evidence).toMatchObject({
      found: 'located',
      quote: expect.stringMatching(/FM phase of SmN, where the indirect band gap is of about −0\.15 eV/),
    });
    expect(located.status).toBe('verified');
  });

  // Fact check: the value roles below are what `checkFact` decides.
  it('rejects a difference ("an increment of 1 eV")', async () => {
    const difference = (await verifyJson())[2]!;
    expect(difference.status).toBe('rejected');
    expect(difference.reasons.join(' ')).toMatch(/difference|increment/i);
  });

  it('rejects a model parameter (the Hubbard U of 6.4 eV)', async () => {
    const parameter = (await verifyJson())[3]!;
    expect(parameter.status).toBe('rejected');
    expect(parameter.reasons.join(' ')).toMatch(/parameter/i);
  });

  it('rejects another quantity that shares the unit (the spin–orbit coupling constant)', async () => {
    const other = (await verifyJson())[4]!;
    expect(other.status).toBe('rejected');
    expect(other.reasons.join(' ')).toMatch(/coupling constant|another quantity|parameter/i);
  });

  it('marks a cited value "cited [19]" and sends it to review', async () => {
    const cited = (await verifyJson())[5]!;
    expect(cited.status).toBe('needs_review');
    expect(cited.provenance).toMatchObject({ kind: 'cited', reference: '[19]' });
    expect(cited.reasons.join(' ')).toMatch(/cited/i);
  });

  // Grounding and attribution (no fact check needed).
  it('sends a fact given to the wrong material to review, with the reason', async () => {
    const wrong = (await verifyJson())[6]!;
    expect(wrong).toMatchObject({ status: 'needs_review', reasons: ['material not in the evidence'] });
  });

  it('rejects a value the quote does not show, with no anchored evidence', async () => {
    const missing = (await verifyJson())[7]!;
    expect(missing).toMatchObject({ status: 'rejected', reasons: ['value 0.5 not in the quote'], evidence: null });
  });

  it('prints a readable table without --json, and progress on stderr', async () => {
    expect(await runVerify([paper, '--triplets', join(folder, 'facts.jsonl')])).toBe(0);
    expect(stdout).toMatch(/: 8 facts — \d+ verified, \d+ needs review, \d+ rejected\n/);
    expect(stdout).toContain('line 1  verified      SmN · band_gap · 1.04 eV');
    expect(stdout).toContain('line 8  rejected      SmN · band_gap · 0.5 eV\n    reasons:    value 0.5 not in the quote');
    expect(stderr).toMatch(/^assay verify: judging 8 facts against /);
  });
});

/** Run `bin/assay.mjs verify …` as a process: its exit code, stdout and stderr. */
function assay(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(projectRoot, 'bin', 'assay.mjs'), 'verify', ...args], { cwd: folder });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += String(chunk)));
    child.stderr.on('data', (chunk) => (err += String(chunk)));
    child.on('exit', (code) => resolve({ code, stdout: out, stderr: err }));
  });
}

describe('assay verify as a process: exit codes', () => {
  it('exits 0 whatever the verdicts, 1 with one line for bad input, 2 for bad usage', async () => {
    const text = join(folder, 'paper.txt');
    writeFileSync(
      text,
      'Band gaps of nitrides\n\nWurtzite GaN has a band gap of 3.4 eV at room temperature. The films were grown by metal-organic vapour phase epitaxy on sapphire, and their optical absorption was measured between 2 and 5 eV. The absorption edge shifts with temperature as expected for a direct gap semiconductor.\n',
    );
    writeFileSync(join(folder, 'mixed.jsonl'), '{"material":"GaN","property":"band_gap","value":3.4,"unit":"eV"}\nnot json\n');
    writeFileSync(join(folder, 'empty.jsonl'), '\n');
    writeFileSync(join(folder, 'sheet.csv'), 'material,property,value\nGaN,band_gap,3.4\n');
    const ran = await assay([text, '--triplets', 'mixed.jsonl', '--json']);
    expect(ran.code).toBe(0);
    const output = JSON.parse(ran.stdout) as VerifyOutput;
    expect(output.results.map((result) => [result.index, result.status])).toEqual([
      [0, 'verified'],
      [1, 'rejected'],
    ]);
    for (const [args, message] of [
      [['missing.txt', '--triplets', 'mixed.jsonl'], /^assay verify: missing\.txt: No such file: missing\.txt \[not-found\]\n$/],
      [[text, '--triplets', 'absent.jsonl'], /^assay verify: absent\.jsonl: no such triplets file: absent\.jsonl\n$/],
      [[text, '--triplets', 'empty.jsonl'], /^assay verify: empty\.jsonl: the triplets file is empty: give one JSON object per line\n$/],
      [[text, '--triplets', 'sheet.csv'], /^assay verify: sheet\.csv: the triplets file is not JSONL: no line is a JSON object .*\n$/],
    ] as const) {
      const failed = await assay([...args]);
      expect(failed).toMatchObject({ code: 1, stdout: '' });
      expect(failed.stderr).toMatch(message);
    }
    expect((await assay([text])).code).toBe(2);
  }, 120_000);
});
