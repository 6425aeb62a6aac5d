import { describe, expect, it } from 'vitest';
import { LlmError } from '../../../src/llm/llm-port';
import { createScriptedLlm } from '../../../src/llm/scripted-llm';
import { runMatrix } from '../../../src/matrix/pipeline';
import { BROWSER_PRESET } from '../../../src/matrix/presets';
import { createSeededRandom } from '../../../src/matrix/random';
import { MatrixCancelled } from '../../../src/matrix/run-record';
import { chunkArticle } from '../../../src/text/retrieval';
import { article, bandGap, matrixScript, realDependencies } from './pipeline-fixtures';

const deps = (embeddings: { model: string; embed: (texts: readonly string[], signal?: AbortSignal) => Promise<number[][]> }) => ({
  llm: createScriptedLlm(matrixScript()),
  rng: createSeededRandom(7),
  ...realDependencies,
  embeddings,
});

describe('runMatrix with an engine that embeds', () => {
  it('embeds every chunk quote once per run and records the embedding similarity', async () => {
    const asked: string[][] = [];
    const embed = async (texts: readonly string[]) => {
      asked.push([...texts]);
      return texts.map((text) => [text.length, 1]);
    };
    const { run } = await runMatrix(article, { properties: [bandGap], preset: BROWSER_PRESET }, deps({ model: 'nomic-embed-text', embed }));
    expect(asked).toEqual([chunkArticle(article).map((chunk) => chunk.quote)]);
    expect(run.properties[0]!.retrieval).toMatchObject({ similarity: 'embedding', embeddingModel: 'nomic-embed-text' });
    expect(run.properties[0]!.problems).toEqual([]);
  });

  it('goes on with the lexical similarity when the embeddings fail, and says so', async () => {
    const embed = async () => {
      throw new LlmError('http', 'HTTP 404 from http://127.0.0.1/v1/embeddings');
    };
    const { run, records } = await runMatrix(article, { properties: [bandGap], preset: BROWSER_PRESET }, deps({ model: 'm', embed }));
    expect(run.properties[0]!.retrieval).toMatchObject({ similarity: 'lexical' });
    expect(run.properties[0]!.retrieval!.embeddingModel).toBeUndefined();
    expect(run.properties[0]!.problems).toContain(
      'embeddings from m failed (HTTP 404 from http://127.0.0.1/v1/embeddings); MMR compared chunks by their words instead',
    );
    expect(records.some((record) => record.status === 'verified')).toBe(true);
  });

  it('stops as cancelled when the embedding call is aborted', async () => {
    const embed = async () => {
      throw new LlmError('aborted', 'the call was cancelled');
    };
    await expect(runMatrix(article, { properties: [bandGap], preset: BROWSER_PRESET }, deps({ model: 'm', embed }))).rejects.toBeInstanceOf(
      MatrixCancelled,
    );
  });
});
