import { fork, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../e2e/support/server';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export type BenchServer = { origin: string; ready: unknown; child: ChildProcess; stop: () => Promise<void> };

/** Starts a bench server script in its own process (so load and server do not share a thread). */
export async function startBenchServer(
  env: Record<string, string> = {},
  script = 'bench/lib/bench-server.ts',
  /** Node flags beyond tsx's (e.g. what scripts/runtime-env.mjs adds to `npm start`'s server). */
  flags: string[] = [],
): Promise<BenchServer> {
  const port = await freePort();
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mb-bench-'));
  const child = fork(path.join(repoRoot, script), [], {
    execPath: process.execPath,
    execArgv: [...flags, '--import', 'tsx'],
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, DATABASE_URL: '', ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = await new Promise<unknown>((resolve, reject) => {
    child.once('message', (message) => resolve(message));
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  return {
    origin: `http://127.0.0.1:${port}`,
    ready,
    child,
    stop: async () => {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Time from spawning `npm start` (or the server alone) on an empty data directory to the first 200 of `/`.
 */
export async function timeToFirst200(command: string[], env: Record<string, string>): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const [bin, ...args] = command;
  if (!bin) throw new Error('no command');
  const child = spawn(bin, args, {
    cwd: repoRoot,
    env: { ...process.env, PORT: String(port), LOG_LEVEL: 'warn', DATABASE_URL: '', ...env },
    stdio: 'ignore',
    detached: true,
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${command.join(' ')} exited with ${child.exitCode}`);
      try {
        const response = await fetch(`http://127.0.0.1:${port}/`);
        if (response.status === 200) return performance.now() - started;
      } catch {
        // not up yet
      }
      if (performance.now() - started > 180_000) throw new Error('no 200 within 180 s');
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    if (child.pid) process.kill(-child.pid, 'SIGTERM');
    // The next start on this data directory needs the lock this server releases as it exits (ADR 008).
    await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
  }
}

/** An author a third of the way down this week's board (a search that finds one exact handle among many). */
export async function handleOfTheWeek(origin: string): Promise<string> {
  type Page = { data: { total: number; authors: Array<{ authorName: string }> } };
  const first = (await (await fetch(`${origin}/api/mana?limit=1&weekly=true`)).json()) as Page;
  const offset = Math.floor(first.data.total / 3);
  const page = (await (
    await fetch(`${origin}/api/mana?limit=1&weekly=true&offset=${offset}`)
  ).json()) as Page;
  const handle = page.data.authors[0]?.authorName;
  if (!handle) throw new Error('the board of this week is empty');
  return handle;
}
