import { childProcessEnv } from '../../apps/server/src/config/child-env';
import { freePort } from '../../apps/server/src/test/free-port';
import { migratedPgliteDataDir } from '../../apps/server/src/test/pglite-template';
import { demoCaughtUp } from './demo';
import type { RunningServer } from './running-server';
import { replayedDemoDataDir } from './demo-template';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export type { RunningServer };

export { freePort };

/**
 * The environment of a server a test starts on loopback `port` with its data in `dataDir` (on the embedded database
 * unless `env` says otherwise), `env` last.
 */
export function serverEnv(
  port: number,
  dataDir: string,
  env: Record<string, string> = {},
): NodeJS.ProcessEnv {
  return childProcessEnv({
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_ORIGIN: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    ...env,
  });
}

/**
 * Starts the real server (apps/server/src/main.ts, as `npm start` does after building the web app) on a free
 * port with a temporary data directory, and waits until /readyz answers. On the embedded database the data
 * directory starts migrated and empty (a copy of a template: initdb and the migrations on disk took most of the
 * start-up); `freshDatabase` starts it empty instead, as a first `npm start` does, and `demoCaughtUp` starts it
 * on the run's replayed demo (support/demo-template.ts) and returns once the server has caught up on the minutes
 * since (it logs at level info for that, unless `env` sets LOG_LEVEL).
 */
export async function startServer(
  env: Record<string, string> = {},
  /** Arguments of main.ts (e.g. `['api']`: the API alone, which needs DATABASE_URL). */
  args: string[] = [],
  options: { freshDatabase?: boolean; demoCaughtUp?: boolean } = {},
): Promise<RunningServer> {
  const port = await freePort();
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mb-e2e-'));
  if (options.demoCaughtUp) {
    await fs.cp(await replayedDemoDataDir(), dataDir, { recursive: true });
  } else if (!env.DATABASE_URL && !options.freshDatabase) {
    await fs.cp(await migratedPgliteDataDir(), path.join(dataDir, 'pglite'), { recursive: true });
  }
  const origin = `http://127.0.0.1:${port}`;
  let output = '';
  // tsx's loader in this node process, as the tsx command sets it up in the child it starts: one process, so a
  // kill reaches the server itself (killing the tsx command leaves its child running) and one node start less.
  const child: ChildProcess = spawn(
    process.execPath,
    [
      '--require',
      path.join(repoRoot, 'node_modules/tsx/dist/preflight.cjs'),
      '--import',
      pathToFileURL(path.join(repoRoot, 'node_modules/tsx/dist/loader.mjs')).href,
      path.join(repoRoot, 'apps/server/src/main.ts'),
      ...args,
    ],
    {
      cwd: repoRoot,
      env: serverEnv(port, dataDir, { LOG_LEVEL: options.demoCaughtUp ? 'info' : 'warn', ...env }),
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  // Generous: a loaded 2-core machine (several test files at once) can take long to transform and migrate.
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    try {
      const response = await fetch(`${origin}/readyz`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      await exited;
      throw new Error(`server not ready within 120 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }

  const server: RunningServer = {
    origin,
    dataDir,
    output: () => output,
    exited: () => child.exitCode !== null || child.signalCode !== null,
    stop: async ({ keepDataDir = false } = {}) => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      if (!keepDataDir) await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
  if (options.demoCaughtUp) {
    try {
      await demoCaughtUp(server, 300_000);
    } catch (error) {
      await server.stop();
      throw error;
    }
  }
  return server;
}
