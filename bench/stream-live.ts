// Issue 22: the consumer live, over a real WebSocket: the replay server (apps/server/src/test/subscribe-repos-replay.ts,
// in a process of its own: lib/replay-process.ts) serves the recorded public mix as a live stream at
// BENCH_LIVE_RATE events/s (default 2,000), each frame's seq and time made live; the Bluesky source (BlueskyFirehose,
// the worker's own) reads it and the engine's stream job stores on PGlite, in a third process (lib/consumer-process.ts). Lag = when a batch was
// stored − the network time of its newest event (the frames' rewritten `time`, when the server produced them),
// from every progress report. Then a backlog: the consumer starts BENCH_BACKLOG_SECONDS behind (default 60) while
// the stream goes on, and the time until it has caught up (stored lag under 2 s) is measured. Then memory: the
// consumer reads a backlog it cannot finish, at full speed, for BENCH_MEMORY_SECONDS (default 600), and its
// process's resident memory is sampled every 10 s.
import { startConsumerProcess } from './lib/consumer-process';
import type { Recording } from './lib/firehose-recording';
import { startReplayProcess } from './lib/replay-process';
import { fmt } from './lib/stats';

const rate = Number(process.env.BENCH_LIVE_RATE ?? 2000);
const liveSeconds = Number(process.env.BENCH_LIVE_SECONDS ?? 60);
const backlogSeconds = Number(process.env.BENCH_BACKLOG_SECONDS ?? 60);
const memorySeconds = Number(process.env.BENCH_MEMORY_SECONDS ?? 600);
const MB = 1024 * 1024;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};

async function run(
  recording: Recording,
  backlog: number,
  until: (lags: number[], seconds: number) => boolean,
  every10s?: (seconds: number, rss: number) => void,
) {
  const server = await startReplayProcess({ mix: 'public', rate, backlogSeconds: backlog });
  const lags: number[] = [];
  let seen = 0;
  const firstSeq = (recording.seqs.find((s) => s >= recording.meta.phases.public.fromSeq) ?? 1) - 1;
  const consumer = await startConsumerProcess(
    { relayUrl: server.url, ...(backlog > 0 ? { fromSeq: firstSeq } : {}) },
    (report) => {
      seen += report.seen;
      if (report.cursorTime !== null) lags.push((report.at - report.cursorTime) / 1000);
    },
  );
  const started = performance.now();
  try {
    let sampled = 0;
    for (;;) {
      const seconds = (performance.now() - started) / 1000;
      if (until(lags, seconds)) break;
      if (every10s && seconds >= sampled + 10) every10s((sampled += 10), await consumer.rss());
      await new Promise((r) => setTimeout(r, 200));
    }
    const seconds = (performance.now() - started) / 1000;
    return { lags, seen, seconds };
  } finally {
    await consumer.stop();
    await server.close();
  }
}

export async function liveStreamBench(recording: Recording): Promise<void> {
  const live = await run(recording, 0, (_, seconds) => seconds >= liveSeconds);
  const steady = live.lags.slice(Math.floor(live.lags.length / 10)); // the first tenth: connecting, warming up
  console.log(
    `bluesky consumer live over WebSocket (replay server at ${rate} events/s, public mix, PGlite, ${fmt(live.seconds, 0)} s): ` +
      `${fmt(live.seen / live.seconds, 0)} events/s read; lag per stored batch p50 ${fmt(percentile(steady, 50))} s, ` +
      `p99 ${fmt(percentile(steady, 99))} s, max ${fmt(Math.max(...steady))} s (${steady.length} batches after the first tenth)`,
  );
  const backlog = rate * backlogSeconds;
  const caught = await run(
    recording,
    backlogSeconds,
    (lags, seconds) => (lags.length > 0 && (lags.at(-1) ?? Infinity) < 2) || seconds > 20 * backlogSeconds,
  );
  const done = (caught.lags.at(-1) ?? Infinity) < 2;
  console.log(
    `bluesky consumer catching up a ${backlogSeconds} s backlog (${backlog} events at ${rate} events/s, the stream ` +
      `going on): ${done ? 'caught up' : 'NOT caught up'} in ${fmt(caught.seconds, 1)} s ` +
      `(${fmt(caught.seen / caught.seconds, 0)} events/s read meanwhile)`,
  );
  await memoryRun(recording);
}

/** Full speed for `memorySeconds`: resident memory after the first minute and at the end (bounded: ±20 %). */
async function memoryRun(recording: Recording): Promise<void> {
  if (memorySeconds <= 0) return;
  const samples: Array<{ seconds: number; rss: number }> = [];
  // A backlog it cannot finish: the consumer reads as fast as it can the whole time.
  const result = await run(
    recording,
    memorySeconds * 20,
    (_, seconds) => seconds >= memorySeconds,
    (seconds, rss) => samples.push({ seconds, rss }),
  );
  const first = samples.find((s) => s.seconds >= 60) ?? samples[0];
  const last = samples.at(-1);
  if (!first || !last) return;
  const peak = Math.max(...samples.map((s) => s.rss));
  console.log(
    `bluesky consumer at full speed for ${fmt(result.seconds, 0)} s (a backlog it cannot finish, PGlite, the ` +
      `consumer's own process): ${fmt(result.seen / result.seconds, 0)} events/s read; resident memory after ${first.seconds} s ` +
      `${fmt(first.rss / MB, 0)} MB, at the end ${fmt(last.rss / MB, 0)} MB (${fmt(last.rss / first.rss)}× the first ` +
      `minute [goal 0.8–1.2×]), peak ${fmt(peak / MB, 0)} MB; every 60 s: ` +
      samples
        .filter((s) => s.seconds % 60 === 0)
        .map((s) => `${fmt(s.rss / MB, 0)}`)
        .join(' '),
  );
}
