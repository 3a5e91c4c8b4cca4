import os from 'node:os';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// Vitest's default is one worker fewer than the cores: ONE on the 2-core CI machines, so every file ran after the
// other. Many files mostly wait (real processes, PGlite start-up, browsers, timers), so two at a time at least.
const workers = Math.max(2, os.availableParallelism() - 1);

// One runner for every kind of test: unit and API tests per workspace, component tests in jsdom,
// and browser tests (playwright-core + system Chromium) against the real server.
export default defineConfig({
  test: {
    reporters: ['default', './scripts/summary-reporter.ts'],
    maxWorkers: workers,
    projects: [
      {
        test: {
          name: 'contract',
          root: './packages/contract',
          include: ['src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'x-sim',
          root: './packages/x-sim',
          include: ['src/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'verifier',
          root: './packages/verifier',
          // dev/: the development tools' own tests (the tamper proxy).
          include: ['src/**/*.test.ts', 'dev/**/*.test.ts'],
          environment: 'node',
          // The network tests start a local AT Protocol network (apps/server/src/test/atproto-network.ts).
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'server',
          root: './apps/server',
          // dev/: the development tools' own tests (the Bluesky demo).
          include: ['src/**/*.test.ts', 'dev/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        plugins: [react()],
        test: {
          name: 'web',
          root: './apps/web',
          include: ['src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['./vitest.setup.ts'],
        },
      },
      {
        test: {
          name: 'e2e',
          root: './e2e',
          include: ['**/*.e2e.ts'],
          environment: 'node',
          // The demo replayed once for every file that needs it settled, beside the other projects' files.
          globalSetup: ['./support/demo-template.setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 180_000,
          // Two browser files at a time (each its own server on a free port and its own Chromium): they wait on
          // the browser, the server and the app's timers far more than they compute. After the other projects
          // (groupOrder), so they never share the machine with the unit and API files.
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
