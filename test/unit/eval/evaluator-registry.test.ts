/**
 * The evaluator registry (src/eval/evaluator.ts, src/eval/evaluators.ts): a dataset added with one
 * registry line gets its usage, its flags and its dispatch from `assay eval` with nothing else
 * written, another dataset refuses its flags, and `assay --help` lists every registered name.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runEval } from '../../../src/cli/eval-command';
import { main } from '../../../src/cli/main';
import { defineEvaluator, EvaluatorRegistry } from '../../../src/eval/evaluator';
import { EVALUATORS } from '../../../src/eval/evaluators';
import { capturedOutput } from '../../support/captured-output';

const capture = capturedOutput;

afterEach(() => vi.restoreAllMocks());

const runs: Array<{ dataRoot: string; limit: number | undefined; threshold: string | undefined; strict: boolean | undefined }> = [];

/** A dataset of its own: one flag with a value, one switch, no engine. */
const fake = defineEvaluator({
  name: 'fake',
  aliases: ['phony'],
  summary: 'a fake dataset that counts its calls',
  flags: {
    threshold: { type: 'string', value: 'X', help: 'the fake threshold in eV' },
    strict: { type: 'boolean', help: 'score the fake strictly' },
  },
  needs: { texts: 'none' },
  async run({ dataRoot, limit, values }) {
    runs.push({ dataRoot, limit, threshold: values.threshold, strict: values.strict });
    const figures = { precision: 0.5, recall: 1, f1: 2 / 3 };
    return { json: { dataset: 'fake', split: 'dev', ...figures }, markdown: `fake F1 ${figures.f1.toFixed(2)}\n` };
  },
});

const dependencies = {
  scorerDependencies: async () => {
    throw new Error('fake needs no scorer');
  },
  engines: {},
  evaluators: EVALUATORS.with(fake),
};

describe('a dataset added with one registry line', () => {
  it('`assay eval fake --help` shows its summary, alias and flags with their help', async () => {
    const output = capture();
    expect(await runEval(['fake', '--help'], dependencies)).toBe(0);
    const text = output.stdout.join('');
    expect(text).toMatch(/^usage: assay eval fake \[--threshold X\] \[--strict\]\n/);
    expect(text).toContain('a fake dataset that counts its calls');
    expect(text).toContain('also named: phony');
    expect(text).toMatch(/--threshold X\s+the fake threshold in eV/);
    expect(text).toMatch(/--strict\s+score the fake strictly/);
    expect(text).toMatch(/--limit N\s+score the first N papers/);
    // No engine: the engine options are not offered.
    expect(text).not.toContain('--engine');
    expect(output.stderr).toEqual([]);
  });

  it('`assay eval --help` lists it beside the built-in datasets', async () => {
    const output = capture();
    expect(await runEval(['--help'], dependencies)).toBe(0);
    const text = output.stdout.join('');
    expect(text).toMatch(/\n {2}fake \(alias phony\) {2}\[--threshold X\] \[--strict\]\n {6}a fake dataset that counts its calls\n/);
    for (const name of EVALUATORS.list().map((evaluator) => evaluator.name)) expect(text).toContain(`\n  ${name}`);
  });

  it('`assay eval fake` (or its alias) runs it with its flags, the data root and --limit', async () => {
    runs.length = 0;
    const output = capture();
    expect(
      await runEval(['fake', '--data', '/tmp/fake-root', '--threshold', '0.3', '--strict', '--limit', '2', '--json'], dependencies),
    ).toBe(0);
    expect(JSON.parse(output.stdout.join(''))).toEqual({ dataset: 'fake', split: 'dev', precision: 0.5, recall: 1, f1: 2 / 3 });
    expect(await runEval(['phony', '--data', '/tmp/fake-root'], dependencies)).toBe(0);
    expect(output.stdout.at(-1)).toBe('fake F1 0.67\n');
    expect(runs).toEqual([
      { dataRoot: '/tmp/fake-root', limit: 2, threshold: '0.3', strict: true },
      { dataRoot: '/tmp/fake-root', limit: undefined, threshold: undefined, strict: undefined },
    ]);
  });

  it("refuses its flags on another dataset, and flags it does not take (engines, other datasets') on it", async () => {
    const cases: Array<[string[], RegExp]> = [
      [['supermat', '--threshold', '1'], /^assay eval: --threshold applies to fake only\n$/],
      [['fake', '--engine', 'rules'], /^assay eval: fake runs no engine; --engine does not apply\n$/],
      [['fake', '--reference', 'x.csv'], /^assay eval: --reference applies to cornell-tc only\n$/],
      [
        ['fake', '--replay', 'langchain-12'],
        /^assay eval: fake has no recorded tools to replay \(--replay applies to bandgap-200 only\)\n$/,
      ],
      [['fake', '--k', '3'], /^assay eval: --k applies to --context only\n$/],
    ];
    for (const [argv, message] of cases) {
      const output = capture();
      expect(await runEval([...argv, '--data', '/tmp/fake-root'], dependencies)).toBe(2);
      expect(output.stderr.join('')).toMatch(message);
      vi.restoreAllMocks();
    }
  });

  it('a registry refuses a name taken twice, a flag declared with two types and a measure naming no dataset', () => {
    expect(() => EVALUATORS.with({ ...fake, aliases: [], name: 'supermat' })).toThrow(/two evaluators are named "supermat"/);
    const clash = defineEvaluator({ ...fake, name: 'clash', aliases: [], flags: { reference: { type: 'boolean', help: 'x' } } });
    expect(() => new EvaluatorRegistry([...EVALUATORS.list(), clash])).toThrow(/--reference is declared with two types/);
    expect(() => new EvaluatorRegistry(EVALUATORS.list().slice(1), EVALUATORS.measures())).toThrow(
      /--attribution names "bandgap-200", which no evaluator is/,
    );
  });
});

describe('assay --help', () => {
  it('lists every registered dataset and alias on its eval lines', async () => {
    const output = capture();
    expect(await main(['--help'])).toBe(0);
    const text = output.stdout.join('');
    const evalPart = text.slice(text.indexOf('  eval <dataset>'), text.indexOf('  verify'));
    for (const name of EVALUATORS.names()) expect(evalPart).toMatch(new RegExp(`[ |]${name}[ |]`));
    expect(evalPart).toMatch(/bandgap-200\|supermat\|polyie\|sofc-exp --context/);
  });
});
