import type { Reporter, TestCase, TestModule } from 'vitest/node';

/**
 * Prints the plain closing line CI reads: "N passed, N failed" (", N skipped" when any). A test that never ran
 * because a hook of its file or suite failed (a `beforeAll` that threw) counts as failed, not skipped: Vitest marks
 * such tests skipped, and the line would say "0 failed" of a red run.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const mod of testModules) {
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed' || failedAround(test)) failed++;
        else skipped++;
      }
      if (mod.state() === 'failed' && mod.children.size === 0) failed++;
    }
    const tail = skipped > 0 ? `, ${skipped} skipped` : '';
    process.stdout.write(`\ntests: ${passed} passed, ${failed} failed${tail}\n`);
  }
}

/** Whether a suite around the test, or its file, failed (a hook's error: the test itself did not run). */
function failedAround(test: TestCase): boolean {
  if (test.options.mode === 'skip' || test.options.mode === 'todo') return false;
  for (let parent = test.parent; ; parent = parent.parent) {
    if (parent.state() === 'failed') return true;
    if (parent.type === 'module') return false;
  }
}
