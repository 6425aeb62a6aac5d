import { defineConfig } from 'vitest/config';

/**
 * Three projects: `unit` (fast, self-contained), `corpus` (real files from ../shared; skipped
 * with a reason when absent), `e2e` (the built extension in Debian's Chromium).
 */
export default defineConfig({
  test: {
    reporters: ['default', './test/support/summary-reporter.ts'],
    projects: [
      { test: { name: 'unit', include: ['test/unit/**/*.test.ts'], environment: 'node' } },
      { test: { name: 'corpus', include: ['test/corpus/**/*.test.ts'], environment: 'node', testTimeout: 300_000, hookTimeout: 300_000 } },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 180_000,
          hookTimeout: 180_000,
          fileParallelism: false,
          // After unit and corpus: the e2e tests time a browser on 2 cores (the real-engine test
          // decodes on SwiftShader at ~0.07 tokens/s), and sharing the cores with the corpus
          // tests made its run take past 420 s in CI against 265 s alone.
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
