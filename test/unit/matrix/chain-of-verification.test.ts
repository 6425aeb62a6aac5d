import { describe, expect, it } from 'vitest';
import type { VerificationRecord } from '../../../src/contracts/verification';
import { LlmError } from '../../../src/llm/llm-port';
import { createScriptedLlm } from '../../../src/llm/scripted-llm';
import {
  askVerificationQuestions,
  evidenceChunkText,
  questionRequestShape,
  quoteInEvidence,
  type VerificationQuestionOptions,
} from '../../../src/matrix/chain-of-verification';
import { runMatrix } from '../../../src/matrix/pipeline';
import { BROWSER_PRESET, PAPER_PRESET } from '../../../src/matrix/presets';
import { createSeededRandom } from '../../../src/matrix/random';
import { parsePropertySchema, questionsFor } from '../../../src/properties';
import { chunkArticle } from '../../../src/text/retrieval';
import { articleFromBlocks, paragraph } from '../text/article-from-blocks';
import { article, BAND_GAP_SENTENCE, bandGap, matrixScript, questionReply, realDependencies, type Answerer } from './pipeline-fixtures';

const deps = (llm: ReturnType<typeof createScriptedLlm>) => ({ llm, rng: createSeededRandom(7), ...realDependencies });

/** Answers as a careful model would for the GaN band-gap sentence. */
const faithful: Answerer = (_, id) =>
  ({
    property_match: { answer: 'yes', quote: 'The band gap of GaN is 3.4 eV' },
    origin: { answer: 'not stated', quote: '' },
    phase: { answer: 'not stated', quote: '' },
    conditions: { answer: 'room temperature', quote: 'at room temperature' },
  })[id] ?? { answer: 'not stated', quote: '' };

