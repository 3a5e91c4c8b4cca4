// Issue 31: the stream thread's memory alone, on the distinct stream (bench/stream-distinct.ts's cached frames and
// relay). This process does what the stream's worker thread does in `npm start` on Bluesky: readRelay (the frame
// queue, the frame reader, the interest and its waiting room, the batching) from the relay's first frame, with
// V8's young generation as the server gives it (--max-semi-space-size=4, as scripts/runtime-env.mjs); each batch is
// taken at once (no database), so the reading is as fast as this thread can go. Every second it samples
// process.memoryUsage() (V8's heap used and committed, the ArrayBuffers' memory: "external") and counts V8's
// collections; at the end it prints one JSON line: frames, CPU µs a frame, the waiting room's size, and each
// figure's median, most and last. Usage:
// node --max-semi-space-size=4 --import tsx bench/stream-thread-memory.ts (BENCH_THREAD_FRAMES: stop after so many)
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { createFrameReader } from '../apps/server/src/integrations/bluesky/bluesky-frames';
import { readRelay } from '../apps/server/src/integrations/bluesky/bluesky-relay';
import { postMadeAt } from '../apps/server/src/integrations/bluesky/bluesky-tid';
import { StreamInterest } from '../apps/server/src/social/stream-interest';
import { startDistinctRelay } from './lib/distinct-relay';
import { loadDistinctStream } from './lib/distinct-stream';

const meta = await loadDistinctStream((line) => console.error(line));
const limit = Math.min(Number(process.env.BENCH_THREAD_FRAMES ?? meta.params.frames), meta.params.frames);
const relay = await startDistinctRelay({
  key: meta.key,
  rate: meta.params.networkRate,
  backlog: meta.params.frames,
  fromFirst: true,
});

const gcs = { minor: 0, major: 0 };
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const kind = (entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind;
    if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) gcs.major++;
    else if (kind === constants.NODE_PERFORMANCE_GC_MINOR) gcs.minor++;
  }
}).observe({ entryTypes: ['gc'] });

const interest = new StreamInterest(Date.now, postMadeAt);
interest.load({ tracked: [], people: [], officials: [], names: Object.assign(() => false, { terms: null }) });
const abort = new AbortController();
const sink = { skip: () => undefined, info: () => undefined, refilled: () => undefined };
const mb = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10;
type Sample = { heapUsed: number; heapTotal: number; external: number; arrayBuffers: number; rss: number };
const samples: Sample[] = [];
const sample = () => {
  const m = process.memoryUsage();
  samples.push({
    heapUsed: mb(m.heapUsed),
    heapTotal: mb(m.heapTotal),
    external: mb(m.external),
    arrayBuffers: mb(m.arrayBuffers),
    rss: mb(m.rss),
  });
};
const timer = setInterval(sample, 1_000);
let frames = 0;
const cpu0 = process.cpuUsage();
const t0 = performance.now();
for await (const batch of readRelay(
  { relayUrl: relay.url, sliceMs: 10 },
  createFrameReader(),
  null,
  interest,
  abort.signal,
  sink,
)) {
  frames += batch.seen;
  interest.confirm();
  if (frames >= limit) break;
}
const cpu = process.cpuUsage(cpu0);
const seconds = (performance.now() - t0) / 1000;
sample();
clearInterval(timer);
const stat = (key: keyof Sample) => {
  const v = samples.map((s) => s[key]).sort((a, b) => a - b);
  return { median: v[Math.floor(v.length / 2)], most: v.at(-1), last: samples.at(-1)?.[key] };
};
console.log(
  JSON.stringify({
    frames,
    seconds: Math.round(seconds * 10) / 10,
    framesPerSecond: Math.round(frames / seconds),
    cpuMicrosPerFrame: Math.round(((cpu.user + cpu.system) / frames) * 10) / 10,
    waiting: interest.size.waiting,
    gcs,
    heapUsedMb: stat('heapUsed'),
    heapTotalMb: stat('heapTotal'),
    externalMb: stat('external'),
    arrayBuffersMb: stat('arrayBuffers'),
    rssMb: stat('rss'),
  }),
);
await relay.close();
process.exit(0);
