// Issues 14, 23 and 33: performance as users get it. `npm start` with its defaults (fresh data directory, demo
// world, worker and simulated X in the process) against a SEPARATE bare Fastify process on the same Node, started
// the same way (`npm start` of bench/fixtures/bare-start): each start as a multiple of the bare one's
// (lib/start-rounds.ts), the reads as a fraction of the bare one's rate with and without a browser's
// Accept-Encoding (lib/interleaved.ts), resident memory at idle and after 200 and then 1,000 connections, and the server's own
// event-loop delay while its jobs run. Every ratio is printed with the seconds or rates it was made of.
import { fork } from 'node:child_process';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { WRITEV_FROM_BYTES } from '../apps/server/src/http/representations';
import { interleaved } from './lib/interleaved';
import { load } from './lib/load';
import { handleOfTheWeek } from './lib/spawn-server';
import { interleavedStarts, type StartFigures } from './lib/start-rounds';
import { fmt, median } from './lib/stats';
import { startAsUser, startBare, type LoopDelay, type StartPhase } from './lib/user-process';

/** Issue 23's method for the reads: 7 subject rounds of 4 s, each between two bare ones. */
const rounds = Number(process.env.BENCH_USER_ROUNDS ?? process.env.BENCH_ROUNDS ?? 7);
const seconds = Number(process.env.BENCH_USER_SECONDS ?? process.env.BENCH_SECONDS ?? 4);
/** Rounds of starts (bare, fresh, bare, restart): a fresh start replays the demo, ~10 s each. */
const startRounds = Number(process.env.BENCH_USER_START_ROUNDS ?? process.env.BENCH_ROUNDS ?? 5);
const heavySeconds = Number(process.env.BENCH_USER_HEAVY_SECONDS ?? 60);
const idleSeconds = Number(process.env.BENCH_USER_IDLE_SECONDS ?? 10);
/** Which parts run (a shorter run while working on one of them): any of starts, reads, heavy. */
const parts = new Set((process.env.BENCH_USER_PARTS ?? 'starts,reads,heavy').split(','));
/** Ports of this section (3150-3169 are kept for it; never the 3000 a developer's own server may use). */
const APP_PORT = Number(process.env.BENCH_USER_PORT ?? 3151);
const BARE_PORT = APP_PORT + 1;
const COPY_PORT = APP_PORT + 2;
const BROWSER: Record<string, string> = { 'accept-encoding': 'gzip, deflate, br, zstd' };
const MB = 1024 * 1024;

const loadAverage = () =>
  os
    .loadavg()
    .map((n) => fmt(n))
    .join(' ');

function loopSummary(samples: LoopDelay[]): string {
  if (samples.length === 0) return 'no event-loop summary logged';
  return (
    `event-loop delay over ${samples.length} windows of 2 s: p99 median ${fmt(median(samples.map((s) => s.p99Ms)))} ms, ` +
    `worst window p99 ${fmt(Math.max(...samples.map((s) => s.p99Ms)))} ms, max ${fmt(Math.max(...samples.map((s) => s.maxMs)))} ms`
  );
}

function phaseSummary(phases: StartPhase[]): string {
  if (phases.length === 0) return 'no phase lines logged';
  return phases.map((p) => `${p.phase} ${fmt(p.ms, 0)} (${fmt(p.cpuMs, 0)} CPU)`).join(', ');
}

function printStarts(s: StartFigures): void {
  const seconds = (ms: number) => `${fmt(ms / 1000)} s`;
  console.log(
    `  starts, ${s.rounds} interleaved rounds (bare, fresh, bare, restart, …, each subject ÷ the mean of the bare ` +
      `starts around it; medians), every start spawned as \`npm start\` and timed to its first 200 of /:`,
  );
  console.log(`    bare Fastify through its own \`npm start\`: first 200 after ${seconds(s.bareMs)}`);
  console.log(
    `    first 200 on a restart (same data and build): ${fmt(s.restart.ratio)}× bare (${seconds(s.restart.ms)}) [goal ≤ 3×]`,
  );
  console.log(
    `    first 200 on a fresh data directory: ${fmt(s.fresh.ratio)}× bare (${seconds(s.fresh.ms)}) [goal ≤ 5×]`,
  );
  console.log(
    `    demo caught up (fresh): ${fmt(s.caughtUp.ratio)}× bare (${seconds(s.caughtUp.ms)}) [goal ≤ 10 s]`,
  );
  if (s.phases.length > 0) {
    console.log(
      `    a restart's phases (LOG_LEVEL=debug, ms from the process's start): ${phaseSummary(s.phases)}`,
    );
  }
}

