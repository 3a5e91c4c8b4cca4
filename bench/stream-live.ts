// Issue 22: the consumer live, over a real WebSocket: the replay server (apps/server/src/test/subscribe-repos-replay.ts)
// serves the recorded public mix as a live stream at BENCH_LIVE_RATE events/s (default 2,000), each frame's seq and
// time made live; the Bluesky source (BlueskyFirehose, the worker's own) reads it and the engine's stream job stores
// on PGlite. Lag = when a batch was stored − the network time of its newest event (the frames' rewritten `time`,
// when the server produced them), from every progress report. Then a backlog: the consumer starts
// BENCH_BACKLOG_SECONDS behind (default 60) while the stream goes on, and the time until it has caught up (stored
// lag under 2 s) is measured. The replay server and the consumer share this process (and the machine's cores).
import { BlueskyFirehose } from '../apps/server/src/integrations/bluesky/bluesky-firehose';
import { createFrameReader } from '../apps/server/src/integrations/bluesky/bluesky-frames';
import type { StreamProgressReport } from '../apps/server/src/jobs/stream-progress-report';
import { startReplayServer } from '../apps/server/src/test/subscribe-repos-replay';
import { framesOf, type Recording } from './lib/firehose-recording';
import { benchLog, openConsumer } from './lib/stream-consumer';
import { fmt } from './lib/stats';

const rate = Number(process.env.BENCH_LIVE_RATE ?? 2000);
const liveSeconds = Number(process.env.BENCH_LIVE_SECONDS ?? 60);
const backlogSeconds = Number(process.env.BENCH_BACKLOG_SECONDS ?? 60);

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};

async function run(
  recording: Recording,
  backlog: number,
  until: (lags: number[], seconds: number) => boolean,
) {
  const frames = framesOf(recording, recording.meta.phases.public);
  const server = await startReplayServer({ frames, rate, live: true, backlogSeconds: backlog });
  const lags: number[] = [];
  let seen = 0;
  const firstSeq = (recording.seqs.find((s) => s >= recording.meta.phases.public.fromSeq) ?? 1) - 1;
  const consumer = await openConsumer({
    meta: recording.meta,
    kind: 'pglite',
    source: new BlueskyFirehose({
      relayUrl: server.url,
      log: benchLog,
      reader: createFrameReader(),
      gapNote: 'the bench has no gaps',
    }),
    ...(backlog > 0 ? { fromSeq: firstSeq } : {}),
    onProgress: (report: StreamProgressReport) => {
      seen += report.seen;
      if (report.cursorTime) lags.push((report.at.getTime() - report.cursorTime.getTime()) / 1000);
    },
  });
  const started = performance.now();
  try {
    await consumer.job.start();
    while (!until(lags, (performance.now() - started) / 1000)) await new Promise((r) => setTimeout(r, 200));
    const seconds = (performance.now() - started) / 1000;
    return { lags, seen, seconds, records: await consumer.count('stream_records') };
  } finally {
    await consumer.job.stop();
    await consumer.close();
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
}
