// Issues 14 and 23: performance as users get it. `npm start` with its defaults (fresh data directory, demo world,
// worker and simulated X in the process) against a SEPARATE bare Fastify process on the same Node answering a
// small JSON, interleaved (lib/interleaved.ts), with and without a browser's Accept-Encoding; how long the start
// takes (fresh, then again on the same data and build), resident memory at idle and after 200 connections, and
// the server's own event-loop delay while its jobs run.
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { interleaved } from './lib/interleaved';
import { load } from './lib/load';
import { handleOfTheWeek, repoRoot } from './lib/spawn-server';
import { fmt, median } from './lib/stats';
import { startAsUser, type LoopDelay } from './lib/user-process';

/** Issue 23's method: 7 subject rounds of 4 s, each between two bare ones. */
const rounds = Number(process.env.BENCH_USER_ROUNDS ?? 7);
const seconds = Number(process.env.BENCH_USER_SECONDS ?? 4);
const heavySeconds = Number(process.env.BENCH_USER_HEAVY_SECONDS ?? 60);
const idleSeconds = Number(process.env.BENCH_USER_IDLE_SECONDS ?? 10);
/** Ports of this section (3150-3169 are kept for it; never the 3000 a developer's own server may use). */
const APP_PORT = Number(process.env.BENCH_USER_PORT ?? 3151);
const BARE_PORT = APP_PORT + 1;
const BROWSER: Record<string, string> = { 'accept-encoding': 'gzip, deflate, br, zstd' };
const MB = 1024 * 1024;

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
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mb-user-'));
  const fresh = await startAsUser(APP_PORT, dataDir);
  await fresh.stop();
  const app = await startAsUser(APP_PORT, dataDir);
  const bareProcess = await startBare();
  const origin = `http://127.0.0.1:${APP_PORT}`;
  const bare = `http://127.0.0.1:${BARE_PORT}/bare`;
  try {
    console.log(
      `as users get it: \`npm start\` on a fresh data directory: first 200 of / after ${fmt(fresh.firstOkMs / 1000)} s ` +
        `[goal ≤ 3 s], demo caught up after ${fmt(fresh.caughtUpMs / 1000)} s [goal ≤ 10 s]; again on the same data ` +
        `and build: first 200 after ${fmt(app.firstOkMs / 1000)} s [goal ≤ 1.5 s]`,
    );
    await new Promise((resolve) => setTimeout(resolve, idleSeconds * 1000));
    console.log(
      `  resident memory after ${idleSeconds} s idle: ${fmt((await app.rss()) / MB, 0)} MB [goal ≤ 200 MB]`,
    );
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
      `  vs a separate bare Fastify process, autocannon 10 connections, interleaved bare/subject/bare…, ` +
        `${rounds} rounds of ${seconds} s, ratio = subject ÷ mean of the bare rounds around it, medians:`,
    );
    const startLoop = app.loop.length;
    for (const [label, url] of rows) {
      for (const [encoding, headers] of [
        ['no Accept-Encoding', {}],
        ['browser Accept-Encoding', BROWSER],
      ] as const) {
        if (url === '/healthz' && encoding !== 'no Accept-Encoding') continue;
        const r = await interleaved(`${origin}${url}`, bare, { rounds, seconds, headers });
        const goal = url === '/healthz' ? '≥ 0.8×' : url.includes('search') ? '≥ 0.5×' : '≥ 0.7×, floor 0.5×';
        console.log(
          `  ${label}, ${encoding}: ${fmt(r.ratio)}× bare [goal ${goal}] ` +
            `(${fmt(r.targetRps, 0)} req/s vs ${fmt(r.bareRps, 0)}; p50 ${r.targetP50} ms, p99 ${r.targetP99} ms)`,
        );
      }
    }
    const heavy = await load(`${origin}/api/mana?limit=20&weekly=true`, heavySeconds, 200, BROWSER);
    console.log(
      `  200 connections, ${heavySeconds} s, GET /api/mana with a browser's Accept-Encoding: ` +
        `${fmt(heavy.requestsPerSecond, 0)} req/s, p99 ${heavy.p99} ms [goal < 50 ms], ` +
        `slowest ${heavy.max} ms [goal < 1000 ms], ${heavy.non2xx} non-2xx, ${heavy.errors} errors; ` +
        `resident memory afterwards ${fmt((await app.rss()) / MB, 0)} MB [goal ≤ 300 MB]`,
    );
    console.log(
      `  ${loopSummary(app.loop.slice(startLoop))} (logged by the server, LOG_EVENT_LOOP_SECONDS=2)`,
    );
  } finally {
    await app.stop();
    const exited = new Promise((resolve) => bareProcess.once('exit', resolve));
    bareProcess.kill('SIGTERM');
    await exited;
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}