describe('Chain-of-Verification in runMatrix', () => {
  it('stores the answers with the verified record, asked of the discriminator over its evidence', async () => {
    const llm = createScriptedLlm(matrixScript({ band_gap: { questions: () => faithful } }));
    const { records, run } = await runMatrix(article, { properties: [bandGap], preset: BROWSER_PRESET }, deps(llm));
    expect(records.map((record) => record.status)).toEqual(['verified']);
    expect(records[0]!.verificationAnswers).toEqual([
      {
        questionId: 'property_match',
        question: questionsFor(bandGap)[0]!.question,
        answer: 'yes',
        quote: 'The band gap of GaN is 3.4 eV',
        expected: ['yes'],
        contrary: false,
      },
      { questionId: 'origin', question: questionsFor(bandGap)[1]!.question, answer: 'not stated' },
      { questionId: 'phase', question: questionsFor(bandGap)[2]!.question, answer: 'not stated' },
      { questionId: 'conditions', question: questionsFor(bandGap)[3]!.question, answer: 'room temperature', quote: 'at room temperature' },
    ]);
    const asked = llm.calls.filter((call) => questionRequestShape(call.request) !== null);
    expect(asked).toHaveLength(1);
    expect(asked[0]!.request).toMatchObject({ role: 'discriminator', temperature: 0 });
    expect(asked[0]!.request.messages[1]!.content).toContain(`Fact 1: GaN — band gap 3.4 eV\nEvidence 1:\n${BAND_GAP_SENTENCE}`);
    expect(run.usage.byStage['verification-questions']).toMatchObject({ calls: 1, failedCalls: 0 });
    expect(run.properties[0]!.problems).toEqual([]);
  });

  it('sends a verified triplet to review, with the reason in words, when an answer contradicts the schema', async () => {
    const contrary: Answerer = (fact, id) => (id === 'property_match' ? { answer: 'no', quote: 'band gap of GaN' } : faithful(fact, id));
    const llm = createScriptedLlm(matrixScript({ band_gap: { questions: () => contrary } }));
    const { records, run } = await runMatrix(article, { properties: [bandGap], preset: PAPER_PRESET }, deps(llm));
    expect(records[0]!.status).toBe('needs_review');
    expect(records[0]!.reasons).toContain(
      `verification question "${questionsFor(bandGap)[0]!.question}" was answered "no", but this property expects "yes" (evidence: "band gap of GaN")`,
    );
    expect(records[0]!.verificationAnswers![0]).toMatchObject({ answer: 'no', contrary: true });
    expect(run.counts).toEqual({ verified: 0, needs_review: 1, rejected: 0 });
  });

  it('holds a reader-defined expectation: a "measured only" origin question catches a computed value', async () => {
    const measuredOnly = parsePropertySchema({
      ...bandGap,
      questions: [
        { id: 'origin', question: 'Was the value measured or computed?', choices: ['measured', 'computed'], expected: ['measured'] },
      ],
    });
    expect(questionsFor(measuredOnly).map((question) => question.id)).toEqual(['property_match', 'origin', 'phase', 'conditions']);
    const computed: Answerer = (fact, id) => (id === 'origin' ? { answer: 'Computed', quote: 'GaN is 3.4 eV' } : faithful(fact, id));
    const llm = createScriptedLlm(matrixScript({ band_gap: { questions: () => computed } }));
    const { records } = await runMatrix(article, { properties: [measuredOnly], preset: BROWSER_PRESET }, deps(llm));
    expect(records[0]!.status).toBe('needs_review');
    expect(records[0]!.reasons.at(-1)).toBe(
      'verification question "Was the value measured or computed?" was answered "computed", but this property expects "measured" (evidence: "GaN is 3.4 eV")',
    );
  });

  it('ignores answers with an invented quote or outside the choices, and a reply that stays malformed, without failing the run', async () => {
    const invented: Answerer = (fact, id) =>
      id === 'property_match'
        ? { answer: 'no', quote: 'The value is an exciton energy.' }
        : id === 'origin'
          ? { answer: 'probably measured', quote: 'The band gap of GaN' }
          : faithful(fact, id);
    const llm = createScriptedLlm(matrixScript({ band_gap: { questions: () => invented } }));
    const { records, run } = await runMatrix(article, { properties: [bandGap], preset: BROWSER_PRESET }, deps(llm));
    expect(records[0]!.status).toBe('verified');
    expect(records[0]!.verificationAnswers!.map((answer) => answer.questionId)).toEqual(['phase', 'conditions']);
    expect(run.properties[0]!.problems).toEqual([
      'verification questions: GaN 3.4 eV, "property_match": quote "The value is an exciton energy." is not in the evidence; ignored',
      'verification questions: GaN 3.4 eV, "origin": answer "probably measured" is not one of the choices; ignored',
    ]);

    const broken = createScriptedLlm(matrixScript({ band_gap: { questions: () => 'I think it is fine.' } }));
    const result = await runMatrix(article, { properties: [bandGap], preset: BROWSER_PRESET }, deps(broken));
    expect(result.records[0]!.status).toBe('verified');
    expect(result.records[0]!.verificationAnswers).toBeUndefined();
    expect(result.run.usage.byStage['verification-questions']!.calls).toBe(2); // the call and its one repair
    // The reason in words (the parser's own words vary with the Node version).
    expect(result.run.properties[0]!.problems).toEqual([
      expect.stringMatching(
        /^verification questions for GaN 3\.4 eV: the discriminator model's reply did not match the expected JSON after one repair attempt: the reply is not valid JSON \(.+\); no answer counted$/,
      ),
    ]);
  });

  it('asks nothing when no triplet is verified, and nothing when the preset turns it off', async () => {
    const llm = createScriptedLlm(
      matrixScript({ band_gap: { aggregator: () => [{ material: 'GaN', value: 3.2, unit: 'eV', quote: BAND_GAP_SENTENCE }] } }),
    );
    const { run } = await runMatrix(article, { properties: [bandGap], preset: BROWSER_PRESET }, deps(llm));
    expect(run.counts.verified).toBe(0);
    expect(run.usage.byStage['verification-questions']).toBeUndefined();
    const off = createScriptedLlm(matrixScript());
    const result = await runMatrix(
      article,
      { properties: [bandGap], preset: { ...BROWSER_PRESET, verificationQuestions: 'off' } },
      deps(off),
    );
    expect(result.records[0]!.verificationAnswers).toBeUndefined();
    expect(result.run.usage.byStage['verification-questions']).toBeUndefined();
  });
});

