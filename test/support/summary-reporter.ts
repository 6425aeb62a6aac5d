/**
 * Prints one closing line, `N passed, N failed, N skipped`, after a vitest run, so CI logs
 * (and anything that reads the last line of a test run) get the counts in a plain form.
 */
import type { Reporter, TestModule } from 'vitest/node';

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const testModule of testModules) {
      // A file that fails to load has no tests but must still count as a failure.
      if (testModule.state() === 'failed' && [...testModule.children.allTests()].length === 0) failed += 1;
      for (const test of testModule.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed += 1;
        else if (state === 'failed') failed += 1;
        else skipped += 1;
      }
    }
    process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
