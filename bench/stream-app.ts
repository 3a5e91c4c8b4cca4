// Issue 22: the product on Bluesky as users run it (`npm start`'s process: API and worker in one, PGlite in a fresh
// data directory) reading the replay server (lib/replay-process.ts, its own process) as its relay, at
// BENCH_LIVE_RATE events/s (default 2,000) for BENCH_APP_SECONDS (default 300), while 10 connections read the
// board beside it (GET /api/mana?limit=20&weekly=true, autocannon). Every BENCH_APP_LIKE_EVERY seconds (default 15)
// the bench has the relay send a like of a post the app tracks, by a new account, and times it from when the relay
// produced it until GET /api/mana shows its author's Mana risen. Lag: the app's own manaboard_stream_lag_seconds,
// read from /metrics each second. The recording's network is gone: the replay process also answers the AppView reads
// the worker makes while streaming (the recorded accounts' profiles and handles; lib/replay-child.ts).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { manaResponseSchema, postsResponseSchema } from '@manaboard/contract';
import { loadRecording } from './lib/firehose-recording';
import { load } from './lib/load';
import { startReplayProcess } from './lib/replay-process';
import { fmt, median } from './lib/stats';
import { startAsUser } from './lib/user-process';
import { threadHeaps } from './lib/thread-heaps';

const rate = Number(process.env.BENCH_LIVE_RATE ?? 2000);
const seconds = Number(process.env.BENCH_APP_SECONDS ?? 300);
const likeEvery = Number(process.env.BENCH_APP_LIKE_EVERY ?? 15);
const PORT = Number(process.env.BENCH_APP_PORT ?? 3161);
const MB = 1024 * 1024;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};