export async function asUsersGetIt(): Promise<void> {
  console.log(`as users get it (load average ${loadAverage()} at the start):`);
  let dataDir: string;
  if (parts.has('starts')) {
    const starts = await interleavedStarts({
      rounds: startRounds,
      appPort: APP_PORT,
      barePort: BARE_PORT,
      phases: true,
    });
    printStarts(starts);
    dataDir = starts.dataDir;
  } else {
    // The reads need a caught-up demo: one fresh start, then the restart below.
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mb-user-'));
    await (await startAsUser(APP_PORT, dataDir)).stop();
  }
  const app = await startAsUser(APP_PORT, dataDir);
  const bare = await startBare(BARE_PORT);
  const origin = `http://127.0.0.1:${APP_PORT}`;
  const bareUrl = `http://127.0.0.1:${BARE_PORT}/bare`;
  try {
    await new Promise((resolve) => setTimeout(resolve, idleSeconds * 1000));
    console.log(
      `  resident memory after ${idleSeconds} s idle (a restart, demo caught up): ` +
        `${fmt((await app.rss()) / MB, 0)} MB [goal ≤ 150 MB]`,
    );
    const startLoop = app.loop.length;
    if (parts.has('reads')) {
      const [target, bareServer] = await Promise.all([app.pid(), bare.pid()]);
      await reads(origin, bareUrl, target && bareServer ? { target, bare: bareServer } : undefined);
    }
    if (parts.has('heavy')) {
      const heavy = await load(`${origin}/api/mana?limit=20&weekly=true`, heavySeconds, 200, BROWSER);
      console.log(
        `  200 connections, ${heavySeconds} s, GET /api/mana with a browser's Accept-Encoding: ` +
          `${fmt(heavy.requestsPerSecond, 0)} req/s, p99 ${heavy.p99} ms [goal < 50 ms], ` +
          `slowest ${heavy.max} ms [goal < 1000 ms], ${heavy.non2xx} non-2xx, ${heavy.errors} errors; ` +
          `resident memory afterwards ${fmt((await app.rss()) / MB, 0)} MB [goal ≤ 300 MB]`,
      );
      // Issue 32: five times as many browsers at once, beside the 200 above on the same server.
      const crowd = await load(`${origin}/api/mana?limit=20&weekly=true`, heavySeconds, 1000, BROWSER);
      console.log(
        `  1,000 connections, ${heavySeconds} s, the same: ${fmt(crowd.requestsPerSecond, 0)} req/s, ` +
          `p50 ${crowd.p50} ms, p99 ${crowd.p99} ms [goal < 100 ms], slowest ${crowd.max} ms, ` +
          `${crowd.non2xx} non-2xx, ${crowd.errors} errors [goal 0]; ` +
          `resident memory afterwards ${fmt((await app.rss()) / MB, 0)} MB [goal ≤ 300 MB]`,
      );
    }
    console.log(
      `  ${loopSummary(app.loop.slice(startLoop))} (logged by the server, LOG_EVENT_LOOP_SECONDS=2)`,
    );
    console.log(`  load average ${loadAverage()} at the end`);
  } finally {
    await app.stop();
    await bare.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

type Recorded = { url: string; encoding: string; status: number; head: string[]; body: string };

/** The app's answer to `url` as it sent it (not decompressed), without the headers Node adds itself. */
function recordAnswer(origin: string, url: string, encoding: string): Promise<Recorded> {
  return new Promise((resolve, reject) => {
    const headers = encoding ? BROWSER : {};
    http
      .get(`${origin}${url}`, { headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const head: string[] = [];
          const raw = response.rawHeaders;
          for (let i = 0; i < raw.length; i += 2) {
            const name = raw[i] ?? '';
            if (!['date', 'connection', 'keep-alive', 'transfer-encoding'].includes(name.toLowerCase()))
              head.push(name, raw[i + 1] ?? '');
          }
          resolve({
            url,
            encoding,
            status: response.statusCode ?? 0,
            head,
            body: Buffer.concat(chunks).toString('base64'),
          });
        });
      })
      .on('error', reject);
  });
}

