import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import { repoRoot } from './spawn-server';

export type LoopDelay = { p50Ms: number; p99Ms: number; maxMs: number };
export type UserServer = {
  child: ChildProcess;
  loop: LoopDelay[];
  /** ms from spawning `npm start` to the first 200 of `/`. */
  firstOkMs: number;
  /** ms from spawning to the worker's first scheduled run (the demo has caught up). */
  caughtUpMs: number;
  /** Resident memory of the server process (the largest process `npm start` started), bytes. */
  rss: () => Promise<number>;
  stop: () => Promise<void>;
};

/** The resident set of every process in `group`, by pid (Linux /proc). */
export async function groupRss(group: number): Promise<Map<number, number>> {
  const found = new Map<number, number>();
  for (const entry of await fs.readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = await fs.readFile(`/proc/${entry}/stat`, 'utf8');
      // Fields after the command name (which may hold spaces): state ppid pgrp … ; rss is field 24 (pages).
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) !== group) continue;
      found.set(Number(entry), Number(fields[21]) * 4096);
    } catch {
      // exited meanwhile
    }
  }
  return found;
}

/**
 * `npm start` as a user runs it on `dataDir` (fresh or not); resolves once the worker has scheduled its jobs
 * (on a fresh directory: the demo's replay is over).
 */
export async function startAsUser(
  port: number,
  dataDir: string,
  /** More settings (e.g. another network's); without them, `npm start`'s defaults. */
  extraEnv: Record<string, string> = {},
  /** What runs instead of `npm start` (e.g. `node --cpu-prof scripts/run.mjs main`, to profile the same server). */
  command: readonly string[] = ['npm', 'start'],
): Promise<UserServer> {
  const started = performance.now();
  const [program = 'npm', ...args] = command;
  const child = spawn(program, args, {
    // BENCH_USER_CWD: another checkout's `npm start` (e.g. the commit before a change), measured the same way.
    cwd: process.env.BENCH_USER_CWD ?? repoRoot,
    // Defaults, except the port, the data directory and how often the event-loop summary is logged.
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      LOG_EVENT_LOOP_SECONDS: '2',
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: true,
  });
  const loop: LoopDelay[] = [];
  let buffered = '';
  let caughtUp: (at: number) => void = () => undefined;
  const scheduled = new Promise<number>((resolve) => (caughtUp = resolve));
  child.stdout?.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.startsWith('{')) continue;
      const entry = JSON.parse(line) as { msg?: string; eventLoopDelay?: LoopDelay };
      if (entry.eventLoopDelay) loop.push(entry.eventLoopDelay);
      if (entry.msg === 'worker: leader, jobs scheduled') caughtUp(performance.now() - started);
    }
  });
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`npm start exited with ${code}`))),
  );
  const firstOk = (async () => {
    for (;;) {
      try {
        if ((await fetch(`http://127.0.0.1:${port}/`, { headers: { accept: 'text/html' } })).status === 200) {
          return performance.now() - started;
        }
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  const timeout = new Promise<never>((_, reject) =>
    setTimeout(() => reject(new Error('npm start: no scheduled worker within 300 s')), 300_000).unref(),
  );
  const [firstOkMs, caughtUpMs] = await Promise.race([Promise.all([firstOk, scheduled]), exited, timeout]);
  exited.catch(() => undefined);
  return {
    child,
    loop,
    firstOkMs,
    caughtUpMs,
    rss: async () => Math.max(0, ...(await groupRss(child.pid ?? 0)).values()),
    stop: async () => {
      const gone = new Promise((resolve) => child.once('exit', resolve));
      if (child.pid) process.kill(-child.pid, 'SIGTERM');
      await gone;
    },
  };
}