export async function appStreamBench(): Promise<void> {
  const relay = await startReplayProcess({ mix: 'public', rate });
  const origin = `http://127.0.0.1:${PORT}`;
  const token = randomBytes(24).toString('hex');
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mb-bsky-app-'));
  const app = await startAsUser(PORT, dataDir, {
    SOCIAL_NETWORK: 'bluesky',
    BLUESKY_RELAY_URL: relay.url,
    BLUESKY_APPVIEW_URL: relay.appviewUrl,
    BLUESKY_PLC_URL: relay.appviewUrl,
    BLUESKY_HANDLE_RESOLVER_URL: relay.appviewUrl,
    BLUESKY_ALLOW_HTTP: 'true',
    OFFICIAL_ACCOUNTS: (await loadRecording()).meta.official.handle,
    PUBLIC_ORIGIN: origin,
    TOKEN_ENCRYPTION_KEY: randomBytes(32).toString('base64url'),
    METRICS_TOKEN: token,
  });
  const json = async (url: string) => (await fetch(`${origin}${url}`)).json() as Promise<unknown>;
  const manaOf = async (authorId: string) =>
    manaResponseSchema
      .parse(await json('/api/mana?limit=100'))
      .data.authors.find((a) => a.authorId === authorId)?.totalMana ?? 0;
  const lags: number[] = [];
  const likes: number[] = [];
  /** The server's resident memory, read each second: [seconds since the board's load began, bytes]. */
  const resident: [number, number][] = [];
  /** Each thread's V8 heap from the same scrape (manaboard_thread_heap_bytes): [seconds, thread → used, total]. */
  const heaps: [number, Map<string, { used: number; total: number }>][] = [];
  let loadStarted = Number.NaN;
  let running = true;
  const sampleLag = (async () => {
    while (running) {
      const text = await (
        await fetch(`${origin}/metrics`, { headers: { authorization: `Bearer ${token}` } })
      ).text();
      const lag = /^manaboard_stream_lag_seconds(?:\{[^}]*\})? (\S+)$/m.exec(text)?.[1];
      if (lag !== undefined) lags.push(Number(lag));
      if (Number.isFinite(loadStarted)) {
        const at = (Date.now() - loadStarted) / 1000;
        resident.push([at, await app.rss()]);
        heaps.push([at, threadHeaps(text)]);
      }
      await sleep(1_000);
    }
  })();
  const timeLikes = (async () => {
    let n = 0;
    while (running) {
      await sleep(likeEvery * 1_000);
      const posts = postsResponseSchema.parse(await json('/api/posts?limit=20')).data;
      const post = posts[n % Math.max(1, posts.length)];
      if (!post) continue;
      const before = await manaOf(post.authorId);
      const { producedAt } = await relay.injectLike({
        subjectUri: post.id,
        subjectCid: 'bafyreie5737gdxlw5i64vzichcalba3z2v5n6icifvx5xytvske7mr3hpm',
        liker: `did:plc:benchliker${String(n++).padStart(14, '0')}`,
        rkey: `3kbench${Date.now()}`,
      });
      for (let waited = 0; running && waited < 60_000; waited += 100) {
        if ((await manaOf(post.authorId)) > before) {
          likes.push((Date.now() - producedAt) / 1000);
          break;
        }
        await sleep(100);
      }
    }
  })();
  try {
    await sleep(5_000); // the stream connects and the first tracked posts arrive
    loadStarted = Date.now();
    const board = await load(`${origin}/api/mana?limit=20&weekly=true`, seconds, 10);
    running = false;
    await Promise.all([sampleLag, timeLikes]);
    const steady = lags.slice(Math.floor(lags.length / 10));
    console.log(
      `the app on Bluesky as users run it (npm start's process, PGlite), the replay server at ${rate} events/s as ` +
        `its relay for ${seconds} s, 10 connections reading the board beside it: stream lag (/metrics, each ` +
        `second) p50 ${fmt(percentile(steady, 50))} s, p99 ${fmt(percentile(steady, 99))} s [goal < 2 s], max ` +
        `${fmt(Math.max(...steady))} s; a like on a tracked post reached /api/mana in median ` +
        `${fmt(median(likes))} s, slowest ${fmt(Math.max(...likes))} s [goal ≤ 5 s] (${likes.length} likes); the ` +
        `board meanwhile ${fmt(board.requestsPerSecond, 0)} req/s, p99 ${fmt(board.p99)} ms, ${board.non2xx} ` +
        `non-2xx, ${board.errors} errors; resident memory at the end ${fmt((await app.rss()) / MB, 0)} MB`,
    );
    // Issue 33: ≤ 250 MB after 10 minutes, flat from minute 2 on: the most each minute held.
    const minutes = new Map<number, number>();
    for (const [at, bytes] of resident) {
      const minute = Math.floor(at / 60);
      minutes.set(minute, Math.max(minutes.get(minute) ?? 0, bytes));
    }
    const fromMinute2 = resident.filter(([at]) => at >= 120).map(([, bytes]) => bytes);
    const steadyRange =
      fromMinute2.length > 0
        ? `${fmt(Math.min(...fromMinute2) / MB, 0)}–${fmt(Math.max(...fromMinute2) / MB, 0)} MB`
        : 'not reached (a run shorter than 2 minutes)';
    console.log(
      `  resident memory, the most in each minute: ${[...minutes].map(([m, b]) => `${m + 1}: ${fmt(b / MB, 0)}`).join(', ')} MB; ` +
        `from minute 2 on ${steadyRange} [goal ≤ 250 MB after 10 minutes, flat from minute 2]`,
    );
    // Which isolate holds it: each thread's heap at its most committed from minute 2 on (the whole run if shorter).
    const steadyHeaps = heaps.some(([at]) => at >= 120) ? heaps.filter(([at]) => at >= 120) : heaps;
    const most = new Map<string, { used: number; total: number }>();
    for (const [, threads] of steadyHeaps) {
      for (const [thread, heap] of threads) {
        if (heap.total > (most.get(thread)?.total ?? -1)) most.set(thread, heap);
      }
    }
    console.log(
      `  each thread's V8 heap at its most from minute 2 on, used / committed: ` +
        [...most]
          .map(([thread, h]) => `${thread} ${fmt(h.used / MB, 0)} / ${fmt(h.total / MB, 0)} MB`)
          .join(', '),
    );
  } finally {
    running = false;
    await app.stop();
    await relay.close();
  }
}
