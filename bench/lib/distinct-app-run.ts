// One run of `npm start` on Bluesky (embedded database, defaults) reading the distinct-traffic relay until it has
// stored the cursor past every frame: the app's own /metrics (events read and stored with their cursor) sampled
// every 250 ms, the server process's resident memory and CPU time from /proc, the event-loop delay it logs, and,
// beside it when asked, 10 connections reading the cached board. Then the app stops and its database is checked
// against what the stream planted (distinct-check.ts).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { checkDistinctRun, type DistinctCheck } from './distinct-check';
import type { DistinctRelay } from './distinct-relay';
import type { DistinctMeta } from './distinct-stream';
import { load, type LoadResult } from './load';
import { cpuMicros, groupRss } from './cpu-time';
import { threadHeaps, type ThreadHeap } from './thread-heaps';
import { startAsUser, type LoopDelay } from './user-process';

export type Sample = {
  at: number;
  hr: bigint;
  seen: number;
  rss: number;
  cpu: number;
  /** Each thread's V8 heap from the same scrape (lib/thread-heaps.ts). */
  heaps: Map<string, ThreadHeap>;
};
export type AppRun = {
  samples: Sample[];
  loop: LoopDelay[];
  check: DistinctCheck | null;
  board: LoadResult | null;
  done: boolean;
  profile: string | null;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** CPU seconds (user + system) of a process, from /proc/<pid>/stat (clock ticks of 1/100 s). */
async function cpuSeconds(pid: number): Promise<number> {
  return cpuMicros(pid).then(
    (micros) => micros / 1e6,
    () => Number.NaN,
  );
}

/**
 * The settings of `npm start` on Bluesky reading the distinct-traffic relay (also its AppView and PLC), as both
 * the stream-distinct bench and bench/stream-board.ts run it: the rest are `npm start`'s defaults.
 */
export function distinctAppEnv(
  relay: DistinctRelay,
  meta: DistinctMeta,
  origin: string,
  metricsToken: string,
): Record<string, string> {
  return {
    SOCIAL_NETWORK: 'bluesky',
    BLUESKY_RELAY_URL: relay.url,
    BLUESKY_APPVIEW_URL: relay.httpUrl,
    BLUESKY_PLC_URL: relay.httpUrl,
    BLUESKY_HANDLE_RESOLVER_URL: relay.httpUrl,
    BLUESKY_ALLOW_HTTP: 'true',
    OFFICIAL_ACCOUNTS: meta.official.handle,
    PUBLIC_ORIGIN: origin,
    TOKEN_ENCRYPTION_KEY: randomBytes(32).toString('base64url'),
    METRICS_TOKEN: metricsToken,
  };
}

export async function runApp(
  relay: DistinctRelay,
  meta: DistinctMeta,
  options: {
    port: number;
    /** Seconds of 10 connections reading the board (GET /api/mana?limit=20&weekly=true) from the start. */
    boardSeconds?: number;
    /** A directory for the server's CPU profile (node --cpu-prof on the same server `npm start` runs). */
    profileDir?: string;
    timeoutSeconds: number;
    /** Stop once the app has read this many frames (default: all). */
    frames?: number;
  },
): Promise<AppRun> {
  const frames = options.frames ?? meta.params.frames;
  const origin = `http://127.0.0.1:${options.port}`;
  const token = randomBytes(24).toString('hex');
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mb-distinct-'));
  const command = options.profileDir
    ? [process.execPath, `--cpu-prof`, `--cpu-prof-dir=${options.profileDir}`, 'scripts/run.mjs', 'main']
    : ['npm', 'start'];
  const app = await startAsUser(
    options.port,
    dataDir,
    {
      ...distinctAppEnv(relay, meta, origin, token),
      ...(process.env.BENCH_DISTINCT_VERIFY === 'true' ? { BLUESKY_VERIFY_COMMITS: 'true' } : {}),
    },
    command,
  );
  const serverPid = async () => {
    const members = await groupRss(app.child.pid ?? 0);
    return [...members].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 0;
  };
  const pid = await serverPid();
  const samples: Sample[] = [];
  const seen = async (): Promise<{ seen: number; heaps: Map<string, ThreadHeap> } | null> => {
    try {
      const text = await (
        await fetch(`${origin}/metrics`, {
          headers: { authorization: `Bearer ${token}` },
          signal: AbortSignal.timeout(10_000),
        })
      ).text();
      const value = /^manaboard_stream_events_total\{[^}]*kind="seen"[^}]*\} (\S+)$/m.exec(text)?.[1];
      return { seen: value === undefined ? 0 : Number(value), heaps: threadHeaps(text) };
    } catch {
      return null;
    }
  };
  const board = options.boardSeconds
    ? load(`${origin}/api/mana?limit=20&weekly=true`, options.boardSeconds, 10)
    : Promise.resolve(null);
  const started = performance.now();
  let done = false;
  try {
    while ((performance.now() - started) / 1000 < options.timeoutSeconds && app.child.exitCode === null) {
      const scraped = await seen();
      if (scraped !== null) {
        const rss = (await groupRss(app.child.pid ?? 0)).get(pid) ?? 0;
        samples.push({
          at: performance.now(),
          hr: process.hrtime.bigint(),
          seen: scraped.seen,
          rss,
          cpu: await cpuSeconds(pid),
          heaps: scraped.heaps,
        });
        if (scraped.seen >= frames) {
          done = true;
          break;
        }
      }
      await sleep(250);
    }
    const boardResult = await board;
    await app.stop();
    // BENCH_DISTINCT_CHECK=off skips the exact check (a quicker run measuring only speed and the board).
    const checks = done && frames === meta.params.frames && process.env.BENCH_DISTINCT_CHECK !== 'off';
    const check = checks ? await checkDistinctRun(dataDir, meta) : null;
    return { samples, loop: app.loop, check, board: boardResult, done, profile: options.profileDir ?? null };
  } finally {
    if (app.child.exitCode === null) await app.stop().catch(() => undefined);
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

export type Tenth = {
  rate: number;
  seconds: number;
  rss: number;
  /** Each thread's V8 heap at its end (Sample.heaps). */
  heaps: Map<string, ThreadHeap>;
  /** CPU time of the server process per frame in this tenth, µs (robust to a shared machine's stalls). */
  cpuMicros: number;
  from: bigint;
  to: bigint;
};

/** The run cut in tenths of its frames: each tenth's rate (interpolated between samples) and memory at its end. */
export function tenths(samples: readonly Sample[], frames: number): Tenth[] {
  const startAt = [...samples].reverse().find((s) => s.seen === 0) ?? samples[0];
  if (!startAt) return [];
  type Mark = Omit<Sample, 'seen'>;
  const timeAt = (target: number): Mark => {
    for (let k = 1; k < samples.length; k++) {
      const a = samples[k - 1] as Sample;
      const b = samples[k] as Sample;
      if (b.seen >= target && a.seen < target) {
        const f = (target - a.seen) / (b.seen - a.seen);
        return {
          at: a.at + f * (b.at - a.at),
          hr: a.hr + BigInt(Math.round(f * Number(b.hr - a.hr))),
          rss: b.rss,
          cpu: a.cpu + f * (b.cpu - a.cpu),
          heaps: b.heaps,
        };
      }
    }
    const last = samples.at(-1) as Sample;
    return last;
  };
  const marks: Mark[] = [startAt];
  for (let k = 1; k <= 10; k++) marks.push(timeAt((frames * k) / 10));
  return marks.slice(1).map((m, k) => {
    const from = marks[k] as Mark;
    const seconds = (m.at - from.at) / 1000;
    const cpuMicros = ((m.cpu - from.cpu) * 1e6) / (frames / 10);
    return {
      rate: frames / 10 / seconds,
      seconds,
      rss: m.rss,
      heaps: m.heaps,
      cpuMicros,
      from: from.hr,
      to: m.hr,
    };
  });
}
