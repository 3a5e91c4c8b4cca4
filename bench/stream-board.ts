// Issue 31, part 3, a quick measurement: the board while `npm start` on Bluesky consumes the distinct stream's
// backlog (the same stream, relay and start as `stream-distinct`, without the plain readers or the exact check).
// Prints one JSON line: events/s, the server's CPU µs a frame and cores, the board's autocannon figures (10
// connections, GET /api/mana?limit=20&weekly=true, QB_BOARD seconds, default 12) and the server's own event-loop
// delay windows (every 2 s), and its resident memory (peak while consuming, and at the end). Usage: BENCH_DISTINCT_FRAMES=200000 npx tsx bench/stream-board.ts; BENCH_USER_CWD
// measures another checkout. It kills what it started and exits (stream-distinct's run can hang after the app
// stops; docs/benchmarks.md).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { distinctAppEnv } from './lib/distinct-app-run';
import { startDistinctRelay } from './lib/distinct-relay';
import { loadDistinctStream } from './lib/distinct-stream';
import { load } from './lib/load';
import { groupRss } from './lib/cpu-time';
import { startAsUser } from './lib/user-process';

const meta = await loadDistinctStream();
const frames = meta.params.frames;
const relay = await startDistinctRelay({
  key: meta.key,
  rate: meta.params.networkRate,
  backlog: frames,
  fromFirst: true,
});
const port = 3177;
const origin = `http://127.0.0.1:${port}`;
const token = randomBytes(24).toString('hex');
const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mb-quick-'));
const app = await startAsUser(
  port,
  dataDir,
  distinctAppEnv(relay, meta, origin, token),
  // QB_TRACE_GC=true: the same server under node --trace-gc (refused in NODE_OPTIONS), with QB_STDOUT.
  process.env.QB_TRACE_GC === 'true'
    ? [process.execPath, '--trace-gc', 'scripts/run.mjs', 'main']
    : undefined,
);
// QB_STDOUT=<file>: the server's output from here on (e.g. its --trace-gc lines), for a diagnosis.
const out = process.env.QB_STDOUT;
if (out) app.child.stdout?.on('data', (chunk: Buffer) => void fs.appendFile(out, chunk));
const members = await groupRss(app.child.pid ?? 0);
const pid = [...members].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 0;
// The server's resident memory (its main process, worker thread included), MB: the peak while it consumes.
const rss = async () => {
  const f = (await fs.readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]?.split(' ') ?? [];
  return (Number(f[21]) * 4096) / 2 ** 20;
};
let rssPeak = 0;
const cpu = async () => {
  const f = (await fs.readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]?.split(' ') ?? [];
  return (Number(f[11]) + Number(f[12])) / 100;
};
// QB_MEM=<seconds>: every so often, the server's heap (used, total), external and resident memory (MB) on stderr, as its own
// /metrics gives them (prom-client's default metrics), to see what grows with the frames read.
const memEvery = Number(process.env.QB_MEM ?? 0) * 1000;
let memAt = 0;
const gauge = (t: string, name: string) =>
  Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(t)?.[1] ?? NaN);
const seen = async () => {
  try {
    const t = await (
      await fetch(`${origin}/metrics`, { headers: { authorization: `Bearer ${token}` } })
    ).text();
    const frames = Number(
      /^manaboard_stream_events_total\{[^}]*kind="seen"[^}]*\} (\S+)$/m.exec(t)?.[1] ?? 0,
    );
    if (memEvery > 0 && performance.now() - memAt >= memEvery) {
      memAt = performance.now();
      const mb = (name: string) => Math.round(gauge(t, name) / 2 ** 20);
      console.error(
        JSON.stringify({
          frames,
          heapUsedMb: mb('nodejs_heap_size_used_bytes'),
          heapTotalMb: mb('nodejs_heap_size_total_bytes'),
          externalMb: mb('nodejs_external_memory_bytes'),
          rssMb: mb('process_resident_memory_bytes'),
        }),
      );
    }
    return frames;
  } catch {
    return -1;
  }
};
const board = load(`${origin}/api/mana?limit=20&weekly=true`, Number(process.env.QB_BOARD ?? 12), 10);
const loopStart = app.loop.length;
const t0 = performance.now();
const c0 = await cpu();
let s0 = -1;
let tFirst = 0;
let cFirst = 0;
let last = 0;
const snaps = (process.env.QB_SNAP ?? '').split(',').filter(Boolean).map(Number);
while (performance.now() - t0 < 300_000) {
  const v = await seen();
  if (v > 0 && s0 < 0) {
    s0 = v;
    tFirst = performance.now();
    cFirst = await cpu();
  }
  last = v;
  // QB_SNAP=0.3,0.9: at these shares of the frames, SIGUSR2 to the server (run with
  // NODE_OPTIONS=--heapsnapshot-signal=SIGUSR2 and --diagnostic-dir=<dir>: it writes a heap snapshot there).
  while (snaps.length && v >= (snaps[0] ?? 1) * frames) {
    snaps.shift();
    console.error(JSON.stringify({ snapshotAt: v }));
    process.kill(pid, 'SIGUSR2');
  }
  rssPeak = Math.max(rssPeak, await rss());
  if (v >= frames) break;
  await new Promise((r) => setTimeout(r, 250));
}
const t1 = performance.now();
const c1 = await cpu();
if (memEvery > 0) {
  memAt = 0;
  await seen(); // the memory at the end
}
const rssEnd = await rss();
const b = await board;
const loops = app.loop.slice(loopStart);
const p99s = loops.map((l) => l.p99Ms).sort((a, b) => a - b);
console.log(
  JSON.stringify({
    frames: last,
    seconds: (t1 - tFirst) / 1000,
    eventsPerSecond: (last - s0) / ((t1 - tFirst) / 1000),
    cpuMicrosPerFrame: ((c1 - c0) * 1e6) / last,
    cores: (c1 - cFirst) / ((t1 - tFirst) / 1000),
    board: b,
    loopP99s: p99s,
    loopMedianP99: p99s[Math.floor(p99s.length / 2)],
    loopWorstP99: p99s.at(-1),
    loopMax: Math.max(...loops.map((l) => l.maxMs)),
    rssPeakMb: Math.round(rssPeak),
    rssEndMb: Math.round(rssEnd),
  }),
);
for (const pid of [-(app.child.pid ?? 0), relay.pid]) {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}
await fs.rm(dataDir, { recursive: true, force: true }).catch(() => undefined);
process.exit(0);
