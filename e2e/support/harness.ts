// The per-file set-up every browser test shares (docs/testing.md, "Fast browser tests"): one server and one
// Chromium for the whole file, started side by side, and browser contexts that are closed after each test.
import type { Browser, BrowserContext, BrowserContextOptions } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { launchChromium } from './chromium';
import { startServer, type RunningServer } from './server';

export type BrowserFile = {
  /** The file's server (set once beforeAll has run). */
  readonly server: RunningServer;
  /** The file's Chromium (set once beforeAll has run). */
  readonly browser: Browser;
  /** A new context (its own storage) that is closed after the current test. */
  newContext: (options?: BrowserContextOptions) => Promise<BrowserContext>;
};

/**
 * Registers beforeAll/afterAll/afterEach hooks in the calling describe block: the server (`start`, by default
 * the demo, started caught up from the run's replayed template) and Chromium launch at the same time, once for
 * the file; contexts made through `newContext` are closed after each test, so pages do not pile up for the rest
 * of the file.
 */
export function useBrowserFile(
  start: () => Promise<RunningServer> = () => startServer({}, [], { demoCaughtUp: true }),
): BrowserFile {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  const open = new Set<BrowserContext>();

  beforeAll(async () => {
    const [started, launched] = await Promise.allSettled([start(), launchChromium()]);
    if (started.status === 'fulfilled') server = started.value;
    if (launched.status === 'fulfilled') browser = launched.value;
    if (started.status === 'rejected') throw started.reason;
    if (launched.status === 'rejected') throw launched.reason;
    // Long enough for the demo template (support/demo-template.ts) when this file is among the run's first.
  }, 660_000);
  afterEach(async () => {
    await Promise.all([...open].map((context) => context.close()));
    open.clear();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  return {
    get server() {
      if (!server) throw new Error('the server is not running (its beforeAll failed or has not run)');
      return server;
    },
    get browser() {
      if (!browser) throw new Error('Chromium is not running (its beforeAll failed or has not run)');
      return browser;
    },
    newContext: async (options) => {
      if (!browser) throw new Error('Chromium is not running');
      const context = await browser.newContext(options);
      open.add(context);
      context.once('close', () => open.delete(context));
      return context;
    },
  };
}
