import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import type { TripletSearchRequest } from '../../../src/contracts/messages';
import { createTripletSearchClient, type SearchClientPort, type TripletSearch } from '../../../src/extension/triplet-search-client';
import type { AssayDatabase } from '../../../src/store/assay-database';
import { saveTriplets } from '../../../src/store/dataset-repository';
import { servedPerTest, until } from '../../support/dataset-worker-channel';
import { datasetTriplet } from '../ui/dataset-fixtures';

const withQuote = (id: string, quote: string) =>
  datasetTriplet({ id, mergeKey: `key-${id}`, evidence: { quote: { type: 'TextQuoteSelector', exact: quote, prefix: '', suffix: '' } } });

describe('the client and the worker side over a MessageChannel', () => {
  const current = servedPerTest(
    'search-client-test',
    [withQuote('a', 'Strong photoluminescence of TiO2'), withQuote('b', 'Weak absorption')],
    { catalog: false },
  );
  let database: AssayDatabase;
  let client: TripletSearch;
  let requests: TripletSearchRequest[];

  beforeEach(() => {
    database = current.database;
    ({ client, requests } = current.served);
  });

  it('reports the build, answers searches, asks once per text and generation, and follows a write', async () => {
    const heard: string[] = [];
    const unsubscribe = client.subscribe(() => heard.push(client.state.status));
    expect(await client.ids('photolum')).toBeUndefined();
    await until(() => client.state.status === 'ready', 'the index to be ready');
    expect(heard).toContain('building');
    expect(await client.ids('photolum')).toEqual(new Set(['a']));
    expect(await client.ids('photolum')).toEqual(new Set(['a']));
    expect(requests).toHaveLength(1);

    const generation = client.state.generation;
    await saveTriplets(database, [withQuote('c', 'Photoluminescence quenched')]);
    await until(() => client.state.generation > generation, 'a new generation');
    expect(await client.ids('photolum')).toEqual(new Set(['a', 'c']));
    expect(requests).toHaveLength(2);
    unsubscribe();
  });

  it('answers nothing for a text longer than the protocol allows, without asking', async () => {
    await until(() => client.state.status === 'ready', 'the index to be ready');
    expect(await client.ids('x'.repeat(1001))).toBeUndefined();
    expect(requests).toHaveLength(0);
  });
});

describe('the client alone', () => {
  /** A port whose messages go nowhere, with its listeners exposed for the test to call. */
  function silentPort(): SearchClientPort & { emit(type: 'message' | 'error', event: Event): void; terminated: boolean } {
    const listeners = { message: [] as Array<(event: Event) => void>, error: [] as Array<(event: Event) => void> };
    return {
      terminated: false,
      postMessage: () => undefined,
      addEventListener: (type, listener) => listeners[type].push(listener),
      emit: (type, event) => listeners[type].forEach((listener) => listener(event)),
      terminate() {
        this.terminated = true;
      },
    };
  }
  const ready = { type: 'triplet-search-state', state: { status: 'ready', rows: 2, generation: 1 } };

  it('ignores malformed replies, and gives up on a worker that does not answer', async () => {
    const port = silentPort();
    const client = createTripletSearchClient(port, { timeoutMs: 20 });
    port.emit('message', new MessageEvent('message', { data: { type: 'triplet-search-state', state: { status: 'ready' } } }));
    expect(client.state.status).toBe('building');
    port.emit('message', new MessageEvent('message', { data: ready }));
    expect(client.state).toEqual(ready.state);
    expect(await client.ids('gap')).toBeUndefined();
  });

  it('fails when the worker does, answering the searches it was asked', async () => {
    const port = silentPort();
    const client = createTripletSearchClient(port);
    port.emit('message', new MessageEvent('message', { data: ready }));
    const waiting = client.ids('gap');
    port.emit('error', new Event('error'));
    expect(await waiting).toBeUndefined();
    expect(client.state).toEqual({ status: 'failed', message: 'the search worker failed', generation: 2 });
    client.close();
    expect(port.terminated).toBe(true);
  });
});
