/**
 * Benchmark (not a test): the dataset search index (src/store/triplet-search-index.ts) over
 * synthetic rows in Node, with fake-indexeddb standing in for the browser's IndexedDB (so the
 * build time includes fake-indexeddb's reads, which are slower than Chromium's): how long the
 * build takes, how much heap the index holds, and how long a search takes.
 *
 *   NODE_OPTIONS=--expose-gc npx tsx test/e2e/search-index-bench.ts [--rows 100000]
 */
import 'fake-indexeddb/auto';
import { createAssayDatabase } from '../../src/store/assay-database';
import { createTripletSearchIndex } from '../../src/store/triplet-search-index';
import { syntheticRow } from './synthetic-dataset';

const collect = () => (globalThis as { gc?: () => void }).gc?.();

/** Median of `runs` timings of `action`, in ms. */
function medianMs(runs: number, action: () => unknown): number {
  const times: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const started = performance.now();
    action();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(runs / 2)]!;
}

async function main(): Promise<void> {
  const rowsFlag = process.argv.indexOf('--rows');
  const total = rowsFlag >= 0 ? Number(process.argv[rowsFlag + 1]) : 100_000;
  if (!(globalThis as { gc?: unknown }).gc) console.log('(run with NODE_OPTIONS=--expose-gc for the heap figure)');
  const database = createAssayDatabase('search-index-bench');
  const now = new Date('2026-11-22T12:00:00Z').toISOString();
  for (let start = 0; start < total; start += 10_000) {
    const chunk = Array.from({ length: Math.min(10_000, total - start) }, (_, offset) => syntheticRow(start + offset, now));
    await database.triplets.bulkAdd(chunk);
  }

  // Reading alone, as the build does (2,000 rows per read), to tell it from indexing.
  let started = performance.now();
  let lastKey: string | undefined;
  for (;;) {
    const rows = await (lastKey === undefined ? database.triplets.toCollection() : database.triplets.where(':id').above(lastKey))
      .limit(2000)
      .toArray();
    if (rows.length === 0) break;
    lastKey = rows.at(-1)!.id;
  }
  const readSeconds = (performance.now() - started) / 1000;

  collect();
  const heapBefore = process.memoryUsage().heapUsed;
  const index = createTripletSearchIndex(database, { yieldControl: () => Promise.resolve() });
  started = performance.now();
  await index.build();
  const buildSeconds = (performance.now() - started) / 1000;
  collect();
  const heapMB = (process.memoryUsage().heapUsed - heapBefore) / 1e6;

  console.log(`${total} rows (fake-indexeddb, Node ${process.version})`);
  console.log(
    `build: ${buildSeconds.toFixed(1)} s (of which reading the rows alone: ${readSeconds.toFixed(1)} s); heap held by the index: ${heapMB.toFixed(0)} MB`,
  );
  for (const text of ['measured', 'sample 1234', 'ZnSe3', 'photolum', 'bench.3', 'T']) {
    const matches = index.ids(text)?.size ?? 0;
    console.log(`search "${text}": ${matches} rows, median ${medianMs(21, () => index.ids(text)).toFixed(1)} ms`);
  }

  // Following a 1,000-row save (listed keys) and a change too wide to list (whole re-read, nothing re-indexed).
  const waitForGeneration = async (generation: number) => {
    while (index.state.status !== 'ready' || index.state.generation <= generation) await new Promise((resolve) => setTimeout(resolve, 5));
  };
  let generation = index.state.generation;
  started = performance.now();
  await database.triplets.bulkPut(Array.from({ length: 1000 }, (_, offset) => syntheticRow(total + offset, now)));
  await waitForGeneration(generation);
  console.log(`1,000-row save → indexed: ${(performance.now() - started).toFixed(0)} ms (including the write)`);
  generation = index.state.generation;
  started = performance.now();
  await database.triplets.where(':id').between('zz', 'zzz').delete();
  await waitForGeneration(generation);
  console.log(`range delete → whole table re-read: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  index.close();
  await database.delete();
}

await main();
