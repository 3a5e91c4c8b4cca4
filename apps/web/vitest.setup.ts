import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';

// findBy* and waitFor wait up to 5 s for what a test expects (Testing Library's default is 1 s): on a 2-core machine
// under load (the whole suite, or other work beside it) a lazy chunk and its first render took longer than that
// (export-section.test.tsx failed so at load 16). A test that expects something still fails when it never comes.
configure({ asyncUtilTimeout: 5_000 });

// A console.error during a test fails it (React warnings, unhandled failures): tests must be clean.
let consoleErrors: unknown[][] = [];
beforeEach(() => {
  consoleErrors = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    consoleErrors.push(args);
  });
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  vi.useRealTimers();
  document.body.style.overflow = '';
  if (consoleErrors.length > 0) {
    throw new Error(
      `console.error was called during the test:\n${consoleErrors.map((a) => a.map(String).join(' ')).join('\n')}`,
    );
  }
});
