// Issue 14: performance as users get it. `npm start` with its defaults (fresh data directory, demo world, worker
// and simulated X in the process) against a SEPARATE bare Fastify process on the same Node answering a small
// JSON; every figure side by side in one run, with and without a browser's Accept-Encoding; p99 at 10
// connections, p99 and the slowest answer at 200, and the server's own event-loop delay while its jobs run.
import { fork, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { sideBySide } from './lib/side-by-side';
import { handleOfTheWeek, repoRoot } from './lib/spawn-server';
import { benchRounds, fmt, median } from './lib/stats';

const rounds = benchRounds();
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
/** Ports of this section (3150-3169 are kept for it; never the 3000 a developer's own server may use). */
const APP_PORT = Number(process.env.BENCH_USER_PORT ?? 3151);
const BARE_PORT = APP_PORT + 1;
const BROWSER: Record<string, string> = { 'accept-encoding': 'gzip, deflate, br, zstd' };

type LoopDelay = { p50Ms: number; p99Ms: number; maxMs: number };
type Started = { child: ChildProcess; loop: LoopDelay[]; stop: () => Promise<void> };

/** `npm start` as a user runs it, on a fresh data directory; resolves once the demo's replay is over. */
async function startAsUser(): Promise<Started> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mb-user-'));
  const child = spawn('npm', ['start'], {
    // BENCH_USER_CWD: another checkout's `npm start` (e.g. the commit before a change), measured the same way.
    cwd: process.env.BENCH_USER_CWD ?? repoRoot,
    // Defaults, except the port, the data directory and how often the event-loop summary is logged.
    env: {
      ...process.env,
      PORT: String(APP_PORT),
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      LOG_EVENT_LOOP_SECONDS: '2',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: true,
  });
  const loop: LoopDelay[] = [];
  let buffered = '';
  let scheduled: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (scheduled = resolve));
  child.stdout?.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.startsWith('{')) continue;
      const entry = JSON.parse(line) as { msg?: string; eventLoopDelay?: LoopDelay };
      if (entry.eventLoopDelay) loop.push(entry.eventLoopDelay);
      if (entry.msg === 'worker: leader, jobs scheduled') scheduled();
    }
  });
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`npm start exited with ${code}`))),
  );
  const timeout = new Promise<never>((_, reject) =>
    setTimeout(() => reject(new Error('npm start: no scheduled worker within 300 s')), 300_000).unref(),
  );
  await Promise.race([ready, exited, timeout]);
  return {
    child,
    loop,
    stop: async () => {
      if (child.pid) process.kill(-child.pid, 'SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

async function startBare(): Promise<ChildProcess> {
  const child = fork(path.join(repoRoot, 'bench/lib/bare-fastify.ts'), [], {
    execPath: process.execPath,
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, PORT: String(BARE_PORT) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`bare server exited with ${code}`)));
  });
  return child;
}

function loopSummary(samples: LoopDelay[]): string {
  if (samples.length === 0) return 'no event-loop summary logged';
  return (
    `event-loop delay over ${samples.length} windows of 2 s: p99 median ${fmt(median(samples.map((s) => s.p99Ms)))} ms, ` +
    `worst window p99 ${fmt(Math.max(...samples.map((s) => s.p99Ms)))} ms, max ${fmt(Math.max(...samples.map((s) => s.maxMs)))} ms`
  );
}

export async function asUsersGetIt(): Promise<void> {
  const bareProcess = await startBare();
  const app = await startAsUser();
  const origin = `http://127.0.0.1:${APP_PORT}`;
  const bare = `http://127.0.0.1:${BARE_PORT}/bare`;
  try {
    const handle = await handleOfTheWeek(origin);
    const rows: Array<[string, string]> = [
      ['GET /api/mana?limit=20&weekly=true', '/api/mana?limit=20&weekly=true'],
      ['GET /api/posts?limit=20&weekly=true', '/api/posts?limit=20&weekly=true'],
      ['GET /api/public/announcements', '/api/public/announcements?page=1&limit=50'],
      [
        `search by handle (@${handle}, cached after the first read)`,
        `/api/mana?limit=20&weekly=true&search=%40${handle}`,
      ],
      ['GET /healthz (the shared per-request cost)', '/healthz'],
    ];
    console.log(
      `as users get it: \`npm start\` defaults (demo world, worker and simulated X in the process) vs a separate bare ` +
        `Fastify process, autocannon 10 connections, ${rounds}×${seconds}s, medians:`,
    );
    const startLoop = app.loop.length;
    for (const [label, url] of rows) {
      for (const [encoding, headers] of [
        ['no Accept-Encoding', {}],
        ['browser Accept-Encoding', BROWSER],
      ] as const) {
        if (url === '/healthz' && encoding !== 'no Accept-Encoding') continue;
        const r = await sideBySide(`${origin}${url}`, bare, { rounds, seconds, headers });
        console.log(
          `  ${label}, ${encoding}: ${fmt(r.ratio)}× bare [floor 0.5×, goal 0.7×; /healthz ≥ 0.6×] ` +
            `(${fmt(r.targetRps, 0)} req/s vs ${fmt(r.bareRps, 0)}; p50 ${r.targetP50} ms, p99 ${r.targetP99} ms [goal < 10 ms])`,
        );
      }
    }
    const heavy = await autocannon({
      url: `${origin}/api/mana?limit=20&weekly=true`,
      connections: 200,
      duration: Math.max(seconds * 4, 10),
      headers: BROWSER,
    });
    console.log(
      `  200 connections, ${Math.max(seconds * 4, 10)} s, GET /api/mana with a browser's Accept-Encoding: ` +
        `${fmt(heavy.requests.average, 0)} req/s, p99 ${heavy.latency.p99} ms [goal < 100 ms], ` +
        `slowest ${heavy.latency.max} ms [goal < 1000 ms], ${heavy.non2xx} non-2xx, ${heavy.errors} errors`,
    );
    console.log(
      `  ${loopSummary(app.loop.slice(startLoop))} (logged by the server, LOG_EVENT_LOOP_SECONDS=2)`,
    );
  } finally {
    await app.stop();
    const exited = new Promise((resolve) => bareProcess.once('exit', resolve));
    bareProcess.kill('SIGTERM');
    await exited;
  }
}
