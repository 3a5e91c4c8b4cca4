// The e2e project's global setup (vitest.config.ts): the replayed demo template of support/demo-template.ts.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { testEnv } from '../../apps/server/src/config/test-env';
import { chromiumSkipReason } from './chromium-path';
import { demoCaughtUp } from './demo';
import { failedMarker } from './demo-template';
import { startServer, type RunningServer } from './server';

/**
 * Starts, and does not wait for, one demo server on a fresh data directory: once its history replay is over it is
 * stopped (a clean shutdown closes the database) and its data directory is moved into place as the template. Global
 * setups run before any test, so the replay runs beside the unit and API files rather than ahead of them.
 */
export default function setup(project: TestProject): () => Promise<void> {
  const template = path.join(os.tmpdir(), `manaboard-demo-template-${process.pid}-${Date.now()}`);
  project.provide('demoTemplate', template);
  if (chromiumSkipReason) {
    // Every file that needs the replayed demo drives a browser: none runs, so no demo is replayed for it. Said once
    // here; in CI each browser file fails instead, as it imports chromium.ts.
    if (!testEnv.ci) console.warn(chromiumSkipReason);
    return async () => {};
  }
  let server: RunningServer | undefined;
  let ended = false;
  const made = (async () => {
    server = await startServer({ LOG_LEVEL: 'info' });
    if (ended) throw new Error('the e2e run ended before the demo server had started');
    await demoCaughtUp(server, 900_000);
    await server.stop({ keepDataDir: true });
    await fs.rename(server.dataDir, template);
  })().catch(async (error: unknown) => {
    const reason = error instanceof Error ? error.message : String(error);
    await fs.writeFile(failedMarker(template), reason).catch(() => {});
    await server?.stop().catch(() => {});
  });
  return async () => {
    // An e2e run that needed no template (or was cut short) must not leave the server running.
    ended = true;
    await server?.stop({ keepDataDir: true }).catch(() => {});
    await made;
    await Promise.all(
      [template, failedMarker(template), server?.dataDir].map(
        (dir) => dir && fs.rm(dir, { recursive: true, force: true }),
      ),
    );
  };
}
