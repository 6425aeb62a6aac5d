/** The context measurement follows the pipeline: the same `planReading`, and what a call shows includes each chunk's context sentence. */
import { describe, expect, it } from 'vitest';
import { passageCalls, pipelineCalls, propertyCandidates } from '../../../src/eval/context/context-calls';
import { scoreContextRecall } from '../../../src/eval/context/context-recall';
import { BROWSER_PRESET } from '../../../src/matrix/presets';
import { planReading } from '../../../src/matrix/reading';
import { loadPropertySchemas } from '../../../src/properties';
import { chunkArticle } from '../../../src/text/retrieval';
import { articleFromBlocks, paragraph } from '../text/article-from-blocks';
import type { MatrixPreset } from '../../../src/contracts/matrix-preset';

const bandGap = loadPropertySchemas().find((schema) => schema.name === 'band_gap')!;
const countText = (text: string) => text.split(/\s+/).filter(Boolean).length;
const count = {
  countText,
  countChat: (messages: { content: string }[]) => messages.reduce((sum, message) => sum + countText(message.content), 0),
};

const NAMED = 'Thin films of (BA)2PbI4 were spin coated on quartz.';
const VALUE = 'Its band gap is 2.4 eV at room temperature.';
const article = articleFromBlocks([
  paragraph(`${NAMED} ${VALUE}`),
  ...Array.from({ length: 5 }, (_, index) => paragraph(`The band edge of film ${index + 1} shifts by 0.0${index + 1} eV under strain.`)),
]);
const chunks = chunkArticle(article);
const candidates = propertyCandidates(article, bandGap);
const small: MatrixPreset = { ...BROWSER_PRESET, retrieval: { chunkTokensPerCall: 40, maxReadingCalls: 8, mmrK: 9, mmrLambda: 0.5 } };

describe('pipelineCalls', () => {
  it('makes the calls runMatrix makes: one per reading group, then the focused passage', () => {
    const plan = planReading(chunks, bandGap, candidates, small.retrieval!, countText);
    expect(plan.reading).toBe(true);
    const calls = pipelineCalls(chunks, bandGap, candidates, small, count);
    expect(calls).toHaveLength(plan.groups.length + 1);
    for (const call of calls) expect(call.promptTokens).toBeGreaterThan(0);
  });

  it('makes one call when everything fits, and none for a property with nothing to read', () => {
    expect(pipelineCalls(chunks, bandGap, candidates, BROWSER_PRESET, count)).toHaveLength(1);
    const density = loadPropertySchemas().find((schema) => schema.name === 'density')!;
    expect(pipelineCalls(chunks, density, [], BROWSER_PRESET, count)).toEqual([]);
  });

  it('counts a truth whose material is named in the sentence before the value as read', () => {
    const start = article.text.indexOf(NAMED);
    const located = [{ start, end: article.text.indexOf(VALUE) + VALUE.length }];
    const truths = [
      { truth: { aliases: ['(BA)2PbI4'], property: 'band_gap', value: { kind: 'number' as const, value: 2.4 }, unit: 'eV' }, located },
    ];
    const recall = scoreContextRecall([{ paper: 'p', truths, calls: pipelineCalls(chunks, bandGap, candidates, small, count) }]);
    expect(recall).toMatchObject({ locatable: 1, inContext: 1 });
    // The passage of before shows the whole block as well.
    const before = scoreContextRecall([
      { paper: 'p', truths, calls: passageCalls(article, bandGap, candidates, BROWSER_PRESET, count.countChat) },
    ]);
    expect(before.inContext).toBe(1);
  });
});