/**
 * The second yardstick (lib/copy-server.mjs): a plain node:http server in its own process that sends the app's
 * recorded answers to `urls`, byte for byte, in both encodings.
 */
async function startCopyServer(origin: string, urls: readonly string[]) {
  const recorded: Recorded[] = [];
  for (const url of urls)
    for (const encoding of ['', 'br']) recorded.push(await recordAnswer(origin, url, encoding));
  const file = path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'mb-copy-')), 'answers.json');
  await fs.writeFile(file, JSON.stringify(recorded));
  const child = fork(path.join(import.meta.dirname, 'lib/copy-server.mjs'), [], {
    // It hands Node each body as the app does (http/representations.ts wireBody): the same bytes, written the same way.
    env: {
      ...process.env,
      PORT: String(COPY_PORT),
      ANSWERS: file,
      WRITEV_FROM_BYTES: String(WRITEV_FROM_BYTES),
    },
    stdio: 'ignore',
    execArgv: [],
  });
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`the copy server exited (${code})`)));
  });
  return {
    origin: `http://127.0.0.1:${COPY_PORT}`,
    pid: child.pid ?? 0,
    stop: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      await fs.rm(path.dirname(file), { recursive: true, force: true });
    },
  };
}

async function reads(
  origin: string,
  bareUrl: string,
  pids?: { target: number; bare: number },
): Promise<void> {
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
    `  reads vs the bare process's GET /bare, autocannon 10 connections, interleaved bare/subject/bare…, ` +
      `${rounds} rounds of ${seconds} s, ratio = subject ÷ mean of the bare rounds around it, medians ` +
      `(both sent the same headers; the bare process compresses nothing):`,
  );
  // The reads whose goal is 0.8× are also sent, byte for byte, by a plain node:http server (lib/copy-server.mjs).
  const copied = rows.map(([, url]) => url).filter((url) => url !== '/healthz' && !url.includes('search'));
  const copy = await startCopyServer(origin, copied);
  try {
    await readRows(rows, origin, bareUrl, copied, copy, pids);
  } finally {
    await copy.stop();
  }
}

async function readRows(
  rows: ReadonlyArray<[string, string]>,
  origin: string,
  bareUrl: string,
  copied: readonly string[],
  copy: { origin: string; pid: number },
  pids?: { target: number; bare: number },
): Promise<void> {
  for (const [label, url] of rows) {
    for (const [encoding, headers] of [
      ['no Accept-Encoding', {}],
      ['browser Accept-Encoding', BROWSER],
    ] as const) {
      const r = await interleaved(`${origin}${url}`, bareUrl, {
        rounds,
        seconds,
        headers,
        ...(pids ? { pids } : {}),
      });
      const goal = url === '/healthz' ? '≥ 0.9×' : url.includes('search') ? '≥ 0.5×' : '≥ 0.8×, floor 0.7×';
      const cpu = r.cpu
        ? `; CPU per request: app ${fmt(r.cpu.targetMicros, 1)} µs, bare ${fmt(r.cpu.bareMicros, 1)} µs, ` +
          `bare ÷ app ${fmt(r.cpu.ratio)}`
        : '';
      console.log(
        `    ${label}, ${encoding}: ${fmt(r.ratio)}× bare [goal ${goal}] ` +
          `(app ${fmt(r.targetRps, 0)} req/s, bare ${fmt(r.bareRps, 0)} req/s; app p50 ${r.targetP50} ms, p99 ${r.targetP99} ms${cpu})`,
      );
      if (!copied.includes(url)) continue;
      const c = await interleaved(`${copy.origin}${url}`, bareUrl, {
        rounds,
        seconds,
        headers,
        ...(pids ? { pids: { target: copy.pid, bare: pids.bare } } : {}),
      });
      console.log(
        `      the same bytes from a plain node:http server (lib/copy-server.mjs, the second yardstick): ` +
          `${fmt(c.ratio)}× bare (${fmt(c.targetRps, 0)} req/s, bare ${fmt(c.bareRps, 0)} req/s` +
          (c.cpu ? `; CPU per request ${fmt(c.cpu.targetMicros, 1)} µs, bare ÷ it ${fmt(c.cpu.ratio)}` : '') +
          `); the app ÷ it: ${fmt(r.ratio / c.ratio)} by rate` +
          (c.cpu && r.cpu ? `, ${fmt(c.cpu.targetMicros / r.cpu.targetMicros)} by CPU per request` : ''),
      );
    }
  }
}
