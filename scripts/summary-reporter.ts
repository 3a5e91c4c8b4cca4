import fs from 'node:fs';
import type { Reporter, SerializedError, TestCase, TestModule, TestSuite } from 'vitest/node';

/**
 * Prints the plain closing line CI reads: "N passed, N failed" (", N skipped" when any). A test that never ran
 * because a hook of its file or suite failed (a `beforeAll` that threw) counts as failed, not skipped: Vitest marks
 * such tests skipped, and the line would say "0 failed" of a red run. So does an error outside any test (a global
 * setup that threw: in CI, no Chromium), which fails the run.
 *
 * Above it, when anything was skipped, which services this machine lacks and one line per skipped group (a suite
 * skipped as a whole, or a single test), so a run without PostgreSQL, Redis or Chromium says what it left out.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(
    testModules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<SerializedError>,
  ): void {
    let passed = 0;
    let failed = unhandledErrors.length;
    let skipped = 0;
    const groups: string[] = [];
    for (const mod of testModules) {
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed' || failedAround(test)) failed++;
        else skipped++;
      }
      if (mod.state() === 'failed' && mod.children.size === 0) failed++;
      skippedGroups(mod, `[${mod.project.name}] ${mod.relativeModuleId}`, groups);
    }
    if (groups.length > 0) {
      process.stdout.write(`\n${missingServices()}\n${groups.map((line) => `${line}\n`).join('')}`);
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

/** One line per outermost skipped suite or test: "skipped [project] file › suite name (N tests)". */
function skippedGroups(parent: TestModule | TestSuite, file: string, lines: string[]): void {
  for (const child of parent.children) {
    const declared = child.options.mode === 'skip' || child.options.mode === 'todo';
    if (child.type === 'suite') {
      const count = [...child.children.allTests()].length;
      if (declared)
        lines.push(`skipped ${file} › ${child.fullName} (${count} test${count === 1 ? '' : 's'})`);
      else skippedGroups(child, file, lines);
    } else if (declared || (child.result().state === 'skipped' && !failedAround(child))) {
      lines.push(`skipped ${file} › ${child.fullName}`);
    }
  }
}

/** The services this machine lacks for the tests (found as apps/server/src/config/test-env.ts finds them). */
function missingServices(): string {
  const chromium = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
  const missing = [
    process.env.TEST_DATABASE_URL ? '' : 'PostgreSQL (TEST_DATABASE_URL; the Bluesky tests need it too)',
    process.env.TEST_REDIS_URL ? '' : 'Redis (TEST_REDIS_URL)',
    fs.existsSync(chromium) ? '' : `Chromium (${chromium})`,
  ].filter(Boolean);
  const lacking = missing.length > 0 ? `without ${missing.join(', ')}` : 'with every test service';
  return `skipped groups, run ${lacking} (docs/testing.md says what runs where):`;
}
