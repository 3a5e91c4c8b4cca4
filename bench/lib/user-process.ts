import { appendFileSync } from 'node:fs';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { groupRss, largestInGroup } from './cpu-time';
import { repoRoot } from './spawn-server';

export type LoopDelay = { p50Ms: number; p99Ms: number; maxMs: number };
/** One `debug` line of the server's start (apps/server/src/lib/start-phases.ts): a phase and when it ended. */
export type StartPhase = { phase: string; ms: number; cpuMs: number; atMs: number };
export type UserServer = {
  child: ChildProcess;
  loop: LoopDelay[];
  /** The start's phases the server logged (only at LOG_LEVEL=debug). */
  phases: StartPhase[];
  /** ms from spawning `npm start` to the first 200 of `/`. */
  firstOkMs: number;
  /** ms from spawning to the worker's first scheduled run (the demo has caught up). */
  caughtUpMs: number;
  /** Resident memory of the server process (the largest process `npm start` started), bytes. */
  rss: () => Promise<number>;
  /** The server process (the largest `npm start` started). */
  pid: () => Promise<number | undefined>;
  stop: () => Promise<void>;
};

type Started = {
  child: ChildProcess;
  /** ms from the spawn to the first 200 of `/`; rejects if the process exits first. */
  firstOk: Promise<number>;
  stop: () => Promise<void>;
};

/**
 * Spawns `npm start` in `cwd` (its own process group) and times the first 200 of `/` from the spawn, polling
 * every 10 ms. The app and the bare yardstick are started and timed by this same code.
 */
function npmStart(
  cwd: string,
  port: number,
  env: Record<string, string>,
  onLine?: (line: string) => void,
  command: readonly string[] = ['npm', 'start'],
) {
  const started = performance.now();
  const [program = 'npm', ...args] = command;
  const child = spawn(program, args, {
    cwd,
    env: { ...process.env, PORT: String(port), ...env },
    stdio: ['ignore', onLine ? 'pipe' : 'ignore', 'inherit'],
    detached: true,
  });
  let buffered = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) onLine?.(line);
  });
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`npm start in ${cwd} exited with ${code}`))),
  );
  exited.catch(() => undefined);
  const polled = (async () => {
    for (;;) {
      try {
        if ((await fetch(`http://127.0.0.1:${port}/`, { headers: { accept: 'text/html' } })).status === 200) {
          return performance.now() - started;
        }
      } catch {
        // not listening yet
      }
      if (child.exitCode !== null) throw new Error(`npm start in ${cwd} exited with ${child.exitCode}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  const result: Started & { exited: Promise<never> } = {
    child,
    firstOk: Promise.race([polled, exited]),
    exited,
    stop: () => stopGroup(child),
  };
  return result;
}

/**
 * Stops every process of the group `npm start` leads and waits until the last has exited: npm exits at once on
 * SIGTERM, while the server behind it still answers as it shuts down, and a start timed right after must not
 * get its first 200 from that one.
 */
async function stopGroup(child: ChildProcess): Promise<void> {
  const group = child.pid;
  if (!group) return;
  const alive = () => {
    try {
      process.kill(-group, 0);
      return true;
    } catch {
      return false;
    }
  };
  if (alive()) process.kill(-group, 'SIGTERM');
  const deadline = performance.now() + 20_000;
  while (alive()) {
    if (performance.now() > deadline) process.kill(-group, 'SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The bare Fastify yardstick (bench/fixtures/bare-start), started through its own `npm start`. */
export async function startBare(
  port: number,
): Promise<{ firstOkMs: number; pid: () => Promise<number | undefined>; stop: () => Promise<void> }> {
  const bare = npmStart(path.join(repoRoot, 'bench/fixtures/bare-start'), port, {});
  try {
    return { firstOkMs: await bare.firstOk, pid: () => largestInGroup(bare.child.pid ?? 0), stop: bare.stop };
  } catch (error) {
    await bare.stop();
    throw error;
  }
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
  const loop: LoopDelay[] = [];
  const phases: StartPhase[] = [];
  let caughtUp: (at: number) => void = () => undefined;
  const scheduled = new Promise<number>((resolve) => (caughtUp = resolve));
  let started = 0;
  const onLine = (line: string) => {
    // BENCH_SERVER_LOG: every line the server wrote, kept in that file (what ran when, in a run to explain).
    if (process.env.BENCH_SERVER_LOG) appendFileSync(process.env.BENCH_SERVER_LOG, `${line}\n`);
    if (!line.startsWith('{')) return;
    const entry = JSON.parse(line) as { msg?: string; eventLoopDelay?: LoopDelay } & Partial<StartPhase>;
    if (entry.eventLoopDelay) loop.push(entry.eventLoopDelay);
    if (entry.msg === 'start: phase' && entry.phase && entry.ms !== undefined && entry.atMs !== undefined) {
      phases.push({ phase: entry.phase, ms: entry.ms, cpuMs: entry.cpuMs ?? 0, atMs: entry.atMs });
    }
    if (entry.msg === 'worker: leader, jobs scheduled') caughtUp(performance.now() - started);
  };
  // BENCH_USER_CWD: another checkout's `npm start` (e.g. the commit before a change), measured the same way.
  // Defaults, except the port, the data directory and how often the event-loop summary is logged.
  const env = { DATA_DIR: dataDir, DATABASE_URL: '', LOG_EVENT_LOOP_SECONDS: '2', ...extraEnv };
  started = performance.now();
  const app = npmStart(process.env.BENCH_USER_CWD ?? repoRoot, port, env, onLine, command);
  const timeout = new Promise<never>((_, reject) =>
    setTimeout(() => reject(new Error('npm start: no scheduled worker within 300 s')), 300_000).unref(),
  );
  try {
    const [firstOkMs, caughtUpMs] = await Promise.race([
      Promise.all([app.firstOk, scheduled]),
      app.exited,
      timeout,
    ]);
    return {
      child: app.child,
      loop,
      phases,
      firstOkMs,
      caughtUpMs,
      rss: async () => Math.max(0, ...(await groupRss(app.child.pid ?? 0)).values()),
      pid: () => largestInGroup(app.child.pid ?? 0),
      stop: app.stop,
    };
  } catch (error) {
    await app.stop();
    throw error;
  }
}