describe('askVerificationQuestions', () => {
  const twoGaps = articleFromBlocks([
    paragraph('Wurtzite films were grown by MOCVD. Their band gap is 3.4 eV at 300 K.'),
    paragraph('For comparison, AlN has a band gap of 6.2 eV.'),
  ]);
  const recordFor = (
    material: string,
    value: number,
    quote: string,
    status: VerificationRecord['status'] = 'verified',
  ): VerificationRecord => {
    const start = twoGaps.text.indexOf(quote);
    return {
      status,
      triplet: {
        material,
        property: 'band_gap',
        value: { kind: 'number', value },
        unit: 'eV',
        engine: 'moa',
        evidence: {
          quote: { type: 'TextQuoteSelector', exact: quote, prefix: '', suffix: '' },
          position: { type: 'TextPositionSelector', start, end: start + quote.length },
        },
      },
      votes: ['moa', 'gd'],
      reasons: [],
    };
  };
  const records = [
    recordFor('GaN', 3.4, 'Their band gap is 3.4 eV at 300 K.'),
    recordFor('AlN', 6.2, 'For comparison, AlN has a band gap of 6.2 eV.'),
    recordFor('InN', 0.7, 'Wurtzite films were grown by MOCVD.', 'needs_review'),
  ];
  const options: VerificationQuestionOptions = { batching: 'per-property', maxEvidenceChars: 4000 };

  it('reads the evidence chunk with the sentence before it', () => {
    expect(evidenceChunkText(records[0]!.triplet, twoGaps, chunkArticle(twoGaps))).toBe(
      'Wurtzite films were grown by MOCVD.\nTheir band gap is 3.4 eV at 300 K.',
    );
    expect(quoteInEvidence('  “wurtzite films”', 'Wurtzite films were grown by MOCVD.')).toBe(true);
    expect(quoteInEvidence('', 'anything')).toBe(false);
  });

  it('asks every verified triplet of a property in one call (browser), one call each (paper), and never a needs_review one', async () => {
    const phase: Answerer = (fact, id) =>
      id === 'phase' && fact === 1 ? { answer: 'wurtzite', quote: 'Wurtzite films' } : { answer: 'not stated', quote: '' };
    const batched = createScriptedLlm({ respond: (request) => questionReply(request, phase) });
    const result = await askVerificationQuestions({ article: twoGaps, property: bandGap, records }, options, { llm: batched });
    expect(batched.calls).toHaveLength(1);
    expect(questionRequestShape(batched.calls[0]!.request)).toEqual({
      questionIds: ['property_match', 'origin', 'phase', 'conditions'],
      facts: 2,
    });
    expect(result.calls).toBe(1);
    expect(result.records[0]!.verificationAnswers!.find((answer) => answer.questionId === 'phase')).toMatchObject({
      answer: 'wurtzite',
      quote: 'Wurtzite films',
    });
    expect(result.records[1]!.verificationAnswers!.every((answer) => answer.answer === 'not stated')).toBe(true);
    expect(result.records[2]).toBe(records[2]);

    const single = createScriptedLlm({ respond: (request) => questionReply(request) });
    const perTriplet = await askVerificationQuestions(
      { article: twoGaps, property: bandGap, records },
      { ...options, batching: 'per-triplet' },
      { llm: single },
    );
    expect(single.calls.map((call) => questionRequestShape(call.request)!.facts)).toEqual([1, 1]);
    expect(perTriplet.calls).toBe(2);
  });

  it('splits a property over more calls only past the evidence or fact cap, and reports progress', async () => {
    const llm = createScriptedLlm({ respond: (request) => questionReply(request) });
    const progress: [number, number][] = [];
    await askVerificationQuestions(
      { article: twoGaps, property: bandGap, records },
      { ...options, maxFactsPerCall: 1 },
      {
        llm,
        onProgress: (done, total) => progress.push([done, total]),
      },
    );
    expect(progress).toEqual([
      [0, 2],
      [1, 2],
      [2, 2],
    ]);
  });

  it('does not answer a fact it was not asked about, and lets an abort through', async () => {
    const stray = createScriptedLlm({
      respond: () => JSON.stringify({ facts: [{ fact: 7, origin: { answer: 'measured', quote: 'x' } }] }),
    });
    const result = await askVerificationQuestions({ article: twoGaps, property: bandGap, records: records.slice(0, 1) }, options, {
      llm: stray,
    });
    expect(result.records[0]!.verificationAnswers).toBeUndefined();
    expect(result.problems).toContain('verification questions: an answer for fact 7 was ignored (unknown or repeated fact)');

    const aborted = createScriptedLlm({ respond: () => new LlmError('aborted', 'the call was cancelled') });
    await expect(
      askVerificationQuestions({ article: twoGaps, property: bandGap, records }, options, { llm: aborted }),
    ).rejects.toMatchObject({
      code: 'aborted',
    });
  });
});

describe('verification questions in property schemas', () => {
  it('are optional (default none), and checked: expected answers among the choices, "not stated" implied, ids unique', () => {
    expect(bandGap.questions).toEqual([]);
    const base = { ...bandGap, questions: undefined };
    expect(parsePropertySchema(base).questions).toEqual([]);
    const bad = (questions: unknown[]) => () => parsePropertySchema({ ...base, questions });
    expect(bad([{ id: 'origin', question: 'Measured?', choices: ['yes', 'no'], expected: ['maybe'] }])).toThrow(
      'expected answer "maybe" is not one of the choices',
    );
    expect(bad([{ id: 'origin', question: 'Measured?', choices: ['yes', 'not stated'] }])).toThrow('"not stated" is always allowed');
    expect(bad([{ id: 'origin', question: 'Which phase?', expected: ['cubic'] }])).toThrow('an expected answer needs a list of choices');
    expect(bad([{ id: 'Origin', question: 'Measured?' }])).toThrow('lower-case snake case');
    expect(
      bad([
        { id: 'a', question: 'One?' },
        { id: 'a', question: 'Two?' },
      ]),
    ).toThrow('two questions share the id "a"');
  });
});
